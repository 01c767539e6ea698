// The mutable globals of the project, both for the signal handler: a
// signal-safe registry of files to unlink when the process is interrupted,
// and the graceful Ctrl-C's flag (below).
// InstallSignalCleanup() hooks every signal whose default action ends the
// process (see kFatalSignals in cleanup.cc); the handler unlinks every
// registered path, restores the default action and re-raises, so the exit
// status still shows the signal. As PID 1 (a container without an init) the
// kernel drops the re-raised signal, so the handler then ends the process
// itself with _exit(128 + signal). Register/Unregister may be called from one
// thread only.
#pragma once

#include <string>

namespace alignbench {

void InstallSignalCleanup();

// While on, the first SIGINT does not end the process: it only asks the
// measuring to stop at the next write (InterruptRequested), and says so on
// stderr; a second SIGINT ends it as any other signal does. Off again, SIGINT
// ends the process at once. Like the registry, the flag is a global because a
// signal handler can reach nothing else.
void AllowGracefulInterrupt(bool on);
bool InterruptRequested();

// A registered directory (a private one the files were made in) is removed
// after the files, once they are gone. Returns a slot for Unregister, or -1
// if the registry is full or the path too long (the caller then refuses to
// create the file: a file we could not register could leak).
int RegisterForCleanup(const std::string& path);
void UnregisterCleanup(int slot);

}  // namespace alignbench
