#include "analysis/checks/unspecified_lanes.h"

#include <algorithm>

#include <llvm/ADT/DenseSet.h>

#include "analysis/ir/control_flow.h"
#include "analysis/ir/ir_query.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/op_table.h"
#include "analysis/semantics/lane_maps.h"
#include "analysis/verify/verify_util.h"

namespace tilesight {

namespace {

const std::vector<int64_t>* shapeOf(const Program& p, ValueId v) {
  TypeRef t = p.typeOf(v);
  return t && t->isTile() ? &t->shape : nullptr;
}

template <class Lanes> bool anyLane(const Lanes& lanes) {
  return std::any_of(lanes.begin(), lanes.end(), [](const auto& l) { return l.has_value(); });
}

// The lanes of a result whose dimensions carry the source's through `dims`
// (semantics/lane_maps.h); nullopt when one names no source dimension.
template <class Lanes> std::optional<Lanes> carry(const semantics::DimSources& dims, const Lanes& in) {
  Lanes out(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!dims[i]) continue;
    if (*dims[i] >= in.size()) return std::nullopt;
    out[i] = in[*dims[i]];
  }
  return out;
}

}  // namespace

UnspecifiedLanes::UnspecifiedLanes(const Program& program, const ValueFacts& facts) : p_(program), facts_(facts) {}

const llvm::SmallVector<std::pair<OpId, size_t>, 2>& UnspecifiedLanes::usersOf(ValueId v) {
  if (users_.empty())
    for (OpId id = 0; id < p_.ops.size(); ++id)
      for (size_t i = 0; i < p_.op(id).operands.size(); ++i)
        if (ValueId u = p_.op(id).operands[i].value; u != kNoId) users_[u].push_back({id, i});
  static const llvm::SmallVector<std::pair<OpId, size_t>, 2> none;
  auto it = users_.find(v);
  return it == users_.end() ? none : it->second;
}

OpId UnspecifiedLanes::observableUse(OpId load, const views::IndexSpace& space, size_t only) {
  const Operation& op = p_.op(load);
  if (op.results.empty()) return kNoId;
  Load l{load, space, {}};
  for (const Operand& o : operands::index(op)) l.indices.push_back(o.value);
  const std::vector<int64_t>* shape = shapeOf(p_, op.results[0]);
  if (!shape || shape->size() != space.dims.size() || l.indices.size() != space.dims.size()) return load;
  Lanes start(shape->size());
  for (size_t d = 0; d < space.dims.size(); ++d) {
    if (d != only) continue;  // each dimension's lanes are followed on their own
    const views::IndexDim& dim = space.dims[d];
    // A tile of one element along a dimension is never partial there: it is
    // in bounds or outside the index space (bounds.index).
    if (dim.tile == 1 || (dim.extent && dim.firstPartial && *dim.firstPartial >= *dim.extent)) continue;
    start[d] = Lane{d, std::nullopt};
    const ScalarFact* k = facts_.scalarAt(l.indices[d], load);
    if (k && k->exact() && dim.tensorSize && dim.step > 0)
      start[d]->first = std::max<int64_t>(0, *dim.tensorSize - *k->exact() * dim.step);
  }
  llvm::SmallVector<std::pair<ValueId, Lanes>, 8> work{{op.results[0], start}};
  llvm::DenseMap<ValueId, Lanes> seen;
  while (!work.empty()) {
    auto [v, lanes] = work.pop_back_val();
    if (!anyLane(lanes)) continue;
    auto [it, fresh] = seen.try_emplace(v, lanes);
    if (!fresh) {
      if (it->second == lanes) continue;
      return p_.value(v).owner;  // two ways in with different lanes: not followed further
    }
    for (const auto& [user, operand] : usersOf(v)) {
      std::optional<OpKind> un = kindOf(p_.op(user));
      if (writesThroughView(user, operand) && masks(l, user, lanes)) continue;
      if (un == OpKind::Continue || un == OpKind::Break || un == OpKind::Yield || un == OpKind::For || un == OpKind::Loop) {
        size_t before = work.size();
        carried(user, operand, lanes, work);
        if (work.size() == before) return user;
        continue;
      }
      auto next = through(user, operand, lanes);
      if (!next) return user;
      const Operation& u = p_.op(user);
      std::optional<OpKind> n = kindOf(u);
      work.push_back({u.results[n == OpKind::Reduce || n == OpKind::Scan ? operand : 0], std::move(*next)});
    }
  }
  return kNoId;
}

std::optional<UnspecifiedLanes::Lanes> UnspecifiedLanes::through(OpId user, size_t operand, const Lanes& in) const {
  const Operation& op = p_.op(user);
  if (!op.info || op.broken) return std::nullopt;
  std::optional<OpKind> n = kindOf(op);
  const std::vector<int64_t>* from = shapeOf(p_, op.operands[operand].value);
  size_t k = n == OpKind::Reduce || n == OpKind::Scan ? operand : 0;  // the result the lanes reach
  if (!from || op.results.size() <= k) return std::nullopt;
  const std::vector<int64_t>* to = shapeOf(p_, op.results[k]);
  if (!to || in.size() != from->size()) return std::nullopt;
  Lanes out(to->size());
  if (op.info->traits & kElementwise) {
    if (*to != *from) return std::nullopt;
    return in;
  }
  if (n == OpKind::Broadcast) {  // same rank; only size-1 dimensions (never partial) grow
    if (to->size() != from->size()) return std::nullopt;
    return carry(semantics::broadcastDims(*from, *to), in);
  }
  if (n == OpKind::Reshape) {  // only unit dimensions added or dropped
    auto dims = semantics::reshapeDims(*from, *to);
    return dims ? carry(*dims, in) : std::nullopt;
  }
  if (n == OpKind::Extract) return operand == 0 ? extract(op, in) : std::nullopt;
  if (n == OpKind::Permute) {  // result dimension i is source dimension perm[i]
    const Attr* perm = attrs::permutation(op);
    if (!perm || perm->elems.size() != to->size()) return std::nullopt;
    return carry(semantics::permuteDims(*perm, to->size()), in);
  }
  if (n == OpKind::Reduce || n == OpKind::Scan) {  // along another dimension: the lanes stay in their rows
    const Attr* dim = attrs::dim(op);
    if (!dim || dim->i < 0 || static_cast<size_t>(dim->i) >= in.size() || in[dim->i]) return std::nullopt;
    for (size_t d = 0, o = 0; d < in.size() && o < out.size(); ++d)
      if (!(n == OpKind::Reduce && to->size() < from->size() && static_cast<int64_t>(d) == dim->i)) out[o++] = in[d];
    return out;
  }
  if (n == OpKind::Mmaf || n == OpKind::Mmai || n == OpKind::MmafScaled) {
    // (B x) M x K times (B x) K x N plus (B x) M x N: unspecified along K
    // reaches every output; along M or N, only their rows or columns.
    size_t r = in.size();
    if (r < 2 || out.size() != r) return std::nullopt;
    if (operand == 2) return in;
    if (operand > 2) return std::nullopt;  // block scales
    size_t kDim = operand == 0 ? r - 1 : r - 2;
    if (in[kDim]) return std::nullopt;
    for (size_t d = 0; d + 2 < r; ++d) out[d] = in[d];
    if (operand == 0) out[r - 2] = in[r - 2];
    else out[r - 1] = in[r - 1];
    return out;
  }
  return std::nullopt;
}

// An extract of sub-tile j (of the result's shape) at constant indices: the
// lanes it takes are all in bounds (nothing flows on), or it is where they
// matter.
std::optional<UnspecifiedLanes::Lanes> UnspecifiedLanes::extract(const Operation& op, const Lanes& in) const {
  const std::vector<int64_t>* to = shapeOf(p_, op.results[0]);
  if (!to || to->size() != in.size() || op.operands.size() != in.size() + 1) return std::nullopt;
  for (size_t d = 0; d < in.size(); ++d) {
    if (!in[d]) continue;
    const ScalarFact* j = facts_.scalarAt(op.operands[d + 1].value, kNoId);
    if (!in[d]->first || !j || !j->exact() || semantics::sliceStart(*j->exact() + 1, (*to)[d]) > *in[d]->first)
      return std::nullopt;
  }
  return Lanes(in.size());
}

// Where a terminator's operand i goes is ir/control_flow's: continue to the
// loop's iter_value i (and a for's result i), break to the loop's result i,
// yield to the if's result i; a loop's initial value i goes to its iter_value i.
void UnspecifiedLanes::carried(OpId user, size_t operand, const Lanes& in,
                               llvm::SmallVectorImpl<std::pair<ValueId, Lanes>>& work) const {
  std::optional<OpKind> n = kindOf(p_.op(user));
  if (n == OpKind::For || n == OpKind::Loop) {
    const Operation& loop = p_.op(user);
    llvm::ArrayRef<Operand> init = operands::initValues(loop);
    if (init.empty()) return;
    size_t i = operand - static_cast<size_t>(init.data() - loop.operands.data());
    ValueId arg = i < init.size() ? iterValueArg(loop, i) : kNoId;
    if (arg != kNoId) work.push_back({arg, in});
    return;
  }
  OpId q = exitTarget(p_, user);
  if (q == kNoId) return;
  const Operation& owner = p_.op(q);
  std::optional<OpKind> on = kindOf(owner);
  // A reduce's or scan's yield combines lanes: its operands are not results lane for lane.
  if (!n || !on || !goesTo(*n, *on) || (n == OpKind::Yield && on != OpKind::If)) return;
  if (givesResults(*n, *on) && operand < owner.results.size()) work.push_back({owner.results[operand], in});
  ValueId arg = n == OpKind::Continue ? iterValueArg(owner, operand) : kNoId;
  if (arg != kNoId) work.push_back({arg, in});
}

// A store of the value that masks every unspecified lane: each dimension that
// holds them is tiled like the load's along it and indexed the same.
bool UnspecifiedLanes::masks(const Load& load, OpId store, const Lanes& in) const {
  const Operation& op = p_.op(store);
  if (op.broken) return false;
  const Operand* view = operands::viewOperand(op);
  if (!view) return false;
  const auto& space = facts_.indexSpace(view->value);
  llvm::ArrayRef<Operand> at = operands::index(op);
  if (!space || space->dims.size() != in.size() || at.size() != in.size()) return false;
  for (size_t d = 0; d < in.size(); ++d) {
    if (!in[d]) continue;
    const views::IndexDim &x = space->dims[d], &y = load.space.dims[in[d]->loadDim];
    if (x.tile != y.tile || x.step != y.step || !x.tensorSize || x.tensorSize != y.tensorSize ||
        !sameIndex(at[d].value, load.indices[in[d]->loadDim], store))
      return false;
  }
  return true;
}

// Whether operand `operand` of `user` is the tile that a store or an atomic
// reduction through a view writes (out-of-bounds elements masked).
bool UnspecifiedLanes::writesThroughView(OpId user, size_t operand) const {
  const Operation& op = p_.op(user);
  if (!op.info || operand >= op.operands.size()) return false;
  std::optional<OpKind> n = kindOf(op);
  if (n == OpKind::StoreViewTko) return operand == 0;
  if (n != OpKind::AtomicRedViewTko) return false;
  const Operand* value = operands::valueOperand(op);
  return value == &op.operands[operand];
}

bool UnspecifiedLanes::sameIndex(ValueId a, ValueId b, OpId user) const {
  if (a == b) return true;
  const ScalarFact *fa = facts_.scalarAt(a, user), *fb = facts_.scalarAt(b, user);
  return fa && fb && fa->affine && fb->affine && fa->affine->exact && fb->affine->exact && *fa->affine == *fb->affine;
}

}  // namespace tilesight
