#pragma once
// What the process does when it crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
// SIGABRT): one line naming the signal and a raw backtrace on stderr, then the
// signal's default action, so that it ends at once and an editor can restart
// it. Unlike LLVM's handler it runs no symbolizer, writes no file and calls
// nothing that allocates, so it cannot deadlock in a malloc that crashed, and
// it runs on a stack of its own, so a stack overflow is reported too.
namespace tilesight::cli {

void installCrashHandler();

}  // namespace tilesight::cli
