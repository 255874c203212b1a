#pragma once
// Bit-exact conversions between the float formats of Tile IR (seed 001
// §5.1.3) and double, which holds every value of every format exactly. The
// interpreter keeps f16, bf16, tf32, f8 and f4 values as f32 (exact too) and
// rounds each result to its format with roundTo.
#include <cstdint>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/types.h"

namespace tilesight::runtime {

// The value of `bits` (the format's storage bits in the low bits: 16 for
// f16/bf16, 32 for f32/tf32, 8 for the f8 formats, 4 for f4E2M1FN) in format
// e, one of F16, BF16, F32, TF32, F64 (bits of a double), F8E4M3FN, F8E5M2,
// F8E8M0FNU, F4E2M1FN. tf32 reads the top 19 bits of its 32.
double decodeFloat(Elem e, uint64_t bits);

// decodeFloat as float for every pattern of a format of at most 16 bits
// (f16, bf16, the f8 formats, f4E2M1FN): table[bits], built on first use.
// Loads of those formats read it instead of decoding each element.
const float* decodeTable(Elem e);

// The storage bits of the value of format e nearest x under rounding r
// (NearestEven, Zero, NegativeInf, PositiveInf; other modes round to nearest
// even), with the spec's rules for what does not fit:
//   f16, bf16, tf32, f32, f64: may round to ±inf; NaN stays NaN (quiet).
//   f8E5M2: saturates to ±max finite (±inf too); NaN stays NaN.
//   f8E4M3FN, f4E2M1FN: saturate to ±max finite (±inf too); NaN gives +max.
//   f8E8M0FNU (powers of two 2^-127..2^127, unsigned, 0xFF NaN): the exponent
//     of |x| rounded by r; zero, negatives and values below 2^-127 give
//     2^-127, past 2^127 gives 2^127; NaN gives NaN.
// Subnormals of each format are kept (flush-to-zero is the caller's).
// f8E8M0FNU's nearest is by value: between 2^k and 2^(k+1) the midpoint is
// 1.5 * 2^k, and a tie goes to the even encoding. A NaN result keeps x's
// sign and the top bits of its payload, with the quiet bit set.
uint64_t encodeFloat(Elem e, double x, Rounding r = Rounding::NearestEven);

// x rounded to format e (the value of encodeFloat's result, as a double).
double roundTo(Elem e, double x, Rounding r = Rounding::NearestEven);

// Whether |x| is a nonzero value below format e's smallest normal (what
// flush-to-zero replaces with a zero of the same sign).
bool isSubnormalIn(Elem e, double x);

// Float to integer for ftoi: truncation toward zero (the only rounding the
// op allows), saturating to the range of a `bits`-bit signed or unsigned
// integer; NaN gives 0. The result is the integer's value (for unsigned, in
// [0, 2^bits - 1]; a 64-bit unsigned result past INT64_MAX comes back as
// its bit pattern, i.e. the uint64_t value converted to int64_t).
int64_t floatToInt(double x, unsigned bits, Signedness s);

}  // namespace tilesight::runtime
