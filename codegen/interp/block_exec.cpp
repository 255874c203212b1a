#include "codegen/interp/block_exec.h"

#include "analysis/ir/ir_query.h"
#include "analysis/ir/op_accessors.h"

namespace tilesight::interp {

BlockExec::BlockExec(LaunchState& launch, std::array<int64_t, 3> blockId)
    : launch_(launch), blockId_(blockId), env_(launch.program.values.size()) {}

void BlockExec::runFunction(const Operation& fn, llvm::ArrayRef<RtValue> args) {
  runBlock(fn.regions[0].blocks[0], args);
}

Exit BlockExec::runBlock(const Block& block, llvm::ArrayRef<RtValue> args) {
  for (size_t i = 0; i < block.args.size() && i < args.size(); ++i) env_[block.args[i]] = args[i];
  if (launch_.observer && !block.args.empty()) launch_.observer->afterBlockArgs(*this, block);
  for (OpId id : block.ops) {
    const Operation& op = program().op(id);
    if (op.info->traits & kTerminator) {
      Exit e;
      switch (op.info->kind) {
        case OpKind::Continue: e.kind = Exit::Continue; break;
        case OpKind::Break: e.kind = Exit::Break; break;
        case OpKind::Return: e.kind = Exit::Return; break;
        default: e.kind = Exit::Yield; break;
      }
      for (const Operand& o : op.operands) e.values.push_back(env_[o.value]);
      return e;
    }
    Exit e = evalOp(*this, op);
    if (e.kind != Exit::Fallthrough) return e;
  }
  return {};  // an implicit terminator (an if without results, an entry's end)
}

const Tile& BlockExec::tile(ValueId v) const { return *std::get<TileRef>(env_[v]); }

int64_t BlockExec::scalar(ValueId v) const {
  const Tile& t = tile(v);
  return t.store == Store::Int ? t.ints()[0] : static_cast<int64_t>(t.asDouble(0));
}

std::shared_ptr<Tile> BlockExec::result(const Operation& op, size_t i) {
  TypeRef t = program().typeOf(op.results[i]);
  auto r = Tile::make(t, count(t));
  env_[op.results[i]] = TileRef(r);
  return r;
}

TokenValue BlockExec::token(const Operation& op) const {
  ValueId v = operands::token(op);
  return v == kNoId ? TokenValue{} : std::get<TokenValue>(env_[v]);
}

void BlockExec::fail(const Operation& op, const std::string& message) const {
  throw RunFault(op.range.begin, message);
}

}  // namespace tilesight::interp
