// Integer ops on canonical int64 elements (tile.h): results wrap to the
// element width; overflow flags promise no wrap and change nothing here.
#include <limits>

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

int64_t wrapAdd(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
int64_t wrapSub(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
int64_t wrapMul(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }

// Signed quotient rounded by r; b != 0. INT64_MIN / -1 wraps.
int64_t divSigned(int64_t a, int64_t b, Rounding r) {
  if (b == -1) return wrapSub(0, a);
  int64_t q = a / b, m = a % b;
  if (m != 0) {
    bool negative = (m < 0) != (b < 0);
    if (r == Rounding::NegativeInf && negative) --q;
    if (r == Rounding::PositiveInf && !negative) ++q;
  }
  return q;
}

uint64_t divUnsigned(uint64_t a, uint64_t b, Rounding r) {
  uint64_t q = a / b;
  if (r == Rounding::PositiveInf && a % b) ++q;
  return q;
}

// Shift amounts of the width or more are undefined by the spec; they give 0
// (shli, logical shri) or the sign fill (arithmetic shri) here.
int64_t shiftLeft(unsigned bits, int64_t a, uint64_t s) { return s >= bits ? 0 : static_cast<int64_t>(static_cast<uint64_t>(a) << s); }

// mulhii is defined for unsigned integers only (the spec).
int64_t mulHighUnsigned(unsigned bits, int64_t a, int64_t b) {
  unsigned __int128 p = static_cast<unsigned __int128>(unsignedOf(bits, a)) * unsignedOf(bits, b);
  return static_cast<int64_t>(p >> bits);
}

bool compare(Predicate p, bool isSigned, unsigned bits, int64_t a, int64_t b) {
  auto cmp = [&](auto u, auto v) {
    switch (p) {
      case Predicate::Equal: return u == v;
      case Predicate::NotEqual: return u != v;
      case Predicate::LessThan: return u < v;
      case Predicate::LessThanOrEqual: return u <= v;
      case Predicate::GreaterThan: return u > v;
      case Predicate::GreaterThanOrEqual: return u >= v;
    }
    return false;
  };
  return isSigned ? cmp(signedOf(bits, a), signedOf(bits, b)) : cmp(unsignedOf(bits, a), unsignedOf(bits, b));
}

void divide(BlockExec& x, const Operation& op, bool remainder) {
  bool isSigned = signednessOf(op).value_or(Signedness::Signed) == Signedness::Signed;
  Rounding rnd = remainder ? Rounding::Zero : roundingOf(op).value_or(Rounding::Zero);
  unsigned bits = intBits(x.tile(op.operands[0].value).elem);
  binary(x, op, [&](int64_t a, int64_t b) -> int64_t {
    if (unsignedOf(bits, b) == 0) x.fail(op, std::string(remainder ? "remainder" : "division") + " by zero");
    if (isSigned) {
      int64_t sa = signedOf(bits, a), sb = signedOf(bits, b);
      return remainder ? (sb == -1 ? 0 : sa % sb) : divSigned(sa, sb, rnd);
    }
    uint64_t ua = unsignedOf(bits, a), ub = unsignedOf(bits, b);
    return static_cast<int64_t>(remainder ? ua % ub : divUnsigned(ua, ub, rnd));
  });
}

}  // namespace

void evalInteger(BlockExec& x, const Operation& op, OpKind k) {
  unsigned bits = intBits(x.tile(op.operands[0].value).elem);
  bool isSigned = signednessOf(op).value_or(Signedness::Signed) == Signedness::Signed;
  switch (k) {
    case OpKind::Absi: return unary(x, op, [&](int64_t a) { return a < 0 ? wrapSub(0, a) : a; });
    case OpKind::Negi: return unary(x, op, [](int64_t a) { return wrapSub(0, a); });
    case OpKind::Addi: return binary(x, op, wrapAdd);
    case OpKind::Subi: return binary(x, op, wrapSub);
    case OpKind::Muli: return binary(x, op, wrapMul);
    case OpKind::Andi: return binary(x, op, [](int64_t a, int64_t b) { return a & b; });
    case OpKind::Ori: return binary(x, op, [](int64_t a, int64_t b) { return a | b; });
    case OpKind::Xori: return binary(x, op, [](int64_t a, int64_t b) { return a ^ b; });
    case OpKind::Shli:
      return binary(x, op, [&](int64_t a, int64_t b) { return shiftLeft(bits, a, unsignedOf(bits, b)); });
    case OpKind::Shri:
      return binary(x, op, [&](int64_t a, int64_t b) -> int64_t {
        uint64_t s = unsignedOf(bits, b);
        if (isSigned) return signedOf(bits, a) >> (s >= bits ? bits - 1 : s);
        return s >= bits ? 0 : static_cast<int64_t>(unsignedOf(bits, a) >> s);
      });
    case OpKind::Divi: return divide(x, op, false);
    case OpKind::Remi: return divide(x, op, true);
    case OpKind::Maxi:
    case OpKind::Mini: {
      bool max = k == OpKind::Maxi;
      return binary(x, op, [&](int64_t a, int64_t b) {
        bool less = compare(Predicate::LessThan, isSigned, bits, a, b);
        return less == max ? b : a;
      });
    }
    case OpKind::Mulhii:
      return binary(x, op, [&](int64_t a, int64_t b) { return mulHighUnsigned(bits, a, b); });
    case OpKind::Cmpi: {
      Predicate p = predicateOf(op).value_or(Predicate::Equal);
      return binary(x, op, [&](int64_t a, int64_t b) -> int64_t { return compare(p, isSigned, bits, a, b); });
    }
    default: x.fail(op, "not an integer op");
  }
}

}  // namespace tilesight::interp
