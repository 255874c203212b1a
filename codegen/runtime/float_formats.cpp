#include "codegen/runtime/float_formats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <llvm/Support/ErrorHandling.h>

namespace tilesight::runtime {

namespace {

// What a format does with an all-ones exponent field.
enum class Top : uint8_t {
  Ieee,     // infinity (mantissa 0) and NaNs: f16, bf16, tf32, f32, f8E5M2
  NanOnly,  // finite except S.1111.111, the one NaN: f8E4M3FN
  Finite,   // finite like any other field: f4E2M1FN
};

// A sign / exponent / mantissa format of at most 32 bits. f64 and f8E8M0FNU
// do not fit this shape and are handled on their own.
struct Format {
  int expBits;
  int manBits;
  int bias;
  Top top;
  bool saturates;  // out-of-range values and ±inf give ±max finite

  uint64_t signBit() const { return uint64_t{1} << (expBits + manBits); }
  uint64_t expAllOnes() const { return ((uint64_t{1} << expBits) - 1) << manBits; }
  uint64_t manMask() const { return (uint64_t{1} << manBits) - 1; }
  int minNormalExp() const { return 1 - bias; }
  // The exponent of the top binade below an all-ones field (formats with inf).
  int maxNormalExp() const { return (1 << expBits) - 2 - bias; }
  uint64_t maxFiniteMag() const {
    switch (top) {
      case Top::Ieee: return expAllOnes() - 1;
      case Top::NanOnly: return expAllOnes() | (manMask() - 1);
      case Top::Finite: return expAllOnes() | manMask();
    }
    llvm_unreachable("bad Top");
  }
};

constexpr Format kF16{5, 10, 15, Top::Ieee, false};
constexpr Format kBF16{8, 7, 127, Top::Ieee, false};
// tf32 as its top 19 bits; kTF32Shift places them in the 32-bit storage.
constexpr Format kTF32{8, 10, 127, Top::Ieee, false};
constexpr int kTF32Shift = 13;
constexpr Format kF32{8, 23, 127, Top::Ieee, false};
constexpr Format kE4M3FN{4, 3, 7, Top::NanOnly, true};
constexpr Format kE5M2{5, 2, 15, Top::Ieee, true};
constexpr Format kE2M1FN{2, 1, 1, Top::Finite, true};

constexpr uint64_t kF64Sign = uint64_t{1} << 63;
constexpr uint64_t kF64Quiet = uint64_t{1} << 51;
constexpr uint64_t kF64ManMask = (uint64_t{1} << 52) - 1;
constexpr int kE8M0Bias = 127;
constexpr uint64_t kE8M0NaN = 0xFF;

const Format& formatOf(Elem e) {
  switch (e) {
    case Elem::F16: return kF16;
    case Elem::BF16: return kBF16;
    case Elem::TF32: return kTF32;
    case Elem::F32: return kF32;
    case Elem::F8E4M3FN: return kE4M3FN;
    case Elem::F8E5M2: return kE5M2;
    case Elem::F4E2M1FN: return kE2M1FN;
    default: llvm_unreachable("not a sign/exponent/mantissa float format");
  }
}

Rounding normalized(Rounding r) {
  switch (r) {
    case Rounding::Zero:
    case Rounding::NegativeInf:
    case Rounding::PositiveInf: return r;
    default: return Rounding::NearestEven;
  }
}

// Whether rounding |x| (of sign `neg`) away from zero is what r asks, given
// the discarded part `rem` against half a unit `half` and the kept part's
// parity.
bool roundsUp(Rounding r, bool neg, uint64_t rem, uint64_t half, bool odd) {
  switch (r) {
    case Rounding::Zero: return false;
    case Rounding::PositiveInf: return rem != 0 && !neg;
    case Rounding::NegativeInf: return rem != 0 && neg;
    default: return rem > half || (rem == half && odd);
  }
}

// m / 2^s rounded by r to an integer (m < 2^53, s >= 1).
uint64_t shiftRound(uint64_t m, int s, bool neg, Rounding r) {
  // Past 62 every m < 2^53 is below half a unit, as it is at 62.
  if (s > 62) s = 62;
  const uint64_t q = m >> s;
  const uint64_t rem = m & ((uint64_t{1} << s) - 1);
  return q + roundsUp(r, neg, rem, uint64_t{1} << (s - 1), q & 1);
}

// A NaN double keeping sign and payload bits (the payload's top bits, quiet
// bit set), the way hardware widens a NaN.
double nanOf(bool neg, uint64_t payload, int manBits) {
  const uint64_t bits = (neg ? kF64Sign : 0) | (uint64_t{0x7FF} << 52) | kF64Quiet |
                        ((payload << (52 - manBits)) & kF64ManMask);
  return std::bit_cast<double>(bits);
}

double decodeWith(const Format& f, uint64_t bits) {
  const bool neg = bits & f.signBit();
  const uint64_t expField = (bits & f.expAllOnes()) >> f.manBits;
  const uint64_t man = bits & f.manMask();
  const uint64_t expMax = (uint64_t{1} << f.expBits) - 1;
  if (expField == expMax && f.top == Top::Ieee)
    return man == 0 ? (neg ? -HUGE_VAL : HUGE_VAL) : nanOf(neg, man, f.manBits);
  if (expField == expMax && f.top == Top::NanOnly && man == f.manMask())
    return nanOf(neg, man, f.manBits);
  // A subnormal is man * 2^(emin - M); a normal adds the implicit bit and
  // scales by its exponent.
  const double mag = expField == 0
                         ? std::ldexp(double(man), f.minNormalExp() - f.manBits)
                         : std::ldexp(double(man | (uint64_t{1} << f.manBits)),
                                      int(expField) - f.bias - f.manBits);
  return neg ? -mag : mag;
}

// The magnitude bits for an |x| past max finite (or ±inf): inf where the
// format has one and r rounds away from zero, else max finite.
uint64_t overflowMag(const Format& f, bool neg, Rounding r) {
  const bool away = r == Rounding::NearestEven || (r == Rounding::PositiveInf && !neg) ||
                    (r == Rounding::NegativeInf && neg);
  return away && !f.saturates ? f.expAllOnes() : f.maxFiniteMag();
}

// The magnitude bits of a finite nonzero |x| rounded by r.
uint64_t finiteMag(const Format& f, double x, bool neg, Rounding r) {
  int ex;
  const double frac = std::frexp(std::fabs(x), &ex);  // |x| = frac * 2^ex, frac in [0.5, 1)
  const uint64_t m = uint64_t(std::ldexp(frac, 53));  // |x| = m * 2^(ex - 53), exactly
  const int k = ex - 1;                               // floor(log2 |x|)
  // The unit of the result's last place: that of k's binade, or the
  // subnormals' fixed one below the smallest normal.
  const int unitExp = std::max(k, f.minNormalExp()) - f.manBits;
  const uint64_t n = shiftRound(m, unitExp - (ex - 53), neg, r);
  // n counts units; for a normal n in [2^M, 2^(M+1)], adding (biased
  // exponent - 1) << M both drops the implicit bit and carries a rounded-up
  // 2^(M+1) into the next binade. A subnormal's n is its own encoding (a
  // carry to 2^M is the smallest normal).
  const int64_t biasedMinus1 = std::max<int64_t>(int64_t(k) + f.bias - 1, 0);
  const uint64_t mag = (uint64_t(biasedMinus1) << f.manBits) + n;
  return mag > f.maxFiniteMag() ? overflowMag(f, neg, r) : mag;
}

uint64_t encodeWith(const Format& f, double x, Rounding r) {
  const bool neg = std::signbit(x);
  const uint64_t sign = neg ? f.signBit() : 0;
  if (std::isnan(x)) {
    if (f.top != Top::Ieee) return f.maxFiniteMag();  // no NaN: +max finite
    const uint64_t payload = (std::bit_cast<uint64_t>(x) & kF64ManMask) >> (52 - f.manBits);
    return sign | f.expAllOnes() | payload | (uint64_t{1} << (f.manBits - 1));
  }
  if (std::isinf(x)) return sign | (f.saturates ? f.maxFiniteMag() : f.expAllOnes());
  if (x == 0) return sign;
  return sign | finiteMag(f, x, neg, r);
}

uint64_t encodeF64(double x) {
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  return std::isnan(x) ? bits | kF64Quiet : bits;
}

// f8E8M0FNU: 2^(bits - 127). Rounding to nearest is by value (the midpoint
// of 2^k and 2^(k+1) is 1.5 * 2^k); a tie goes to the even encoding.
uint64_t encodeE8M0(double x, Rounding r) {
  if (std::isnan(x)) return kE8M0NaN;
  if (!(x > 0)) return 0;  // zero and negatives: the smallest value
  if (std::isinf(x)) return kE8M0NaN - 1;
  int ex;
  const double frac = std::frexp(x, &ex);  // x = frac * 2^ex, frac in [0.5, 1)
  int k = ex - 1;
  if (frac != 0.5) {
    const bool up = r == Rounding::PositiveInf ||
                    (r == Rounding::NearestEven &&
                     (frac > 0.75 || (frac == 0.75 && ((k + kE8M0Bias) & 1))));
    k += up;
  }
  return uint64_t(std::clamp(k, -kE8M0Bias, kE8M0Bias) + kE8M0Bias);
}

double decodeE8M0(uint64_t bits) {
  return bits == kE8M0NaN ? std::numeric_limits<double>::quiet_NaN()
                          : std::ldexp(1.0, int(bits) - kE8M0Bias);
}

// x rounded to nearest even in f (a format with inf) when |x| lies in f's
// normal binades, by rounding the double's own bits to f's mantissa width (a
// carry rolls into the exponent, as it should); nullopt for any other x.
std::optional<double> roundNormalNearest(const Format& f, double x) {
  uint64_t bits = std::bit_cast<uint64_t>(x);
  const int k = int((bits >> 52) & 0x7FF) - 1023;
  if (k < f.minNormalExp() || k > f.maxNormalExp()) return std::nullopt;
  const int shift = 52 - f.manBits;
  bits += (uint64_t{1} << (shift - 1)) - 1 + ((bits >> shift) & 1);
  bits &= ~((uint64_t{1} << shift) - 1);
  const int roundedK = int((bits >> 52) & 0x7FF) - 1023;
  return roundedK > f.maxNormalExp() ? std::copysign(HUGE_VAL, x) : std::bit_cast<double>(bits);
}

// The encoding of x rounded to nearest even when the result is a normal
// number of f (the common case, without the general path's frexp and
// scalbn); nullopt otherwise.
std::optional<uint64_t> encodeNormalNearest(const Format& f, double x) {
  std::optional<double> rounded = roundNormalNearest(f, x);
  if (!rounded || std::isinf(*rounded)) return std::nullopt;
  const uint64_t bits = std::bit_cast<uint64_t>(*rounded);
  const uint64_t k = ((bits >> 52) & 0x7FF) - 1023 + f.bias;
  const uint64_t man = (bits & kF64ManMask) >> (52 - f.manBits);
  return (std::signbit(x) ? f.signBit() : 0) | (k << f.manBits) | man;
}

}  // namespace

double decodeFloat(Elem e, uint64_t bits) {
  switch (e) {
    case Elem::F64: return std::bit_cast<double>(bits);
    case Elem::F32: return std::bit_cast<float>(uint32_t(bits));
    case Elem::TF32: return decodeWith(kTF32, (bits & 0xFFFFFFFF) >> kTF32Shift);
    case Elem::F8E8M0FNU: return decodeE8M0(bits & 0xFF);
    default: {
      const Format& f = formatOf(e);
      return decodeWith(f, bits & (f.signBit() * 2 - 1));
    }
  }
}

uint64_t encodeFloat(Elem e, double x, Rounding r) {
  r = normalized(r);
  switch (e) {
    case Elem::F64: return encodeF64(x);
    case Elem::F32:
      // The cast rounds to nearest even in the default environment.
      if (r == Rounding::NearestEven) return std::bit_cast<uint32_t>(float(x));
      return encodeWith(kF32, x, r);
    case Elem::TF32:
      if (auto fast = r == Rounding::NearestEven ? encodeNormalNearest(kTF32, x) : std::nullopt)
        return *fast << kTF32Shift;
      return encodeWith(kTF32, x, r) << kTF32Shift;
    case Elem::F8E8M0FNU: return encodeE8M0(x, r);
    case Elem::F16:
    case Elem::BF16:
      if (auto fast = r == Rounding::NearestEven ? encodeNormalNearest(formatOf(e), x) : std::nullopt) return *fast;
      return encodeWith(formatOf(e), x, r);
    default: return encodeWith(formatOf(e), x, r);
  }
}

double roundTo(Elem e, double x, Rounding r) {
  r = normalized(r);
  if (r == Rounding::NearestEven) {
    if (e == Elem::F32) return double(float(x));
    if (e == Elem::F64) return x;
    if (e == Elem::F16 || e == Elem::BF16 || e == Elem::TF32) {
      if (auto rounded = roundNormalNearest(formatOf(e), x)) return *rounded;
    }
  }
  return decodeFloat(e, encodeFloat(e, x, r));
}

bool isSubnormalIn(Elem e, double x) {
  double minNormal;
  switch (e) {
    case Elem::F64: minNormal = std::numeric_limits<double>::min(); break;
    case Elem::F8E8M0FNU: return false;  // no subnormals, and no zero to flush to
    default: minNormal = std::ldexp(1.0, formatOf(e).minNormalExp()); break;
  }
  const double a = std::fabs(x);
  return a != 0 && a < minNormal;
}

int64_t floatToInt(double x, unsigned bits, Signedness s) {
  if (std::isnan(x)) return 0;
  const double t = std::trunc(x);
  if (s == Signedness::Signed) {
    const double limit = std::ldexp(1.0, int(bits) - 1);  // 2^(bits-1), exact
    if (t >= limit) return int64_t((uint64_t{1} << (bits - 1)) - 1);
    if (t < -limit) return int64_t(~uint64_t{0} << (bits - 1));  // -2^(bits-1)
    return int64_t(t);
  }
  if (t <= 0) return 0;
  const double limit = std::ldexp(1.0, int(bits));  // 2^bits, exact
  // u64's maximum does not fit int64_t: it comes back as its bit pattern.
  const uint64_t max = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return int64_t(t >= limit ? max : uint64_t(t));
}

const float* decodeTable(Elem e) {
  auto build = [](Elem f) {
    std::vector<float> t(size_t{1} << elemBits(f));
    for (size_t b = 0; b < t.size(); ++b) t[b] = static_cast<float>(decodeFloat(f, b));
    return t;
  };
  switch (e) {
    case Elem::F16: { static const std::vector<float> t = build(Elem::F16); return t.data(); }
    case Elem::BF16: { static const std::vector<float> t = build(Elem::BF16); return t.data(); }
    case Elem::F8E4M3FN: { static const std::vector<float> t = build(Elem::F8E4M3FN); return t.data(); }
    case Elem::F8E5M2: { static const std::vector<float> t = build(Elem::F8E5M2); return t.data(); }
    case Elem::F8E8M0FNU: { static const std::vector<float> t = build(Elem::F8E8M0FNU); return t.data(); }
    case Elem::F4E2M1FN: { static const std::vector<float> t = build(Elem::F4E2M1FN); return t.data(); }
    default: return nullptr;
  }
}

}  // namespace tilesight::runtime
