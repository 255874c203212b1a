#pragma once
// print_tko on a device: the print buffer a kernel with prints takes
// (simt::Kernel::prints has its layout) and the text of the records it left,
// formatted on the host as the interpreter formats its prints.
#include <string>

#include "analysis/ir/ir.h"
#include "codegen/runtime/buffers.h"
#include "codegen/simt/kernel.h"

namespace tilesight::device {

// An empty print buffer of `words` (at least 2) 64-bit words: counter and capacity set.
runtime::HostBuffer printBuffer(uint64_t words);

struct DevicePrints {
  std::string text;         // every record, in the order the device reserved them
  uint64_t missingWords = 0;  // > 0: the buffer overflowed; later prints are lost
};

DevicePrints formatDevicePrints(const simt::Kernel& k, const Program& p, const runtime::HostBuffer& buffer);

}  // namespace tilesight::device
