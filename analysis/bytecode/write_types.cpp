// The type table (bytecode_format.md §2) at 13.3: each type's entry after the
// entries it refers to, entries deduplicated by content.
#include <numeric>

#include "analysis/bytecode/encoder.h"

namespace tilesight::bytecode {

namespace {

// Tags of the types without a payload; -1 for the others.
int scalarTag(Elem e) {
  switch (e) {
    case Elem::I1: return 0;
    case Elem::I8: return 1;
    case Elem::I16: return 2;
    case Elem::I32: return 3;
    case Elem::I64: return 4;
    case Elem::F16: return 5;
    case Elem::BF16: return 6;
    case Elem::F32: return 7;
    case Elem::TF32: return 8;
    case Elem::F64: return 9;
    case Elem::F8E4M3FN: return 10;
    case Elem::F8E5M2: return 11;
    case Elem::F8E8M0FNU: return 18;
    case Elem::F4E2M1FN: return 19;
    case Elem::I4: return 22;
    default: return -1;
  }
}

// A view's dim_map: the text leaves the identity out.
std::vector<int64_t> dimMapOf(const Type& t) {
  if (!t.dimMap.empty()) return t.dimMap;
  std::vector<int64_t> identity(t.tensorView ? t.tensorView->shape.size() : t.shape.size());
  std::iota(identity.begin(), identity.end(), 0);
  return identity;
}

}  // namespace

uint64_t Encoder::type(TypeRef t, const Operation* where) {
  constexpr uint64_t kNone = ~uint64_t(0);
  if (!t) return refuse(where, "a value has no type"), kNone;
  if (auto it = typeIndex_.find(t); it != typeIndex_.end()) return it->second;
  if (t->isView() && t->padding == Padding::Unknown)
    return refuse(where, "the padding value of " + quoted(t) + " is not known"), kNone;
  std::string b;
  auto sub = [&](TypeRef s) {
    uint64_t i = type(s, where);
    putVarint(b, i);
    return i != kNone;
  };
  auto padding = [&](Padding p, std::string& tail) -> uint64_t {
    if (p == Padding::None) return 0;
    putVarint(tail, static_cast<uint64_t>(p) - 1);  // zero, neg_zero, nan, pos_inf, neg_inf
    return 1;
  };
  bool ok = true;
  switch (t->kind) {
    case TypeKind::Scalar:
      if (scalarTag(t->elem) < 0) return refuse(where, "bytecode has no type " + quoted(t)), kNone;
      putVarint(b, static_cast<uint64_t>(scalarTag(t->elem)));
      break;
    case TypeKind::Ptr: {
      putVarint(b, 12);
      std::string pointee;
      putVarint(pointee, static_cast<uint64_t>(scalarTag(t->elem)));
      putVarint(b, types_.add(std::move(pointee)));
      break;
    }
    case TypeKind::Tile:
      putVarint(b, 13);
      ok = sub(t->element);
      putI64s(b, t->shape);
      break;
    case TypeKind::TensorView: {
      putVarint(b, 14);
      std::string el;
      putVarint(el, static_cast<uint64_t>(scalarTag(t->elem)));
      putVarint(b, types_.add(std::move(el)));
      putI64s(b, t->shape);
      putI64s(b, t->strides);
      break;
    }
    case TypeKind::PartitionView: {
      std::string tail;
      uint64_t flags = padding(t->padding, tail);
      putVarint(b, 15);
      putVarint(b, flags);
      putI32s(b, t->shape);
      ok = sub(t->tensorView);
      putI32s(b, dimMapOf(*t));
      b += tail;
      break;
    }
    case TypeKind::GatherScatterView: {
      std::string tail;
      uint64_t flags = padding(t->padding, tail);
      putVarint(b, 20);
      putVarint(b, flags);
      putI32s(b, t->shape);
      ok = sub(t->tensorView);
      putVarint(b, static_cast<uint64_t>(t->sparseDim));
      b += tail;
      break;
    }
    case TypeKind::StridedView: {
      std::string tail;
      uint64_t flags = padding(t->padding, tail);
      putVarint(b, 21);
      putVarint(b, flags);
      putI32s(b, t->shape);
      putI32s(b, t->strides);
      ok = sub(t->tensorView);
      putI32s(b, dimMapOf(*t));
      b += tail;
      break;
    }
    case TypeKind::Function:
      putVarint(b, 16);
      for (const auto* list : {&t->inputs, &t->results}) {
        putVarint(b, list->size());
        for (TypeRef s : *list) ok = ok && sub(s);
      }
      break;
    case TypeKind::Token: putVarint(b, 17); break;
    case TypeKind::Opaque: return refuse(where, "bytecode has no type " + quoted(t)), kNone;
  }
  if (!ok) return kNone;
  if ((t->kind == TypeKind::Ptr || t->kind == TypeKind::TensorView) && scalarTag(t->elem) < 0)
    return refuse(where, "bytecode has no element type of " + quoted(t)), kNone;
  uint64_t i = types_.add(std::move(b));
  typeIndex_[t] = i;
  return i;
}

}  // namespace tilesight::bytecode
