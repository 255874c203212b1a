#include "analysis/ir/ir_query.h"

#include <algorithm>

#include "analysis/ir/op_accessors.h"
#include "analysis/ir/op_table.h"

namespace tilesight {

std::string_view nameOf(const Operation& op) { return op.info ? op.info->name : std::string_view(); }

std::optional<OpKind> kindOf(const Operation& op) {
  return op.info ? std::optional<OpKind>(op.info->kind) : std::nullopt;
}

bool is(const Operation& op, OpKind k) { return op.info && op.info->kind == k; }

bool promisedInBounds(const Operation& op, size_t d) {
  const Attr* a = attrs::inbounds(op);
  return a && a->kind == AttrKind::Array && d < a->elems.size() && a->elems[d].kind == AttrKind::Bool &&
         a->elems[d].i != 0;
}

bool isViewAccess(OpKind k) {
  return k == OpKind::LoadViewTko || k == OpKind::StoreViewTko || k == OpKind::AtomicRedViewTko;
}

llvm::ArrayRef<Operand> memoryPointers(const Operation& op) {
  if (is(op, OpKind::LoadPtrTko)) return operands::sourceGroup(op);
  if (is(op, OpKind::StorePtrTko)) return operands::destinationGroup(op);
  return operands::pointersGroup(op);
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

llvm::ArrayRef<Operand> operandGroupAt(const Operation& op, size_t g) {
  if (!op.info || op.segments.size() != op.info->operands.size() || g >= op.segments.size()) return {};
  size_t start = 0;
  for (size_t k = 0; k < g; ++k) start += op.segments[k];
  if (start + op.segments[g] > op.operands.size()) return {};
  return llvm::ArrayRef<Operand>(op.operands).slice(start, op.segments[g]);
}

const Operand* operandAt(llvm::ArrayRef<Operand> group, size_t i) { return i < group.size() ? &group[i] : nullptr; }

ValueId valueAt(llvm::ArrayRef<Operand> group, size_t i) { return i < group.size() ? group[i].value : kNoId; }

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
  const Attr* lit = attrs::value(*op);
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

const Operation* tensorViewOp(const Program& p, ValueId v, TypeRef& type) {
  type = p.typeOf(v);
  if (type && type->isView()) {
    const Value& val = p.value(v);
    v = !val.blockArg && val.owner != kNoId && !p.op(val.owner).operands.empty() ? p.op(val.owner).operands[0].value
                                                                                  : kNoId;
    type = type->tensorView;
  }
  if (!type || type->kind != TypeKind::TensorView) {
    type = nullptr;
    return nullptr;
  }
  const Value* val = v == kNoId ? nullptr : &p.value(v);
  if (!val || val->blockArg || val->owner == kNoId) return nullptr;
  const Operation& mtv = p.op(val->owner);
  return mtv.info && mtv.info->kind == OpKind::MakeTensorView ? &mtv : nullptr;
}

ValueId tensorDimValue(const Program& p, ValueId v, size_t dim) {
  TypeRef t;
  const Operation* mtv = tensorViewOp(p, v, t);
  if (!t || !mtv || dim >= t->shape.size() || t->shape[dim] != kDynamic) return kNoId;
  size_t k = static_cast<size_t>(std::count(t->shape.begin(), t->shape.begin() + dim, kDynamic));
  llvm::ArrayRef<Operand> dyn = operands::dynamicShape(*mtv);
  return k < dyn.size() ? dyn[k].value : kNoId;
}

}  // namespace tilesight
