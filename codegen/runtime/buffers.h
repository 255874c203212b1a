#pragma once
// Host memory of one run: the buffers given to pointer arguments, module
// globals and alloca scratch, each a byte array at a fixed address. Pointer
// values are host addresses (for 4-bit pointees: twice the byte address plus
// the nibble, so that one element is one unit; see runtime/element_bits.h), and
// every access is checked to lie inside one buffer.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "analysis/ir/types.h"

namespace tilesight::runtime {

struct HostBuffer {
  std::string name;             // the argument's name, @global, or "alloca at line N"
  Elem elem = Elem::None;       // pointee element type
  std::vector<int64_t> shape;   // as given (.npy shape, zeros:/rand: shape)
  std::vector<uint8_t> bytes;   // packed elements (4-bit: two per byte, low nibble first)
  // How `--out` writes it: the NumPy dtype it was given as (uint8 data for an
  // i8 pointer stays uint8), or npyDescrOf(elem) when empty; column-major
  // when it came from a Fortran-order file.
  std::string npyDescr;
  bool fortranOrder = false;
  int64_t elementCount() const;
  uint64_t address() const { return reinterpret_cast<uint64_t>(bytes.data()); }
};

// Where an address `offset` bytes past b's start is, for messages: "%a + 16
// bytes" (with the buffer's size when past its end), or "no buffer (0x...)"
// (`address`) when b is null or the address lies more than a page past it.
std::string describeAt(const HostBuffer* b, uint64_t offset, uint64_t address);

// The buffers of a run, for address lookups. Buffers are owned here and
// never move once added.
class AddressSpace {
public:
  HostBuffer& add(HostBuffer b);
  // The buffer holding bytes [addr, addr + len), nullptr when none does.
  const HostBuffer* find(uint64_t addr, uint64_t len) const;
  // Where `addr` is, for messages: "%a + 16 bytes", or "no buffer (0x...)".
  std::string describe(uint64_t addr) const;
  const std::vector<std::unique_ptr<HostBuffer>>& buffers() const { return buffers_; }

private:
  std::vector<std::unique_ptr<HostBuffer>> buffers_;
  std::map<uint64_t, HostBuffer*> byAddress_;  // start address -> buffer
  mutable std::mutex mutex_;                   // alloca adds buffers while blocks run
};

}  // namespace tilesight::runtime
