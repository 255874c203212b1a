#include "codegen/runtime/buffers.h"

#include <cstdio>

namespace tilesight::runtime {

int64_t HostBuffer::elementCount() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

HostBuffer& AddressSpace::add(HostBuffer b) {
  std::lock_guard<std::mutex> lock(mutex_);
  // A zero-size buffer still needs an address of its own.
  if (b.bytes.empty()) b.bytes.reserve(1);
  buffers_.push_back(std::make_unique<HostBuffer>(std::move(b)));
  HostBuffer* h = buffers_.back().get();
  byAddress_[h->address()] = h;
  return *h;
}

const HostBuffer* AddressSpace::find(uint64_t addr, uint64_t len) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byAddress_.upper_bound(addr);
  if (it == byAddress_.begin()) return nullptr;
  --it;
  const HostBuffer* b = it->second;
  uint64_t end = b->address() + b->bytes.size();
  return addr + len <= end && addr + len >= addr ? b : nullptr;
}

std::string AddressSpace::describe(uint64_t addr) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byAddress_.upper_bound(addr);
  if (it == byAddress_.begin()) return describeAt(nullptr, 0, addr);
  --it;
  return describeAt(it->second, addr - it->second->address(), addr);
}

std::string describeAt(const HostBuffer* b, uint64_t off, uint64_t addr) {
  if (b && off <= b->bytes.size() + 4096)
    return b->name + " + " + std::to_string(off) + " bytes" +
           (off >= b->bytes.size() ? " (the buffer has " + std::to_string(b->bytes.size()) + ")" : "");
  char text[40];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(addr));
  return std::string("no buffer (") + text + ")";
}

}  // namespace tilesight::runtime
