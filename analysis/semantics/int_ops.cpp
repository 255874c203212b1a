#include "analysis/semantics/int_ops.h"

#include <algorithm>

namespace tilesight {

unsigned intBits(TypeRef t) {
  return t && t->isTile() && !t->isPtrTile() && isIntElem(t->tileElem()) ? elemBits(t->tileElem()) : 0;
}

__int128 roundedQuotient(__int128 a, __int128 b, Rounding r) {
  __int128 q = a / b, m = a % b;
  if (m == 0) return q;
  bool negative = (m < 0) != (b < 0);  // the exact quotient lies below q
  if (r == Rounding::NegativeInf && negative) return q - 1;
  if (r == Rounding::PositiveInf && !negative) return q + 1;
  return q;
}

namespace {

// shri: arithmetic (signed) or logical; a shift by the width or more fills
// with the sign or with zeros.
IntResult shiftRight(const IntOpMode& m, int64_t a, uint64_t s) {
  bool defined = s < m.bits;
  if (m.isSigned) return {signedOf(m.bits, a) >> (defined ? s : m.bits - 1), defined};
  return {defined ? wrapToWidth(m.bits, unsignedOf(m.bits, a) >> s) : 0, defined};
}

// mulhii is defined for unsigned integers only (the spec).
int64_t mulHigh(unsigned bits, int64_t a, int64_t b) {
  unsigned __int128 p = static_cast<unsigned __int128>(unsignedOf(bits, a)) * unsignedOf(bits, b);
  return wrapToWidth(bits, static_cast<__int128>(p >> bits));
}

}  // namespace

IntResult evalIntOp(OpKind k, const IntOpMode& m, int64_t a, int64_t b, Predicate p) {
  unsigned bits = m.bits;
  // The operands as the op reads them, and the wrapping sums (modulo 2^64 is
  // modulo 2^bits too).
  auto read = [&](int64_t v) { return m.isSigned ? __int128(signedOf(bits, v)) : __int128(unsignedOf(bits, v)); };
  auto wrap = [&](uint64_t v) { return IntResult{wrapToWidth(bits, static_cast<int64_t>(v))}; };
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (k) {
    case OpKind::Absi: return wrap(signedOf(bits, a) < 0 ? 0 - ua : ua);
    case OpKind::Negi: return wrap(0 - ua);
    case OpKind::Addi: return wrap(ua + ub);
    case OpKind::Subi: return wrap(ua - ub);
    case OpKind::Muli: return wrap(ua * ub);
    case OpKind::Andi: return wrap(ua & ub);
    case OpKind::Ori: return wrap(ua | ub);
    case OpKind::Xori: return wrap(ua ^ ub);
    case OpKind::Shli: {
      uint64_t s = unsignedOf(bits, b);
      return s < bits ? wrap(ua << s) : IntResult{0, false};
    }
    case OpKind::Shri: return shiftRight(m, a, unsignedOf(bits, b));
    case OpKind::Divi:
    case OpKind::Remi: {
      if (unsignedOf(bits, b) == 0) return {0, false};
      __int128 x = read(a), y = read(b);
      return {wrapToWidth(bits, k == OpKind::Remi ? x % y : roundedQuotient(x, y, m.rounding))};
    }
    case OpKind::Maxi: return {wrapToWidth(bits, std::max(read(a), read(b)))};
    case OpKind::Mini: return {wrapToWidth(bits, std::min(read(a), read(b)))};
    case OpKind::Mulhii: return {mulHigh(bits, a, b)};
    case OpKind::Cmpi: return {predicateHolds(p, read(a), read(b)) ? -1 : 0};
    default: return {0, false};
  }
}

int64_t resizeInt(unsigned from, unsigned to, bool isSigned, int64_t v) {
  return wrapToWidth(to, isSigned ? __int128(signedOf(from, v)) : __int128(unsignedOf(from, v)));
}

}  // namespace tilesight
