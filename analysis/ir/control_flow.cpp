#include "analysis/ir/control_flow.h"

#include <algorithm>

#include "analysis/ir/ir_query.h"

namespace tilesight {

OpId exitTarget(const Program& p, OpId terminator) {
  OpId q = p.op(terminator).parent;
  if (is(p.op(terminator), OpKind::Yield)) return q;
  while (q != kNoId && is(p.op(q), OpKind::If)) q = p.op(q).parent;
  return q;
}

bool goesTo(OpKind terminator, OpKind target) {
  switch (terminator) {
    case OpKind::Yield: return target == OpKind::If || target == OpKind::Reduce || target == OpKind::Scan;
    case OpKind::Continue: return target == OpKind::For || target == OpKind::Loop;
    case OpKind::Break: return target == OpKind::Loop;
    case OpKind::Return: return target == OpKind::Entry || target == OpKind::TestingFunc;
    default: return false;
  }
}

bool givesResults(OpKind terminator, OpKind target) {
  return goesTo(terminator, target) && (terminator != OpKind::Continue || target == OpKind::For);
}

ValueId iterValueArg(const Operation& loop, size_t i) {
  if (loop.regions.empty() || loop.regions[0].blocks.empty()) return kNoId;
  const auto& args = loop.regions[0].blocks[0].args;
  size_t at = i + (is(loop, OpKind::For) ? 1 : 0);
  return at < args.size() ? args[at] : kNoId;
}

uint32_t regionHolding(const Program& p, const Operation& parent, OpId child) {
  uint32_t at = p.op(child).range.begin;
  for (uint32_t r = 0; r < parent.regions.size(); ++r)
    if (parent.regions[r].range.begin <= at && at < parent.regions[r].range.end) return r;
  return 0;
}

bool holdsAny(const Program& p, OpId id, std::initializer_list<OpKind> kinds) {
  const Operation& op = p.op(id);
  std::optional<OpKind> k = kindOf(op);
  if (k && std::find(kinds.begin(), kinds.end(), *k) != kinds.end()) return true;
  for (const Region& r : op.regions)
    for (const Block& b : r.blocks)
      for (OpId inner : b.ops)
        if (holdsAny(p, inner, kinds)) return true;
  return false;
}

}  // namespace tilesight
