#pragma once
// The device guard (simt::Kernel::guarded): the table of the launch's
// buffers a guarded kernel checks every global access against, and the
// fault it records for the first access outside them, told as the
// interpreter tells an access outside every buffer of a run.
#include <optional>
#include <string>
#include <vector>

#include "codegen/runtime/launch.h"
#include "codegen/simt/kernel.h"

namespace tilesight::device {

// The buffers the guard lets the kernel access: every buffer of l
// (runtime::hostBuffer's numbering) but argument `guardArg` itself and `excluded`
// (the print buffer, which only the kernel's own print code writes).
std::vector<size_t> guardedBuffers(const runtime::Launch& l, size_t guardArg, const std::vector<size_t>& excluded);

// Fills argument `guardArg` of l (the guard's words, zeroed record, then
// one (base, size) pair per guarded buffer) and adds the address words that
// give the bases their device addresses. Call once l's buffers are all there.
void fillGuard(runtime::Launch& l, size_t guardArg, const std::vector<size_t>& excluded);

struct GuardFault {
  const simt::GuardSite* site = nullptr;
  int64_t block = 0;    // linear
  std::string message;  // "a store of 4 bytes at %out + 64 bytes (the buffer has 64) is outside ..."
};

// The fault the kernel recorded in its guard's words (read back after the launch), if any.
std::optional<GuardFault> guardFault(const simt::Kernel& k, const runtime::Launch& l, size_t guardArg,
                                     const std::vector<size_t>& excluded);

}  // namespace tilesight::device
