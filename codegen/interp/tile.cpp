#include "codegen/interp/tile.h"

#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

Store storeOf(TypeRef element) {
  if (!element || element->kind == TypeKind::Ptr) return Store::Int;
  if (element->elem == Elem::F64) return Store::F64;
  return isFloatElem(element->elem) ? Store::F32 : Store::Int;
}

unsigned intBits(Elem e) { return e == Elem::None ? 64 : elemBits(e); }

std::shared_ptr<Tile> Tile::make(TypeRef type, int64_t n) {
  auto t = std::make_shared<Tile>();
  t->type = type;
  t->store = storeOf(type->element);
  t->elem = type->isPtrTile() ? Elem::I64 : type->tileElem();
  t->n = n;
  t->bytes_.reset(new uint64_t[(static_cast<size_t>(n) * t->elementSize() + 7) / 8 + 1]);
  return t;
}

double Tile::asDouble(int64_t k) const {
  switch (store) {
    case Store::F32: return f32()[k];
    case Store::F64: return f64()[k];
    case Store::Int: return static_cast<double>(ints()[k]);
  }
  return 0;
}

uint64_t storageBits(const Tile& t, int64_t k) {
  switch (t.store) {
    case Store::Int: return unsignedOf(intBits(t.elem), t.ints()[k]);
    case Store::F32: return runtime::encodeFloat(t.elem, t.f32()[k]);
    case Store::F64: return runtime::encodeFloat(Elem::F64, t.f64()[k]);
  }
  return 0;
}

}  // namespace tilesight::interp
