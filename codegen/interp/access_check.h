#pragma once
// Every memory access of a run lies inside one buffer: checked per access,
// remembering the last buffer found so that a run of accesses into one
// buffer costs two comparisons each.
#include <string>

#include "codegen/interp/block_exec.h"

namespace tilesight::interp {

class AccessCheck {
public:
  AccessCheck(BlockExec& x, const Operation& op) : x_(x), op_(op) {}
  // Fails the run unless bytes [address, address + len) lie in one buffer.
  void require(uint64_t address, uint64_t len, const char* what) {
    if (address >= lo_ && address + len <= hi_ && address + len >= address) return;
    const runtime::HostBuffer* b = x_.launch().memory.find(address, len);
    if (!b)
      x_.fail(op_, std::string(what) + " of " + std::to_string(len) + " bytes at " +
                       x_.launch().memory.describe(address) + " is outside every buffer of the run");
    lo_ = b->address();
    hi_ = lo_ + b->bytes.size();
  }

private:
  BlockExec& x_;
  const Operation& op_;
  uint64_t lo_ = 1, hi_ = 0;
};

}  // namespace tilesight::interp
