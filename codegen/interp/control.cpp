// if, for and loop: regions run in this block's environment; a break,
// continue or return inside an `if` leaves through the enclosing loop.
#include "analysis/checks/ir_query.h"
#include "codegen/interp/block_exec.h"

namespace tilesight::interp {

namespace {

void setResults(BlockExec& x, const Operation& op, const std::vector<RtValue>& values) {
  for (size_t i = 0; i < op.results.size() && i < values.size(); ++i) x.set(op.results[i], values[i]);
}

std::vector<RtValue> initValues(BlockExec& x, const Operation& op) {
  std::vector<RtValue> v;
  for (const Operand& o : operandGroup(op, "initValues")) v.push_back(x.value(o.value));
  return v;
}

Exit ifOp(BlockExec& x, const Operation& op) {
  bool cond = x.tile(op.operands[0].value).ints()[0] != 0;
  if (!cond && op.regions.size() < 2) return {};
  Exit e = x.runBlock(op.regions[cond ? 0 : 1].blocks[0], {});
  if (e.kind == Exit::Yield || e.kind == Exit::Fallthrough) {
    setResults(x, op, e.values);
    return {};
  }
  return e;  // continue, break or return of an enclosing op
}

Exit forOp(BlockExec& x, const Operation& op) {
  const Tile& lbTile = x.tile(operandValue(op, "lowerBound"));
  unsigned bits = intBits(lbTile.elem);
  bool isUnsigned = op.attr("unsignedCmp") != nullptr;
  int64_t iv = lbTile.ints()[0];
  int64_t ub = x.scalar(operandValue(op, "upperBound"));
  int64_t step = x.scalar(operandValue(op, "step"));
  if (signedOf(bits, step) <= 0) x.fail(op, "the loop step is " + std::to_string(signedOf(bits, step)) + "; it must be positive");
  const Block& body = op.regions[0].blocks[0];
  std::vector<RtValue> iters = initValues(x, op);
  TypeRef ivType = x.typeOf(body.args[0]);
  auto below = [&](int64_t v) { return isUnsigned ? unsignedOf(bits, v) < unsignedOf(bits, ub) : signedOf(bits, v) < signedOf(bits, ub); };
  while (below(iv)) {
    auto ivTile = Tile::make(ivType, 1);
    ivTile->ints()[0] = iv;
    std::vector<RtValue> args{TileRef(ivTile)};
    args.insert(args.end(), iters.begin(), iters.end());
    Exit e = x.runBlock(body, args);
    if (e.kind == Exit::Break) {
      iters = std::move(e.values);
      break;
    }
    if (e.kind == Exit::Return) return e;
    if (e.kind == Exit::Continue) iters = std::move(e.values);
    int64_t next = wrapInt(bits, static_cast<int64_t>(static_cast<uint64_t>(iv) + static_cast<uint64_t>(step)));
    if (isUnsigned ? unsignedOf(bits, next) < unsignedOf(bits, iv) : signedOf(bits, next) < signedOf(bits, iv)) break;  // wrapped
    iv = next;
  }
  setResults(x, op, iters);
  return {};
}

Exit loopOp(BlockExec& x, const Operation& op) {
  const Block& body = op.regions[0].blocks[0];
  std::vector<RtValue> iters = initValues(x, op);
  uint64_t limit = x.launch().maxLoopIterations;
  for (uint64_t n = 0;; ++n) {
    if (limit && n >= limit)
      x.fail(op, "the loop ran " + std::to_string(limit) + " iterations without a break (a spin wait on a tile block "
                 "that never runs alongside? raise the limit with --max-loop-iterations)");
    Exit e = x.runBlock(body, iters);
    if (e.kind == Exit::Break) {
      setResults(x, op, e.values);
      return {};
    }
    if (e.kind == Exit::Return) return e;
    iters = std::move(e.values);
  }
}

}  // namespace

Exit evalControl(BlockExec& x, const Operation& op, OpKind k) {
  switch (k) {
    case OpKind::If: return ifOp(x, op);
    case OpKind::For: return forOp(x, op);
    case OpKind::Loop: return loopOp(x, op);
    default: x.fail(op, "not a control op");
  }
}

}  // namespace tilesight::interp
