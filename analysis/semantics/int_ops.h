#pragma once
// What the integer ops compute on concrete values: the one definition that
// the interpreter (codegen/interp), the checks' executions and value facts'
// constant folding and interval ends use. The SIMT lowering prints the same
// rules as C (codegen/simt/prelude.cpp); the differential tests compare the two.
//
// A value of a `bits`-wide integer type is held in int64 in canonical form:
// its low `bits` bits sign-extended (i1: true is -1). The functions read
// their operands modulo 2^bits, so any int64 with the right low bits will do.
#include <cstdint>
#include <optional>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/op_table.h"
#include "analysis/ir/types.h"

namespace tilesight {

// The integer width of an integer tile type, 0 for anything else.
unsigned intBits(TypeRef t);

// --- widths -------------------------------------------------------------------
// Inline: the interpreter calls these for every element.
inline int64_t minOf(unsigned bits) { return bits >= 64 ? INT64_MIN : -(int64_t(1) << (bits - 1)); }
inline int64_t maxOf(unsigned bits) { return bits >= 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1; }
inline bool fitsIn(__int128 v, unsigned bits) { return v >= minOf(bits) && v <= maxOf(bits); }
// v modulo 2^bits in canonical form (0 or 64 bits and more: the low 64 bits).
inline int64_t wrapToWidth(unsigned bits, __int128 v) {
  if (bits == 0 || bits >= 64) return static_cast<int64_t>(v);
  unsigned sh = 64 - bits;
  return static_cast<int64_t>(static_cast<uint64_t>(v) << sh) >> sh;
}
// v's low `bits` bits read as unsigned (zero-extended).
inline uint64_t unsignedOf(unsigned bits, int64_t v) {
  return bits >= 64 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(v) & ((uint64_t{1} << bits) - 1);
}
// v's low `bits` bits read as signed (sign-extended).
inline int64_t signedOf(unsigned bits, int64_t v) { return wrapToWidth(bits, v); }

// --- ops ----------------------------------------------------------------------
// How an op reads its operands: their width, signedness (from the op's
// attribute; absent reads signed) and, for divi, the rounding.
struct IntOpMode {
  unsigned bits = 64;
  bool isSigned = true;
  Rounding rounding = Rounding::Zero;
};

// The result of an integer op on concrete operands. `defined` is false where
// the spec leaves the result undefined (a zero divisor, a shift by the width
// or more); `value` is then what the interpreter and the SIMT prelude give
// (0 for a zero divisor, shli and logical shri: 0, arithmetic shri: the sign).
struct IntResult {
  int64_t value = 0;
  bool defined = true;
};

// a / b rounded as `r` says (toward zero unless NegativeInf or PositiveInf); b != 0.
__int128 roundedQuotient(__int128 a, __int128 b, Rounding r);

// Whether `a p b` holds: cmpi's comparison, and cmpf's once its NaN rule
// (ordered or unordered) has been applied.
template <class T>
bool predicateHolds(Predicate p, T a, T b) {
  switch (p) {
    case Predicate::Equal: return a == b;
    case Predicate::NotEqual: return a != b;
    case Predicate::LessThan: return a < b;
    case Predicate::LessThanOrEqual: return a <= b;
    case Predicate::GreaterThan: return a > b;
    case Predicate::GreaterThanOrEqual: return a >= b;
  }
  return false;
}

// Unary (absi, negi) and binary integer ops: addi, subi, muli, divi, remi,
// maxi, mini, andi, ori, xori, shli, shri, mulhii and cmpi (predicate `p`,
// result i1: -1 or 0). Results are canonical for m.bits (cmpi: for 1 bit).
IntResult evalIntOp(OpKind k, const IntOpMode& m, int64_t a, int64_t b = 0,
                    Predicate p = Predicate::Equal);

// exti (signed: sign-extends, else zero-extends) and trunci from `from` bits to `to`.
int64_t resizeInt(unsigned from, unsigned to, bool isSigned, int64_t v);

}  // namespace tilesight
