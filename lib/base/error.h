// Errors that keep errno as a number, and the value-or-error type every
// fallible call returns. An Error names the operation, the path, the offset
// where one applies and errno, so a caller can test `error.errno_value ==
// EINVAL` without matching text. Exceptions are used only at the CLI boundary;
// lib/ returns Result.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace alignbench {

// What kind of failure, which decides the documented exit code (see
// ExitCodeFor).
// kNotSaved: measured, but the result could not be written where --out asked
// (it went to a fallback file instead). kRegression: compare
// --fail-on-regression found a pair firmly slower than its limit.
enum class ErrorKind { kUsage, kSetup, kIo, kNotSaved, kRegression };

struct Error {
  ErrorKind kind = ErrorKind::kSetup;
  // "pwrite", "open", "case file", ...
  std::string operation;
  // Empty when no path applies
  std::string path;
  std::optional<std::int64_t> offset;
  // 0 when the error did not come from a system call
  int errno_value = 0;
  // The message when errno_value == 0
  std::string detail;
  // What the user can do about it; may be empty
  std::string hint;

  // One line: "pwrite /d/.alignbench-1-ab: No space left on device (ENOSPC) at
  // offset 5; hint".
  std::string Message() const;
};

// An error from a failed system call; errno_value is the errno it left.
Error SystemError(ErrorKind kind, std::string operation, std::string path,
                  int errno_value,
                  std::optional<std::int64_t> offset = std::nullopt);
// An error that did not come from a system call (bad input, unmet requirement).
Error PlainError(ErrorKind kind, std::string operation, std::string detail);

// Text from outside the program (a path, a device model, any string in a
// result file) is printed only through this: a control character (C0 or DEL)
// becomes a C escape ("a\nb", "\x1b", "\x7f"), so printing it can neither
// split a line, forge a header nor send a command to the terminal.
// Backslashes are kept as they are.
std::string EscapeControl(std::string_view text);

// "ENOSPC" for ENOSPC; "errno 1234" for a number the C library does not know.
std::string ErrnoName(int errno_value);

// Which commands exit with a code: each command's --help lists only its own.
enum class ExitScope {
  kEveryCommand,
  kMeasurement,  // the run: it measures and saves (env, show, compare read)
  kRecord,       // record -- COMMAND
  kCompare,      // compare --fail-on-regression
};

// The one table of exit codes: --help prints it, ExitCodeFor reads it, and a
// unit test holds docs/reference.md's list against it. `kind` is the error
// kind that exits with the code, if one does. `reading`: what the code means
// for the commands that measure nothing (env, show, compare, record), where
// `meaning` speaks of measuring.
struct ExitCodeRow {
  std::string_view code;
  std::optional<ErrorKind> kind;
  std::string_view meaning;
  ExitScope scope = ExitScope::kEveryCommand;
  std::string_view reading = {};
};
inline constexpr int kExitInterrupted = 130;  // as a shell reports SIGINT
inline constexpr ExitCodeRow kExitCodes[] = {
    {"0", std::nullopt, "success"},
    {"1", ErrorKind::kUsage, "usage: a bad option, value, case or result file",
     ExitScope::kEveryCommand,
     "usage: a bad option, value or operand (a file that is no result)"},
    {"2", ErrorKind::kSetup, "setup: before measuring, or out of memory",
     ExitScope::kEveryCommand,
     "setup: a file, directory or program it needs could not be had, or out "
     "of memory"},
    {"3", ErrorKind::kIo,
     "I/O error during measurement, or standard output not written",
     ExitScope::kEveryCommand, "standard output not written"},
    {"4", ErrorKind::kNotSaved,
     "measured but --out could not be written (kept in a fallback file)",
     ExitScope::kMeasurement},
    // Not 1: that is a file that is no result, which a CI gate must tell
    // apart from a slower one.
    {"5", ErrorKind::kRegression,
     "compare --fail-on-regression PCT: a pair got firmly slower than PCT "
     "allows (the table is printed all the same)",
     ExitScope::kCompare},
    {"130", std::nullopt,
     "stopped by Ctrl-C; what was measured is saved, marked incomplete",
     ExitScope::kMeasurement},
    {"N", std::nullopt,
     "record -- COMMAND: COMMAND's own exit status where it was not 0 "
     "(128+N for signal N); its trace is saved all the same",
     ExitScope::kRecord},
    {"128+N", std::nullopt, "killed by signal N"},
};

// The code of kExitCodes whose row names `kind`.
int ExitCodeFor(ErrorKind kind);

// When a failure happened: in the checks before anything is measured, or once
// measuring has begun (a run's preparation or its timed loop).
enum class Phase { kSetup, kMeasurement };

// The one errno table (kErrnoAnswers in error.cc, documented in
// docs/reference.md, "Errors and exit codes"): one hint per errno, and the exit
// kind per phase, so a full disk gets the same answer from fallocate, the
// prewritten layout's zero fill, a timed pwrite or a sync. A hint the caller
// set because it knows more (EINVAL from an unaligned O_DIRECT write) is kept.
// `run_bytes` is what one run needs on disk, said with ENOSPC and EDQUOT.
Error Answer(Error error, Phase phase, std::uint64_t run_bytes = 0);

struct Ok {};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error)
      : value_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(value_); }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<T>(value_); }
  const T& value() const& { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  const Error& error() const { return std::get<Error>(value_); }

 private:
  std::variant<T, Error> value_;
};

using Status = Result<Ok>;

}  // namespace alignbench
