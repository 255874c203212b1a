// if, for and loop: regions run in this block's environment. A terminator's
// Exit travels up through the `if`s around it to the op ir/control_flow.h
// names as its target (the verifier has checked that it may go there), which
// takes its values as results or as the next iteration's iter_values.
#include <cstring>

#include "analysis/ir/ir_query.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/interp/block_exec.h"

namespace tilesight::interp {

namespace {

void setResults(BlockExec& x, const Operation& op, const std::vector<RtValue>& values) {
  for (size_t i = 0; i < op.results.size() && i < values.size(); ++i) x.set(op.results[i], values[i]);
}

std::vector<RtValue> initValues(BlockExec& x, const Operation& op) {
  std::vector<RtValue> v;
  for (const Operand& o : operands::initValues(op)) v.push_back(x.value(o.value));
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
  ForOp loop(op);
  const Tile& lbTile = x.tile(loop.lowerBound());
  unsigned bits = intBits(lbTile.elem);
  bool isUnsigned = loop.unsignedCmp() != nullptr;
  int64_t iv = lbTile.ints()[0];
  int64_t ub = x.scalar(loop.upperBound());
  int64_t step = x.scalar(loop.step());
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
    int64_t next = runtime::wrapInt(bits, static_cast<int64_t>(static_cast<uint64_t>(iv) + static_cast<uint64_t>(step)));
    if (isUnsigned ? unsignedOf(bits, next) < unsignedOf(bits, iv) : signedOf(bits, next) < signedOf(bits, iv)) break;  // wrapped
    iv = next;
  }
  setResults(x, op, iters);
  return {};
}

// Whether two iter_value lists hold the same values: tiles element for
// element, views by what they view; tokens order nothing a run computes.
bool sameValues(const std::vector<RtValue>& a, const std::vector<RtValue>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].index() != b[i].index()) return false;
    if (auto* t = std::get_if<TileRef>(&a[i])) {
      const Tile& u = **t;
      const Tile& v = *std::get<TileRef>(b[i]);
      if (u.n != v.n || u.store != v.store ||
          std::memcmp(u.data<char>(), v.data<char>(), u.n * u.elementSize()) != 0)
        return false;
    } else if (auto* tv = std::get_if<std::shared_ptr<const TensorViewValue>>(&a[i])) {
      if (*tv != std::get<std::shared_ptr<const TensorViewValue>>(b[i])) return false;  // the same view object
    } else if (auto* v = std::get_if<std::shared_ptr<const ViewValue>>(&a[i])) {
      if (*v != std::get<std::shared_ptr<const ViewValue>>(b[i])) return false;
    }
  }
  return true;
}

Exit loopOp(BlockExec& x, const Operation& op) {
  const Block& body = op.regions[0].blocks[0];
  std::vector<RtValue> iters = initValues(x, op);
  uint64_t limit = x.launch().maxLoopIterations;
  for (uint64_t n = 0;; ++n) {
    if (limit && n >= limit)
      x.fail(op, "the loop ran " + std::to_string(limit) + " iterations without a break (a spin wait on a tile block "
                 "that never runs alongside? raise the limit with --max-loop-iterations)");
    uint64_t writes = x.launch().writes.load(std::memory_order_relaxed);
    Exit e = x.runBlock(body, iters);
    if (e.kind == Exit::Break) {
      setResults(x, op, e.values);
      return {};
    }
    if (e.kind == Exit::Return) return e;
    // Run alone, an iteration that wrote nothing and passes its iter_values
    // on unchanged starts the next one in the state it started in: it
    // repeats forever. Said now, not after the iteration limit.
    if (x.launch().alone() && x.launch().writes.load(std::memory_order_relaxed) == writes && sameValues(iters, e.values))
      x.fail(op, "the loop can never end: iteration " + std::to_string(n + 1) +
                     " wrote no memory and passed its iter_values on unchanged, and no other tile block is left "
                     "to run (a spin wait on a block that has finished or that this run starts only later, or a "
                     "lock never released?)");
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
