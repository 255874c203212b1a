#pragma once
// Where the unspecified lanes of a partial-tile load become observable, for
// bounds.partial-tile. The lanes past the tensor's edge are followed like
// poison, dimension by dimension: a lane at coordinate >= the edge along a
// dimension that overhangs. They stay in their lanes through element-wise
// ops, reshapes that only add or drop unit dimensions, permutes and
// broadcasts; a reduction or scan along another dimension, and a matrix
// product whose M or N side holds them, keep them in their rows or columns.
// Loop-carried values and `if` results carry them to their block arguments
// and results; an extract of lanes that are all in bounds leaves them behind.
// A store of a tile whose every unspecified dimension is tiled like the load's
// (same tile, step and tensor size) at the same index masks exactly those
// lanes: nothing observable. Anything else is where they matter: a reduction
// or scan along an unspecified dimension, a contraction over one (the K side
// of an mma), a reshape that mixes dimensions, an extract that reaches them, a
// scalar or pointer use, a store elsewhere.
#include <optional>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>

#include "analysis/checks/value_facts.h"
#include "analysis/checks/views.h"
#include "analysis/ir/ir.h"

namespace tilesight {

class UnspecifiedLanes {
public:
  UnspecifiedLanes(const Program& program, const ValueFacts& facts);

  // The first op where the unspecified lanes of the view load `load` (its
  // view's index space `space`) past the edge of dimension `dim` matter;
  // kNoId when every path ends in a store that masks them.
  OpId observableUse(OpId load, const views::IndexSpace& space, size_t dim);

private:
  // Per dimension of a value: the load dimension whose edge makes lanes
  // unspecified along it (an index into the load's space), and the first
  // such lane when the load's index is known; nullopt: none is.
  struct Lane {
    size_t loadDim;
    std::optional<int64_t> first;
    bool operator==(const Lane&) const = default;
  };
  using Lanes = llvm::SmallVector<std::optional<Lane>, 4>;
  struct Load {
    OpId op;
    const views::IndexSpace& space;
    std::vector<ValueId> indices;
  };

  // What op `user` makes of lanes `in` flowing into its operand `operand`:
  // the lanes of its result (for reduce and scan, the result of that
  // operand), or nullopt when they become observable there.
  std::optional<Lanes> through(OpId user, size_t operand, const Lanes& in) const;
  std::optional<Lanes> extract(const Operation& op, const Lanes& in) const;
  // Where a value flows on: (value, lanes) for continue, break and yield.
  void carried(OpId user, size_t operand, const Lanes& in,
               llvm::SmallVectorImpl<std::pair<ValueId, Lanes>>& work) const;
  bool writesThroughView(OpId user, size_t operand) const;
  bool masks(const Load& load, OpId store, const Lanes& in) const;
  bool sameIndex(ValueId a, ValueId b, OpId user) const;
  const llvm::SmallVector<std::pair<OpId, size_t>, 2>& usersOf(ValueId v);

  const Program& p_;
  const ValueFacts& facts_;
  llvm::DenseMap<ValueId, llvm::SmallVector<std::pair<OpId, size_t>, 2>> users_;  // (op, operand index)
};

}  // namespace tilesight
