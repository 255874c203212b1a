#include "codegen/interp/view_access.h"

#include "analysis/semantics/view_geometry.h"

namespace tilesight::interp {

namespace {

// Where tile dimension i starts in the tensor for view index idx (a
// gather/scatter view's other indices are element offsets: seed 001 §5.6.1,
// "!gsv_2d_padded has an index space shape of 128x256", and there an index in
// [241, 255] runs the 16-wide tile past column 255).
int64_t startOf(const Type& v, size_t i, int64_t idx) { return semantics::tileStart(idx, semantics::tileStep(v, i)); }

}  // namespace

std::vector<int64_t> indexSpaceShape(const ViewValue& view) {
  const Type& v = *view.type;
  std::vector<int64_t> out;
  for (size_t i = 0; i < v.shape.size(); ++i) {
    int64_t size = view.tensor->shape[semantics::walkedDim(v, i)];
    out.push_back(semantics::indexExtent(size, semantics::tileStep(v, i)));
  }
  return out;
}

int64_t overhang(const ViewValue& view, size_t i, int64_t idx) {
  const Type& v = *view.type;
  if (v.kind == TypeKind::GatherScatterView) return 0;
  return semantics::overhang(startOf(v, i, idx), v.shape[i], view.tensor->shape[semantics::walkedDim(v, i)]);
}

void forEachRun(const ViewValue& view, const std::vector<int64_t>& index, const std::vector<int64_t>& rows,
                const std::function<void(const ViewRun&)>& f) {
  const Type& v = *view.type;
  const TensorViewValue& tv = *view.tensor;
  size_t rank = v.shape.size();
  if (rank == 0) {  // a 0-d view: its one element
    f(ViewRun{0, 0, 1, 1, 0});
    return;
  }
  bool gather = v.kind == TypeKind::GatherScatterView;
  size_t last = rank - 1;
  // With the sparse dimension last, every element is a run of its own.
  bool elementwise = gather && static_cast<int64_t>(last) == v.sparseDim;
  int64_t runLen = elementwise ? 1 : v.shape[last];
  std::vector<int64_t> t(rank, 0);  // tile coordinates; t[last] is the run's start
  int64_t total = 1;
  for (int64_t d : v.shape) total *= d;
  for (int64_t k = 0; k < total; k += runLen) {
    int64_t offset = 0;
    bool inside = true;
    int64_t count = runLen;
    for (size_t i = 0; i < rank; ++i) {
      size_t d = semantics::walkedDim(v, i);
      bool sparse = gather && static_cast<int64_t>(i) == v.sparseDim;
      int64_t c = sparse ? rows[t[i]] : startOf(v, i, index[i]) + t[i];
      if (c < 0 || c >= tv.shape[d]) {
        inside = false;
        break;
      }
      if (i == last && !elementwise) count = semantics::elementsInside(c, runLen, tv.shape[d]);
      offset += c * tv.strides[d];
    }
    size_t d = semantics::walkedDim(v, last);
    if (inside) f(ViewRun{k, offset, tv.strides[d], count, runLen - count});
    else f(ViewRun{k, 0, 0, 0, runLen});
    for (size_t i = elementwise ? rank : last; i-- > 0;) {  // odometer over the dims before the run
      if (++t[i] < v.shape[i]) break;
      t[i] = 0;
    }
  }
}

}  // namespace tilesight::interp
