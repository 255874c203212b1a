// View geometry (see views.h). Index spaces follow the type descriptions of
// cuda-tile 13.3 (Types.td): partition_view and strided_view index dimension
// i walks tensor dimension dim_map[i] with tile size tile[i]; partition tiles
// start every tile[i] elements, strided tiles every traversal_strides[i], and
// an index is valid while its tile starts inside the tensor, so the extent is
// ceildiv(size, step) and edge tiles may be partial. (Types.td's text gives
// its strided example (5), dim_map [1, 0], an index space of 22x4; its picture
// and its permute note give 4x22, as the partition_view rule does: we follow
// those.)
#include "analysis/checks/views.h"

#include <algorithm>

#include "analysis/semantics/view_geometry.h"

namespace tilesight::views {

namespace {

std::string dimText(int64_t v) { return v == kDynamic ? std::string("?") : std::to_string(v); }

// `(a,b)` for rank >= 2, `a` for rank 1 (CuTe's spelling of each).
std::string tupleText(const std::vector<int64_t>& v) {
  if (v.size() == 1) return dimText(v[0]);
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + dimText(v[i]);
  return s + ")";
}

layout::IntTuple tupleOf(const std::vector<int64_t>& v) {
  if (v.size() == 1) return v[0];
  std::vector<layout::IntTuple> elems(v.begin(), v.end());
  return layout::IntTuple::tuple(std::move(elems));
}

bool allStatic(const std::vector<int64_t>& v) {
  return std::none_of(v.begin(), v.end(), [](int64_t x) { return x == kDynamic; });
}

bool allPositive(const std::vector<int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == kDynamic || x > 0; });
}

bool noneNegative(const std::vector<int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == kDynamic || x >= 0; });
}

void decideInjective(TensorViewLayout& out, const std::vector<int64_t>& shape, layout::WorkBudget& budget) {
  int64_t size = 1;
  for (int64_t d : shape) size = layout::satMul(size, d);
  // A size past int64 is beyond any exact search (and its arithmetic).
  if (size == INT64_MAX) {
    out.injective = Injectivity::Undecided;
    return;
  }
  layout::Properties p = layout::decide(*out.layout, budget.next());
  budget.charge(p);
  if (!p.decided) out.injective = Injectivity::Undecided;
  else if (p.injective) out.injective = Injectivity::Yes;
  else {
    out.injective = Injectivity::No;
    out.collision = p.collision;
  }
}

bool isPermutation(const std::vector<int64_t>& m) {
  std::vector<bool> seen(m.size(), false);
  for (int64_t d : m) {
    if (d < 0 || d >= static_cast<int64_t>(m.size()) || seen[d]) return false;
    seen[d] = true;
  }
  return true;
}

// Index dimension i of `view` over a tensor of shape `tvShape` (kDynamic
// for an unknown size); the rules are semantics/view_geometry's.
IndexDim indexDim(const Type& view, size_t i, const std::vector<int64_t>& tvShape) {
  IndexDim d;
  d.tensorDim = static_cast<int64_t>(semantics::walkedDim(view, i));
  d.tile = view.shape[i];
  d.step = semantics::tileStep(view, i);
  d.sparse = view.kind == TypeKind::GatherScatterView && static_cast<int64_t>(i) == view.sparseDim;
  int64_t size = tvShape[d.tensorDim];
  if (size == kDynamic) return d;
  d.tensorSize = size;
  d.extent = semantics::indexExtent(size, d.step);
  // The sparse dimension's indices select single rows: none overhangs.
  d.firstPartial = d.sparse ? *d.extent : semantics::firstPartialIndex(size, d.tile, d.step);
  return d;
}

std::optional<IndexSpace> gridSpace(const Type& view, const std::vector<int64_t>& tvShape) {
  size_t rank = view.shape.size();
  bool strided = view.kind == TypeKind::StridedView;
  if (view.dimMap.size() != rank || !isPermutation(view.dimMap)) return std::nullopt;
  if (strided && (view.strides.size() != rank || !allPositive(view.strides))) return std::nullopt;
  IndexSpace s;
  for (size_t i = 0; i < rank; ++i) s.dims.push_back(indexDim(view, i, tvShape));
  return s;
}

// Seed 001 §5.6.1: the index space is the tensor's shape. The index at
// sparse_dim is a 1-D tile of row indices, each selecting one row; the others
// are element offsets (step 1) whose tile may run past the tensor's edge.
std::optional<IndexSpace> gatherScatterSpace(const Type& view, const std::vector<int64_t>& tvShape) {
  int64_t rank = static_cast<int64_t>(view.shape.size());
  if (view.sparseDim < 0 || view.sparseDim >= rank) return std::nullopt;
  IndexSpace s;
  for (size_t i = 0; i < view.shape.size(); ++i) s.dims.push_back(indexDim(view, i, tvShape));
  return s;
}

}  // namespace

std::optional<TensorViewLayout> tensorViewLayout(const Type& tv, layout::WorkBudget& budget) {
  if (tv.kind != TypeKind::TensorView || tv.shape.size() != tv.strides.size()) return std::nullopt;
  // Strides are not checked: the verifier reports zero and negative ones, and
  // the layout facts stay meaningful for them (a zero stride is a broadcast).
  if (!allPositive(tv.shape)) return std::nullopt;
  TensorViewLayout out;
  if (tv.shape.empty()) {  // a 0-d tensor_view: one element at offset 0
    out.text = "1:0";
    out.layout = layout::Layout{1, 0};
    out.injective = Injectivity::Yes;
    return out;
  }
  out.text = tupleText(tv.shape) + ":" + tupleText(tv.strides);
  if (!allStatic(tv.shape) || !allStatic(tv.strides)) return out;  // Injectivity::Dynamic
  out.layout = layout::Layout{tupleOf(tv.shape), tupleOf(tv.strides)};
  decideInjective(out, tv.shape, budget);
  return out;
}

int64_t IndexDim::overhang(int64_t k) const {
  if (!tensorSize || !partial(k)) return 0;
  return semantics::overhang(semantics::tileStart(k, step), tile, *tensorSize);
}

bool IndexSpace::known() const {
  return std::all_of(dims.begin(), dims.end(), [](const IndexDim& d) { return d.extent.has_value(); });
}

std::string IndexSpace::shapeText() const {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "x" : "") + (dims[i].extent ? std::to_string(*dims[i].extent) : std::string("?"));
  return s;
}

std::optional<IndexSpace> indexSpace(const Type& view) {
  // A static size 0 is a type error (the verifier says so): no space.
  if (!view.isView() || !view.tensorView || !allPositive(view.tensorView->shape)) return std::nullopt;
  return indexSpace(view, view.tensorView->shape);
}

std::optional<IndexSpace> indexSpace(const Type& view, const std::vector<int64_t>& tvShape) {
  if (!view.isView() || !view.tensorView) return std::nullopt;
  if (view.shape.empty() || view.shape.size() != tvShape.size() || !allPositive(view.shape) ||
      !allStatic(view.shape) || !noneNegative(tvShape))  // a size 0 (from an --arg): an empty space
    return std::nullopt;
  if (view.kind == TypeKind::GatherScatterView) return gatherScatterSpace(view, tvShape);
  return gridSpace(view, tvShape);
}

}  // namespace tilesight::views
