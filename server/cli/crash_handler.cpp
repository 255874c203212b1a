#include "server/cli/crash_handler.h"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <initializer_list>

namespace tilesight::cli {

namespace {

// The handler's own stack: the thread's stack is gone after an overflow.
alignas(16) char gAltStack[1 << 16];

void say(const char* s) { (void)!::write(STDERR_FILENO, s, std::strlen(s)); }

const char* signalName(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGFPE: return "SIGFPE (arithmetic error)";
    case SIGABRT: return "SIGABRT (aborted)";
    default: return "a fatal signal";
  }
}

// Async-signal-safe only: write, backtrace (its unwinder was loaded before),
// backtrace_symbols_fd (writes straight to the descriptor), raise.
void onCrash(int sig) {
  say("tilesight: internal error: ");
  say(signalName(sig));
  say("; please report it with the input that caused it. Backtrace:\n");
  void* frames[64];
  int n = ::backtrace(frames, 64);
  ::backtrace_symbols_fd(frames, n, STDERR_FILENO);
  // SA_RESETHAND restored the default action: the process ends with `sig`.
  ::raise(sig);
}

}  // namespace

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TILESIGHT_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TILESIGHT_ASAN 1
#endif

void installCrashHandler() {
#ifndef TILESIGHT_ASAN  // AddressSanitizer's own reports say more
  // The first backtrace() loads the unwinder (dlopen, malloc): do it now.
  void* warm[1];
  ::backtrace(warm, 1);
  stack_t ss{};
  ss.ss_sp = gAltStack;
  ss.ss_size = sizeof gAltStack;
  ::sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_handler = onCrash;
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) ::sigaction(sig, &sa, nullptr);
#endif
}

}  // namespace tilesight::cli
