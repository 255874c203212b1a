#pragma once
// What a run-time compiler (NVRTC, hiprtc) hands out in two calls, its size
// and then its bytes: the log, the PTX, the cubin or code object.
#include <string>

namespace tilesight::runtime {

// The bytes `get` copies out after `size` reported how many; empty when
// `size` fails or reports none.
template <class Program, class SizeFn, class GetFn>
std::string compilerOutput(Program prog, SizeFn size, GetFn get) {
  size_t n = 0;
  if (!size || !get || size(prog, &n) != 0 || n == 0) return {};
  std::string out(n, '\0');
  get(prog, out.data());
  return out;
}

// A log without its terminating NULs and trailing newlines.
inline std::string compilerLog(std::string log) {
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

}  // namespace tilesight::runtime
