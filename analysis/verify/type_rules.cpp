// The type system's rules (seed 001 §5, reference/tileir.md §2): tile shapes,
// pointer pointees, tensor_view sizes and strides, and the view types.
#include <unordered_set>

#include "analysis/verify/verifier.h"

namespace tilesight {

namespace {

constexpr int64_t kMaxTileElements = 16777216;  // 2^24
constexpr int64_t kMaxI32 = 2147483647;

bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

std::string list(const std::vector<int64_t>& v) { return "[" + shapeString(v, ',') + "]"; }

void checkTileShape(const std::vector<int64_t>& shape, Elem elem, Range r, DiagSink& diags, const char* what) {
  std::vector<int64_t> bad;
  for (int64_t d : shape)
    if (!isPow2(d)) bad.push_back(d);
  if (!bad.empty()) {
    std::vector<int64_t> rounded = shape;
    for (auto& x : rounded) {
      int64_t p = 1;
      while (p < x && p < (int64_t{1} << 40)) p <<= 1;
      x = p;
    }
    diags.error(r, "type", std::string(what) + " dimensions must be powers of two; " + list(shape) + " has " +
                               list(bad) + " (the next powers of two are " + list(rounded) +
                               "; load a larger tile and mask or pad the extra elements)");
    return;
  }
  int64_t n = 1;  // capped past the limit, so the product never overflows
  for (int64_t d : shape)
    if (__builtin_mul_overflow(n, d, &n) || n > kMaxTileElements * 2) n = kMaxTileElements * 2;
  if (n > kMaxTileElements)
    diags.error(r, "type", std::string(what) + " " + shapeString(shape) + " has more than the maximum of " +
                               std::to_string(kMaxTileElements) + " elements");
  if (elem == Elem::F4E2M1FN) {
    bool anyEven = false;
    for (int64_t d : shape) anyEven |= d % 2 == 0;
    if (!anyEven)
      diags.error(r, "type", "f4E2M1FN " + std::string(what) + "s need an even number of elements (two per byte); " +
                                 (shape.empty() ? std::string("a 0-d tile holds one") : list(shape) + " is odd"));
  }
}

void checkViewCommon(const Type& t, Range r, DiagSink& diags) {
  const Type* tv = t.tensorView;
  const char* name = t.kind == TypeKind::PartitionView ? "partition_view"
                     : t.kind == TypeKind::StridedView ? "strided_view" : "gather_scatter_view";
  if (t.shape.empty()) {
    diags.error(r, "type", std::string(name) + " tiles must have at least one dimension");
    return;
  }
  if (tv && t.shape.size() != tv->shape.size()) {
    diags.error(r, "type", std::string(name) + " tile rank " + std::to_string(t.shape.size()) +
                               " differs from the tensor_view rank " + std::to_string(tv->shape.size()));
    return;
  }
  for (size_t i = 0; i < t.shape.size(); ++i)
    if (t.shape[i] <= 0 || t.shape[i] > kMaxI32) {
      diags.error(r, "type", "tile dimension " + std::to_string(i) + " is " + std::to_string(t.shape[i]) +
                                 "; view tile dimensions must be in [1, 2147483647]");
      return;
    }
  if (t.kind != TypeKind::GatherScatterView) {
    if (t.dimMap.size() != t.shape.size()) {
      diags.error(r, "type", "dim_map has " + std::to_string(t.dimMap.size()) + " entries but the tile has " +
                                 std::to_string(t.shape.size()) + " dimensions; it must map each exactly once");
      return;
    }
    std::vector<int64_t> seen(t.shape.size(), -1);
    for (size_t i = 0; i < t.dimMap.size(); ++i) {
      int64_t d = t.dimMap[i];
      if (d < 0 || d >= static_cast<int64_t>(t.shape.size())) {
        diags.error(r, "type", "dim_map entry " + std::to_string(i) + " is " + std::to_string(d) +
                                   ", outside the tensor_view's dimensions [0, " + std::to_string(t.shape.size()) + ")");
        return;
      }
      if (seen[d] >= 0) {
        diags.error(r, "type", "dim_map is not a permutation: tensor dimension " + std::to_string(d) +
                                   " is mapped twice (by tile dimensions " + std::to_string(seen[d]) + " and " +
                                   std::to_string(i) + ")");
        return;
      }
      seen[d] = static_cast<int64_t>(i);
    }
  }
  checkTileShape(t.shape, t.elem, r, diags, "view tile");
  if (t.padding != Padding::None && t.padding != Padding::Zero && t.padding != Padding::Unknown &&
      !isFloatElem(t.elem))
    diags.error(r, "type", "padding_value " + std::string(paddingName(t.padding)) +
                               " needs a float element type; this view holds " + std::string(elemName(t.elem)));
}

}  // namespace

void checkType(TypeRef t, Range r, DiagSink& diags) {
  if (!t) return;
  switch (t->kind) {
    case TypeKind::Tile:
      checkTileShape(t->shape, t->tileElem(), r, diags, "tile");
      break;
    case TypeKind::Ptr:
      if (t->elem == Elem::I4) diags.error(r, "type", "ptr<i4> is not allowed: pointees must be byte-addressable number types");
      break;
    case TypeKind::TensorView: {
      if (t->shape.size() != t->strides.size()) {
        diags.error(r, "type", "tensor_view shape has rank " + std::to_string(t->shape.size()) +
                                   " but strides have rank " + std::to_string(t->strides.size()));
        break;
      }
      for (size_t i = 0; i < t->shape.size(); ++i)
        if (t->shape[i] != kDynamic && t->shape[i] <= 0) {
          diags.error(r, "type", "tensor_view dimension " + std::to_string(i) + " is " + std::to_string(t->shape[i]) +
                                     "; sizes must be strictly positive (or ?)");
          break;
        }
      break;
    }
    case TypeKind::PartitionView:
      checkViewCommon(*t, r, diags);
      break;
    case TypeKind::StridedView:
      checkViewCommon(*t, r, diags);
      if (t->strides.size() != t->shape.size())
        diags.error(r, "type", "strided_view needs one traversal stride per tile dimension: " +
                                   std::to_string(t->shape.size()) + " dimensions, " +
                                   std::to_string(t->strides.size()) + " strides");
      else
        for (size_t i = 0; i < t->strides.size(); ++i)
          if (t->strides[i] <= 0) {
            diags.error(r, "type", "traversal stride " + std::to_string(i) + " is " + std::to_string(t->strides[i]) +
                                       "; traversal strides must be strictly positive");
            break;
          }
      break;
    case TypeKind::GatherScatterView:
      checkViewCommon(*t, r, diags);
      if (t->sparseDim < 0 || t->sparseDim >= static_cast<int64_t>(t->shape.size()))
        diags.error(r, "type", "sparse_dim " + std::to_string(t->sparseDim) + " is outside the view's dimensions [0, " +
                                   std::to_string(t->shape.size()) + ")");
      break;
    default:
      break;
  }
}

}  // namespace tilesight
