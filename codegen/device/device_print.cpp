#include "codegen/device/device_print.h"

#include <cstring>

#include "codegen/interp/print_format.h"

namespace tilesight::device {

namespace {

uint64_t wordAt(const runtime::HostBuffer& b, uint64_t w) {
  uint64_t v = 0;
  if ((w + 1) * 8 <= b.bytes.size()) std::memcpy(&v, b.bytes.data() + w * 8, 8);
  return v;
}

// Operand tile `type` rebuilt from its n words at `at`.
std::shared_ptr<interp::Tile> tileFrom(TypeRef type, int64_t n, const runtime::HostBuffer& b, uint64_t at) {
  auto t = interp::Tile::make(type, n);
  for (int64_t k = 0; k < n; ++k) {
    uint64_t w = wordAt(b, at + k);
    double d = 0;
    std::memcpy(&d, &w, 8);
    switch (t->store) {
      case interp::Store::Int: t->ints()[k] = static_cast<int64_t>(w); break;
      case interp::Store::F32: t->f32()[k] = static_cast<float>(d); break;
      case interp::Store::F64: t->f64()[k] = d; break;
    }
  }
  return t;
}

}  // namespace

runtime::HostBuffer printBuffer(uint64_t words) {
  runtime::HostBuffer b;
  b.name = "print buffer";
  b.elem = Elem::I64;
  b.shape = {static_cast<int64_t>(words)};
  b.bytes.assign(words * 8, 0);
  uint64_t head[2] = {2, words};
  std::memcpy(b.bytes.data(), head, sizeof head);
  return b;
}

DevicePrints formatDevicePrints(const simt::Kernel& k, const Program& p, const runtime::HostBuffer& buffer) {
  DevicePrints out;
  uint64_t used = wordAt(buffer, 0), capacity = wordAt(buffer, 1);
  uint64_t at = 2;
  while (at < used && at < capacity) {
    uint64_t site = wordAt(buffer, at) >> 32;
    if (site == 0 || site > k.prints.size()) break;  // a record reserved but not written (it did not fit)
    const Operation& op = *k.prints[site - 1];
    std::vector<std::shared_ptr<interp::Tile>> tiles;
    uint64_t next = at + 1;
    for (const Operand& o : op.operands) {
      TypeRef t = p.typeOf(o.value);
      if (!t->isTile()) continue;
      int64_t n = t->numElements();
      tiles.push_back(tileFrom(t, n, buffer, next));
      next += static_cast<uint64_t>(n);
    }
    std::vector<const interp::Tile*> view;
    for (const auto& t : tiles) view.push_back(t.get());
    out.text += interp::formatPrinted(op, view);
    at = next;
  }
  if (used > capacity) out.missingWords = used - capacity;
  return out;
}

}  // namespace tilesight::device
