// lib/trace/processes.h: a program found in $PATH and its Debian package, a
// process's command line and descendants, a command run to its end.
#include "lib/trace/processes.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>

using namespace alignbench;

TEST_CASE("record: programs are found in $PATH, and their output read") {
  const std::string sh = InPath("sh");
  REQUIRE_FALSE(sh.empty());
  CHECK(sh[0] == '/');
  CHECK(InPath("alignbench-no-such-program").empty());
  CHECK(InPath("/no/such/program").empty());
  CHECK(OutputOf({"echo", "one", "two"}) == "one two");
  CHECK(OutputOf({"false"}).empty());  // failed: nothing
  CHECK(FirstLineOf({"printf", "strace -- version 6.1\nCopyright\n"}) ==
        "strace -- version 6.1");
  CHECK(OutputOf({"alignbench-no-such-program"}).empty());
}

TEST_CASE("record: a program's version comes from its Debian package") {
  CHECK(ProgramVersion("") == "unknown");
  const std::string sh = ProgramVersion(InPath("sh"));
  if (OutputOf({"dpkg-query", "--version"}).empty()) {
    WARN("dpkg-query missing: the version is not checked");
    return;
  }
  // /bin/sh is dash on Debian, and dash says its version: a package name and
  // the version dpkg has for it.
  CHECK(sh.find("(Debian package of ") != std::string::npos);
  CHECK(
      ProgramVersion("/no/such/program").find("belongs to no Debian package") !=
      std::string::npos);
}

TEST_CASE("record: a process's command line and its descendants") {
  const std::vector<std::string> self = CommandLineOf(::getpid());
  REQUIRE_FALSE(self.empty());
  CHECK(self[0].find("unit_tests") != std::string::npos);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  const std::vector<pid_t> family = Family(::getpid());
  CHECK_FALSE(IsZombie(child));
  ::kill(child, SIGKILL);
  // Killed and not yet reaped: a zombie, until waitpid.
  siginfo_t info{};
  ::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT);
  CHECK(IsZombie(child));
  // Not in the family to trace: strace could never attach to it.
  const std::vector<pid_t> living = Family(::getpid());
  CHECK(std::find(living.begin(), living.end(), child) == living.end());
  ::waitpid(child, nullptr, 0);
  CHECK_FALSE(IsZombie(child));
  CHECK(family.front() == ::getpid());
  CHECK(std::find(family.begin(), family.end(), child) != family.end());
}

TEST_CASE("record: the tracer runs to its end and its status is returned") {
  sigset_t before, during, after;
  ::sigprocmask(SIG_SETMASK, nullptr, &before);
  {
    StopSignals stop;
    ::sigprocmask(SIG_SETMASK, nullptr, &during);
    Result<int> status = RunStrace({"/bin/sh", "-c", "exit 3"}, {}, stop);
    REQUIRE(status);
    REQUIRE(WIFEXITED(status.value()));
    CHECK(WEXITSTATUS(status.value()) == 3);
  }
  ::sigprocmask(SIG_SETMASK, nullptr, &after);
  for (int signo : {SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGPIPE}) {
    INFO(SignalName(signo));
    CHECK(sigismember(&during, signo) == 1);  // blocked while recording
    CHECK(sigismember(&after, signo) == sigismember(&before, signo));
  }
}

TEST_CASE("record: a stop signal ends the command, passed on as SIGTERM") {
  // The signal arrives before the command has started (raised here, taken
  // in the loop): it waits for the command, then ends it, not the shell.
  StopSignals stop;
  ::raise(SIGHUP);
  StraceRun run;
  run.command = "sh";
  Result<int> status =
      RunStrace({"/bin/sh", "-c", "sleep 30 || exit 7"}, run, stop);
  REQUIRE(status);
  REQUIRE(WIFEXITED(status.value()));
  CHECK(WEXITSTATUS(status.value()) == 7);
}

TEST_CASE("record: who traces a process, and the line of record's ancestors") {
  CHECK(TracerOf(::getpid()) == 0);
  const std::vector<pid_t> line = SelfAndAncestors();
  REQUIRE(line.size() >= 2);
  CHECK(line[0] == ::getpid());
  CHECK(line[1] == ::getppid());
  CHECK(SignalName(SIGHUP) == "SIGHUP");
}
