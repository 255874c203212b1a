#include "analysis/semantics/lane_maps.h"

namespace tilesight::semantics {

namespace {

std::vector<size_t> wideDims(llvm::ArrayRef<int64_t> shape) {
  std::vector<size_t> out;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1) out.push_back(d);
  return out;
}

}  // namespace

DimSources broadcastDims(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to) {
  DimSources out(to.size());
  if (from.size() > to.size()) return out;
  size_t shift = to.size() - from.size();  // leading dimensions the source lacks
  for (size_t j = 0; j < from.size(); ++j)
    if (from[j] != 1 || to[j + shift] == 1) out[j + shift] = j;
  return out;
}

DimSources permuteDims(const Attr& permutation, size_t rank) {
  DimSources out(rank);
  for (size_t i = 0; i < rank; ++i)
    out[i] = permutation.elems.empty() ? i : static_cast<size_t>(permutation.elems[i].i);
  return out;
}

std::optional<DimSources> reshapeDims(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to) {
  std::vector<size_t> a = wideDims(from), b = wideDims(to);
  if (a.size() != b.size()) return std::nullopt;
  DimSources out(to.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (from[a[i]] != to[b[i]]) return std::nullopt;
    out[b[i]] = a[i];
  }
  return out;
}

int64_t sliceStart(int64_t index, int64_t size) { return index * size; }

int64_t catSplit(llvm::ArrayRef<int64_t> first, size_t dim) { return first[dim]; }

BitPlace repackSource(uint64_t k, unsigned resultBits, unsigned b, unsigned sourceBits) {
  uint64_t bit = k * resultBits + b;
  return {bit / sourceBits, static_cast<unsigned>(bit % sourceBits)};
}

std::vector<int64_t> carriedStrides(const DimSources& dims, const std::vector<int64_t>& sourceStrides) {
  std::vector<int64_t> out(dims.size(), 0);
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i]) out[i] = sourceStrides[*dims[i]];
  return out;
}

}  // namespace tilesight::semantics
