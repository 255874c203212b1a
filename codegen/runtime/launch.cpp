#include "codegen/runtime/launch.h"

#include <cstring>

namespace tilesight::runtime {

size_t bufferCount(const Launch& l) { return l.args.size() + l.indirect.size(); }

HostBuffer* hostBuffer(const Launch& l, size_t j) {
  return j < l.args.size() ? l.args[j].buffer : l.indirect[j - l.args.size()];
}

std::vector<uint8_t> uploadBytes(const Launch& l, size_t j, const std::vector<uint64_t>& addresses) {
  std::vector<uint8_t> bytes = hostBuffer(l, j)->bytes;
  for (const AddressWord& w : l.addressWords)
    if (w.arg == j && w.offset + 8 <= bytes.size()) std::memcpy(bytes.data() + w.offset, &addresses[w.target], 8);
  return bytes;
}

void restoreAddressWords(const Launch& l, size_t j, const std::vector<uint8_t>& uploaded) {
  HostBuffer& b = *hostBuffer(l, j);
  for (const AddressWord& w : l.addressWords) {
    if (w.arg != j || w.offset + 8 > b.bytes.size()) continue;
    uint64_t host = hostBuffer(l, w.target)->address();
    if (std::memcmp(b.bytes.data() + w.offset, uploaded.data() + w.offset, 8) == 0)
      std::memcpy(b.bytes.data() + w.offset, &host, 8);
  }
}

}  // namespace tilesight::runtime
