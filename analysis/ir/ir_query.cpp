#include "analysis/ir/ir_query.h"

#include "analysis/ir/op_table.h"

namespace tilesight {

std::string_view nameOf(const Operation& op) { return op.info ? op.info->name : std::string_view(); }

std::optional<OpKind> kindOf(const Operation& op) {
  return op.info ? std::optional<OpKind>(op.info->kind) : std::nullopt;
}

bool is(const Operation& op, OpKind k) { return op.info && op.info->kind == k; }

bool promisedInBounds(const Operation& op, size_t d) {
  const Attr* a = op.attr("inbounds");
  return a && a->kind == AttrKind::Array && d < a->elems.size() && a->elems[d].kind == AttrKind::Bool &&
         a->elems[d].i != 0;
}

bool isViewAccess(OpKind k) {
  return k == OpKind::LoadViewTko || k == OpKind::StoreViewTko || k == OpKind::AtomicRedViewTko;
}

std::string_view pointerGroup(OpKind k) {
  return k == OpKind::LoadPtrTko ? "source" : k == OpKind::StorePtrTko ? "destination" : "pointers";
}

bool makesView(OpKind k) {
  return k == OpKind::MakeTensorView || k == OpKind::MakePartitionView || k == OpKind::MakeStridedView ||
         k == OpKind::MakeGatherScatterView;
}

bool integerArithmetic(std::optional<OpKind> k) {
  if (!k) return false;
  switch (*k) {
    case OpKind::Addi: case OpKind::Subi: case OpKind::Muli: case OpKind::Divi: case OpKind::Remi:
    case OpKind::Maxi: case OpKind::Mini: case OpKind::Andi: case OpKind::Ori: case OpKind::Xori:
    case OpKind::Shli: case OpKind::Shri: case OpKind::Negi: case OpKind::Absi: case OpKind::Exti:
    case OpKind::Trunci: case OpKind::Assume: case OpKind::Cmpi: case OpKind::Select:
      return true;
    default:
      return false;
  }
}

bool isFunction(const Operation& op) {
  return op.info && (op.info->traits & kIsolated) && (op.info->traits & kTopLevel);
}

llvm::ArrayRef<Operand> operandGroup(const Operation& op, std::string_view group) {
  if (!op.info || op.segments.size() != op.info->operands.size()) return {};
  int g = op.info->operandGroup(group);
  if (g < 0) return {};
  size_t start = 0;
  for (int k = 0; k < g; ++k) start += op.segments[k];
  if (start + op.segments[g] > op.operands.size()) return {};
  return llvm::ArrayRef<Operand>(op.operands).slice(start, op.segments[g]);
}

const Operand* operandOf(const Operation& op, std::string_view group, size_t i) {
  llvm::ArrayRef<Operand> g = operandGroup(op, group);
  return i < g.size() ? &g[i] : nullptr;
}

ValueId operandValue(const Operation& op, std::string_view group, size_t i) {
  const Operand* o = operandOf(op, group, i);
  return o ? o->value : kNoId;
}

ValueId yieldedBy(const Program& p, const Operation& ifOp, uint32_t region, uint32_t index) {
  if (region >= ifOp.regions.size() || ifOp.regions[region].blocks.size() != 1) return kNoId;
  const Block& b = ifOp.regions[region].blocks[0];
  if (b.ops.empty()) return kNoId;
  const Operation& y = p.op(b.ops.back());
  return is(y, OpKind::Yield) && index < y.operands.size() ? y.operands[index].value : kNoId;
}

const Operation* definingOp(const Program& p, ValueId v) {
  if (v == kNoId || v >= p.values.size()) return nullptr;
  const Value& val = p.value(v);
  if (val.blockArg || val.owner == kNoId) return nullptr;
  const Operation& op = p.op(val.owner);
  return op.info && !op.broken ? &op : nullptr;
}

namespace {
void flattenInts(const Attr& a, std::vector<int64_t>& out, bool& ok) {
  if (a.kind == AttrKind::Array) {
    for (const Attr& e : a.elems) flattenInts(e, out, ok);
    return;
  }
  if ((a.kind != AttrKind::Int && a.kind != AttrKind::Bool) || a.wide) ok = false;
  out.push_back(a.i);
}
}  // namespace

std::optional<std::vector<int64_t>> constantInts(const Program& p, ValueId v, size_t maxElements) {
  const Operation* op = definingOp(p, v);
  TypeRef t = p.typeOf(v);
  if (!op || op->info->kind != OpKind::Constant || !t || !t->isTile() || t->isPtrTile()) return std::nullopt;
  const Attr* lit = op->attr("value");
  size_t n = static_cast<size_t>(t->numElements());
  if (!lit || lit->kind != AttrKind::Dense || n > maxElements) return std::nullopt;
  std::vector<int64_t> out;
  bool ok = true;
  for (const Attr& e : lit->elems) flattenInts(e, out, ok);
  if (!ok) return std::nullopt;
  if (out.size() == 1) out.assign(n, out[0]);
  if (out.size() != n) return std::nullopt;
  return out;
}

}  // namespace tilesight
