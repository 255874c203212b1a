#pragma once
// The lane maps of shape ops, the one definition: which source element each
// result element reads. Tiles are row-major (semantics::rowMajorStrides). The
// interpreter copies through these maps, the SIMT lowering prints them as C,
// value facts carry strides through them, and unspecified lanes follow
// partial tiles through them. (reduce and scan split a shape around their
// dimension with ir/types.h's splitAround.)
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <llvm/ADT/ArrayRef.h>

#include "analysis/ir/attributes.h"

namespace tilesight::semantics {

// Per result dimension, the source dimension whose coordinate it carries;
// nullopt: a dimension the source lacks or broadcasts (the source reads
// coordinate 0 there). Every source dimension that no result dimension
// carries is read at coordinate 0 too.
using DimSources = std::vector<std::optional<size_t>>;

// broadcast: the source's dimensions are the result's last ones; a source
// dimension of size 1 that grows is read at 0 along all of it.
DimSources broadcastDims(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to);

// permute: result dimension i is source dimension permutation[i] (an empty
// permutation: the identity on `rank` dimensions).
DimSources permuteDims(const Attr& permutation, size_t rank);

// reshape keeps the row-major index (result element k is source element k).
// When it only adds or drops size-1 dimensions it is also a map of
// dimensions: the result's wide dimensions carry the source's, in order;
// nullopt for any other reshape.
std::optional<DimSources> reshapeDims(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to);

// extract and insert: slice `index` of a dimension cut into slices of `size`
// elements starts at index * size (the sub-tile's coordinates are added).
int64_t sliceStart(int64_t index, int64_t size);

// cat along `dim`: result coordinates below catSplit(first, dim) read the
// first operand, the others the second at coordinate - catSplit.
int64_t catSplit(llvm::ArrayRef<int64_t> first, size_t dim);

// pack and unpack reinterpret a rank-1 tile's storage bits: the bits of all
// its elements form one stream, low bits first (two f4 per byte, low nibble
// first), read back as elements of the other type. Bits move in pieces of
// kRepackPieceBits: the piece at bit b of result element k (an element of
// `resultBits`) is stream bit k * resultBits + b, which source element
// `element` holds at `shift`.
inline constexpr unsigned kRepackPieceBits = 4;
struct BitPlace {
  uint64_t element;
  unsigned shift;
};
BitPlace repackSource(uint64_t k, unsigned resultBits, unsigned b, unsigned sourceBits);

// The strides, per result dimension, at which a result walks a source laid
// out with `sourceStrides` (0 along the dimensions that read coordinate 0).
std::vector<int64_t> carriedStrides(const DimSources& dims, const std::vector<int64_t>& sourceStrides);

}  // namespace tilesight::semantics
