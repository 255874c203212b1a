#pragma once
// The geometry of view types, read from the type alone: a tensor_view as a
// CuTe layout (and whether two coordinates share an element), and the index
// space of partition, strided and gather/scatter views with their partial
// tiles. Shared by hover, inlay hints and the bounds checks.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/ir/types.h"
#include "analysis/layout/layout.h"

namespace tilesight::views {

// --- tensor_view ------------------------------------------------------------------

enum class Injectivity { Yes, No, Undecided, Dynamic };

struct TensorViewLayout {
  // Mode i is tensor dimension i, so the text reads as the type's dims with
  // their strides: tensor_view<64x32xf16, strides=[32,1]> is (64,32):(32,1).
  // Rank 1 is a single mode (64:1), rank 0 one element (1:0). `?` for dynamic.
  std::string text;
  std::optional<layout::Layout> layout;  // when every size and stride is static
  Injectivity injective = Injectivity::Dynamic;
  std::optional<layout::Collision> collision;  // when not injective
};

// For a TensorView type; nullopt for anything else or a malformed one (the
// shape and strides differ in rank, a size is not positive). Injectivity is
// decided within `budget` (Undecided past it).
std::optional<TensorViewLayout> tensorViewLayout(const Type& tv, layout::WorkBudget& budget);

// --- index spaces -----------------------------------------------------------------

// One dimension of a view's index space. Index k selects the tile whose
// elements along `tensorDim` are [k * step, k * step + tile).
struct IndexDim {
  std::optional<int64_t> extent;  // nullopt: a dynamic tensor dim, or left open by the spec
  int64_t tensorDim = 0;          // the tensor_view dimension it walks
  int64_t tile = 0;               // tile size along it
  int64_t step = 0;               // distance between consecutive tiles' starts (0: unknown)
  std::optional<int64_t> tensorSize;  // the tensor dim (nullopt when dynamic)
  // The first index whose tile overhangs the tensor's edge (every later one
  // does too); equal to extent when none does, nullopt when unknown.
  std::optional<int64_t> firstPartial;
  bool sparse = false;  // gather/scatter dimension: indices select single rows

  bool partial(int64_t k) const { return firstPartial && k >= *firstPartial; }
  int64_t overhang(int64_t k) const;  // elements of tile k past the edge (0 if none)
};

struct IndexSpace {
  std::vector<IndexDim> dims;  // in the view's index order
  bool known() const;          // every extent known
  std::string shapeText() const;  // "4x2", "?x2"
};

// For PartitionView, StridedView and GatherScatterView types (a gather/scatter
// view's index space is the tensor's shape, its indices element offsets);
// nullopt for anything else or a malformed view
// (ranks differ, dim_map not a permutation, non-positive tile sizes or
// traversal strides): the verifier reports those.
std::optional<IndexSpace> indexSpace(const Type& view);
// The same, with the tensor_view's shape given (dynamic dims that the launch
// fixes, kDynamic for the others). A size of 0 (an empty array) gives an
// empty space: extent 0, every index outside it.
std::optional<IndexSpace> indexSpace(const Type& view, const std::vector<int64_t>& tensorShape);

}  // namespace tilesight::views
