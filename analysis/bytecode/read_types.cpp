// The type table (bytecode_format.md §2): entries read on first use, so a
// type referring to a later one works, and a cycle is an error.
#include "analysis/bytecode/decoder.h"

namespace tilesight::bytecode {

namespace {

constexpr unsigned kMaxTypeDepth = 64;

// Tags 0-11, 17-19, 22: types without a payload.
std::optional<Elem> scalarTag(uint64_t tag) {
  switch (tag) {
    case 0: return Elem::I1;
    case 1: return Elem::I8;
    case 2: return Elem::I16;
    case 3: return Elem::I32;
    case 4: return Elem::I64;
    case 5: return Elem::F16;
    case 6: return Elem::BF16;
    case 7: return Elem::F32;
    case 8: return Elem::TF32;
    case 9: return Elem::F64;
    case 10: return Elem::F8E4M3FN;
    case 11: return Elem::F8E5M2;
    case 18: return Elem::F8E8M0FNU;
    case 19: return Elem::F4E2M1FN;
    case 22: return Elem::I4;
    default: return std::nullopt;
  }
}

Version tagSince(uint64_t tag) {
  if (tag == 18) return {13, 2};
  if (tag >= 19 && tag <= 22) return {13, 3};
  if (tag == 130) return {13, 4};
  return kV13_1;
}

std::vector<int64_t> i64Array(ByteCursor& c, std::string_view what) {
  uint64_t n = c.count(what, 8);
  std::vector<int64_t> out;
  out.reserve(n);
  for (uint64_t i = 0; i < n && c.ok(); ++i) out.push_back(static_cast<int64_t>(c.u64(what)));
  return out;
}

std::vector<int64_t> i32Array(ByteCursor& c, std::string_view what) {
  uint64_t n = c.count(what, 4);
  std::vector<int64_t> out;
  out.reserve(n);
  for (uint64_t i = 0; i < n && c.ok(); ++i) out.push_back(static_cast<int32_t>(c.u32(what)));
  return out;
}

}  // namespace

TypeRef Decoder::readTypeAt(uint64_t index, uint64_t at, unsigned depth) {
  if (failed_) return nullptr;
  if (index >= types_.size()) {
    fail(at, "a type index below " + std::to_string(types_.size()) + ", not " + std::to_string(index));
    return nullptr;
  }
  if (typeState_[index] == 2) return typeCache_[index];
  if (typeState_[index] == 1 || depth > kMaxTypeDepth) {
    fail(at, "a type that does not contain itself (type " + std::to_string(index) + " refers back to itself)");
    return nullptr;
  }
  ByteCursor c(std::string_view(), 0);
  if (!item(types_, index, at, "type", c)) return nullptr;
  typeState_[index] = 1;
  TypeRef t = decodeType(c, depth + 1);
  typeState_[index] = t ? 2 : 0;
  typeCache_[index] = t;
  return t;
}

TypeRef Decoder::decodeType(ByteCursor& c, unsigned depth) {
  TypeContext& ctx = prog_.types;
  uint64_t tagAt = c.offset();
  uint64_t tag = c.varint("a type tag");
  if (!lift(c)) return nullptr;
  if (version_ < tagSince(tag))
    return fail(tagAt, "a type of version " + version_.str() + ", not tag " + std::to_string(tag) + " (from " +
                           tagSince(tag).str() + ")"),
           nullptr;
  if (auto e = scalarTag(tag)) return ctx.scalar(*e);
  // A referenced type: read now, with the cycle check.
  auto sub = [&](std::string_view what) -> TypeRef {
    uint64_t at = c.offset();
    uint64_t i = c.varint(what);
    if (!lift(c)) return nullptr;
    return readTypeAt(i, at, depth);
  };
  auto padding = [&](bool present) -> Padding {
    if (!present) return Padding::None;
    uint64_t at = c.offset();
    uint64_t v = c.varint("a padding value");
    if (c.ok() && v > 4) fail(at, "a padding value 0-4, not " + std::to_string(v));
    return static_cast<Padding>(v + 1);
  };
  auto elementOf = [&](TypeRef t, uint64_t at) -> Elem {
    if (t && t->kind == TypeKind::Scalar) return t->elem;
    if (t) fail(at, "a number type as element, not " + quoted(t));
    return Elem::None;
  };
  auto view = [&](TypeRef t, uint64_t at) -> bool {
    if (t && t->kind == TypeKind::TensorView) return true;
    if (t) fail(at, "a tensor_view type, not " + quoted(t));
    return false;
  };
  bool unified = version_ >= Version{13, 3};
  switch (tag) {
    case 12: {  // ptr
      uint64_t flags = version_ >= kV13_4 ? c.varint("the pointer's flags") : 0;
      uint64_t at = c.offset();
      Elem e = elementOf(sub("a pointee type"), at);
      if (flags & 1) c.varint("a pointer attribute");
      if (!lift(c) || failed_) return nullptr;
      return ctx.ptr(e);
    }
    case 13: {  // tile: element first, then the shape
      uint64_t at = c.offset();
      TypeRef el = sub("a tile element type");
      auto shape = i64Array(c, "a tile shape");
      if (!lift(c) || !el) return nullptr;
      if (el->kind != TypeKind::Scalar && el->kind != TypeKind::Ptr)
        return fail(at, "a number or pointer element type, not " + quoted(el)), nullptr;
      for (int64_t d : shape)
        if (d <= 0) return fail(at, "tile dimensions above 0, not " + std::to_string(d)), nullptr;
      return ctx.tile(std::move(shape), el);
    }
    case 14: {  // tensor_view
      uint64_t flags = version_ >= kV13_4 ? c.varint("the tensor_view's flags") : 0;
      uint64_t at = c.offset();
      Elem e = elementOf(sub("a tensor_view element type"), at);
      auto shape = i64Array(c, "a tensor_view shape");
      auto strides = i64Array(c, "tensor_view strides");
      if (flags & 1) c.varint("a pointer attribute");
      if (!lift(c) || failed_) return nullptr;
      return ctx.tensorView(e, std::move(shape), std::move(strides));
    }
    case 15: {  // partition_view
      uint64_t flags = unified ? c.varint("the partition_view's flags") : 0;
      auto tile = i32Array(c, "a partition_view tile shape");
      uint64_t at = c.offset();
      TypeRef tv = sub("a tensor_view type");
      auto dimMap = i32Array(c, "a partition_view dim_map");
      bool padded = unified ? (flags & 1) : c.u8("a padding presence byte") != 0;
      Padding pad = padding(padded);
      if (!lift(c) || failed_ || !view(tv, at)) return nullptr;
      return ctx.partitionView(std::move(tile), pad, tv, std::move(dimMap));
    }
    case 20: {  // gather_scatter_view
      uint64_t flags = c.varint("the gather_scatter_view's flags");
      auto tile = i32Array(c, "a gather_scatter_view tile shape");
      uint64_t at = c.offset();
      TypeRef tv = sub("a tensor_view type");
      uint64_t sparse = c.varint("a sparse dimension");
      Padding pad = padding(flags & 1);
      if (!lift(c) || failed_ || !view(tv, at)) return nullptr;
      return ctx.gatherScatterView(std::move(tile), pad, tv, static_cast<int64_t>(sparse & 0xFFFFFFFF));
    }
    case 21: {  // strided_view
      uint64_t flags = c.varint("the strided_view's flags");
      auto tile = i32Array(c, "a strided_view tile shape");
      auto traversal = i32Array(c, "strided_view traversal strides");
      uint64_t at = c.offset();
      TypeRef tv = sub("a tensor_view type");
      auto dimMap = i32Array(c, "a strided_view dim_map");
      Padding pad = padding(flags & 1);
      if (!lift(c) || failed_ || !view(tv, at)) return nullptr;
      return ctx.stridedView(std::move(tile), std::move(traversal), pad, tv, std::move(dimMap));
    }
    case 16: {  // function
      std::vector<TypeRef> ins, outs;
      for (auto* list : {&ins, &outs}) {
        uint64_t n = c.count("a function type's type count");
        for (uint64_t i = 0; i < n && !failed_; ++i)
          if (TypeRef t = sub("a function type's type")) list->push_back(t);
        if (!lift(c) || failed_) return nullptr;
      }
      return ctx.function(std::move(ins), std::move(outs));
    }
    case 17: return ctx.token();
    case 130:  // 13.4's developer-preview block-scale format: no arithmetic for it here yet
      fail(tagAt, "a type tilesight supports, not f8E5M3FNU (tag 130, a 13.4 developer preview)");
      return nullptr;
    default:
      fail(tagAt, "a type tag 0-22, not " + std::to_string(tag));
      return nullptr;
  }
}

}  // namespace tilesight::bytecode
