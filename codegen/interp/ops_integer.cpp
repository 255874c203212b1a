// Integer ops on canonical int64 elements (tile.h): what each computes is
// analysis/semantics/int_ops.h; overflow flags promise no wrap and change
// nothing here.
#include "analysis/ir/attr_values.h"
#include "codegen/interp/block_exec.h"

namespace tilesight::interp {

namespace {

template <class F>
void binary(BlockExec& x, const Operation& op, F f) {
  const Tile& a = x.tile(op.operands[0].value);
  const Tile& b = x.tile(op.operands[1].value);
  auto r = x.result(op);
  unsigned bits = intBits(r->elem);
  const int64_t* pa = a.ints();
  const int64_t* pb = b.ints();
  int64_t* pr = r->ints();
  for (int64_t k = 0; k < r->n; ++k) pr[k] = runtime::wrapInt(bits, f(pa[k], pb[k]));
}

template <class F>
void unary(BlockExec& x, const Operation& op, F f) {
  const Tile& a = x.tile(op.operands[0].value);
  auto r = x.result(op);
  unsigned bits = intBits(r->elem);
  for (int64_t k = 0; k < r->n; ++k) r->ints()[k] = runtime::wrapInt(bits, f(a.ints()[k]));
}

}  // namespace

void evalInteger(BlockExec& x, const Operation& op, OpKind k) {
  IntOpMode m{intBits(x.tile(op.operands[0].value).elem),
              signednessOf(op).value_or(Signedness::Signed) == Signedness::Signed,
              k == OpKind::Divi ? roundingOf(op).value_or(Rounding::Zero) : Rounding::Zero};
  Predicate p = k == OpKind::Cmpi ? predicateOf(op).value_or(Predicate::Equal) : Predicate::Equal;
  switch (k) {
    case OpKind::Absi:
    case OpKind::Negi: return unary(x, op, [&](int64_t a) { return evalIntOp(k, m, a).value; });
    case OpKind::Divi:
    case OpKind::Remi:
      return binary(x, op, [&](int64_t a, int64_t b) {
        IntResult r = evalIntOp(k, m, a, b);
        if (!r.defined) x.fail(op, std::string(k == OpKind::Remi ? "remainder" : "division") + " by zero");
        return r.value;
      });
    case OpKind::Addi: case OpKind::Subi: case OpKind::Muli: case OpKind::Andi: case OpKind::Ori:
    case OpKind::Xori: case OpKind::Shli: case OpKind::Shri: case OpKind::Maxi: case OpKind::Mini:
    case OpKind::Mulhii: case OpKind::Cmpi:
      return binary(x, op, [&](int64_t a, int64_t b) { return evalIntOp(k, m, a, b, p).value; });
    default: x.fail(op, "not an integer op");
  }
}

}  // namespace tilesight::interp
