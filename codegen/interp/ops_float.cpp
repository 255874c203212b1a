// Element-wise float ops. f32 computes in float, f64 in double; f16 and bf16
// compute in float and round each result to their format (exact: float has
// more than twice their precision, so the double rounding is innocuous for
// + - * / sqrt; fma is not covered by that and rounds once, fmaToOdd).
// Transcendentals compute in double and round once.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/semantics/int_ops.h"
#include "codegen/interp/block_exec.h"
#include "codegen/interp/float_math.h"
#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

template <class T>
T maxMin(bool max, bool propagateNan, T a, T b) {
  if (std::isnan(a) || std::isnan(b)) {
    if (propagateNan || (std::isnan(a) && std::isnan(b))) return std::numeric_limits<T>::quiet_NaN();
    return std::isnan(a) ? b : a;
  }
  if (a == b) return (std::signbit(a) == max) ? b : a;  // max(-0, +0) = +0, min = -0
  return (a < b) == max ? b : a;
}

template <class T>
T transcendental(OpKind k, T a, T b) {
  double x = a, y = b;
  switch (k) {
    case OpKind::Remf: return static_cast<T>(std::fmod(x, y));
    case OpKind::Pow: return static_cast<T>(std::pow(x, y));
    case OpKind::Atan2: return static_cast<T>(std::atan2(x, y));
    case OpKind::Absf: return std::fabs(a);
    case OpKind::Negf: return -a;
    case OpKind::Ceil: return std::ceil(a);
    case OpKind::Floor: return std::floor(a);
    case OpKind::Cos: return static_cast<T>(std::cos(x));
    case OpKind::Cosh: return static_cast<T>(std::cosh(x));
    case OpKind::Sin: return static_cast<T>(std::sin(x));
    case OpKind::Sinh: return static_cast<T>(std::sinh(x));
    case OpKind::Tan: return static_cast<T>(std::tan(x));
    case OpKind::Log: return static_cast<T>(std::log(x));
    case OpKind::Log2: return static_cast<T>(std::log2(x));
    case OpKind::Tanh: return static_cast<T>(std::tanh(x));
    case OpKind::Exp: return static_cast<T>(std::exp(x));
    case OpKind::Exp2: return static_cast<T>(std::exp2(x));
    case OpKind::Rsqrt: return static_cast<T>(1.0 / std::sqrt(x));
    default: return a;
  }
}

template <class T>
bool compareFloat(Predicate p, bool unordered, T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return unordered;
  return predicateHolds(p, a, b);
}

struct FloatOp {
  OpKind kind;
  Rounding rounding = Rounding::NearestEven;
  bool ftz = false, propagateNan = false;
};

// One element of op f in T.
template <class T>
T compute(const FloatOp& f, T a, T b, T c) {
  // divf rounding<approx> multiplies by the reciprocal, which for 2^126 <
  // |rhs| < 2^128 is a flushed subnormal: Ops.td gives 0 there (NaN for an
  // infinite lhs), i.e. lhs times a zero of rhs's sign. (f32 only.)
  if (f.kind == OpKind::Divf && f.rounding == Rounding::Approx && std::isfinite(b) && std::fabs(b) > T(0x1p126))
    return a * std::copysign(T(0), b);
  switch (f.kind) {
    case OpKind::Addf: case OpKind::Subf: case OpKind::Mulf: case OpKind::Divf: case OpKind::Fma:
    case OpKind::Sqrt:
      return floatArith<T>(f.kind, a, b, c);
    case OpKind::Maxf: return maxMin<T>(true, f.propagateNan, a, b);
    case OpKind::Minf: return maxMin<T>(false, f.propagateNan, a, b);
    default: return transcendental<T>(f.kind, a, b);
  }
}

// fma for f16 and bf16 (rounding to nearest): a * b is exact in double (two
// significands of at most 11 bits) and the sum is rounded to odd -- Knuth's
// two-sum gives the part a nearest rounding dropped -- so that rounding the
// double to the format is the correctly rounded fma. Rounding to nearest in
// float (or double) first can leave a false tie: in f16, 0.75 * 683/512 +
// 2^-24 = 1 + 2^-11 + 2^-24 would go down to 1 instead of up.
double fmaToOdd(double a, double b, double c) {
  double p = a * b;
  double s = p + c;
  if (!std::isfinite(s)) return s;
  double pb = s - p;
  double err = (p - (s - pb)) + (c - pb);  // s + err == p + c exactly
  uint64_t bits;
  std::memcpy(&bits, &s, sizeof bits);
  if (err != 0 && (bits & 1) == 0) s = std::nextafter(s, err > 0 ? HUGE_VAL : -HUGE_VAL);
  return s;
}

template <class T>
T flush(Elem e, T v) {
  return runtime::isSubnormalIn(e, v) ? std::copysign(T(0), v) : v;
}

// result[k] = f(a[k], b[k], c[k]) over n elements (b, c may be null).
template <class T>
void mapFloat(const FloatOp& f, Elem e, const T* a, const T* b, const T* c, T* out, int64_t n) {
  bool directed = f.rounding == Rounding::Zero || f.rounding == Rounding::NegativeInf ||
                  f.rounding == Rounding::PositiveInf;
  if (directed && correctlyRounded(f.kind)) {
    // flush_to_zero flushes subnormal inputs too, before the operation: the
    // directed path computes on the operands it is given.
    std::vector<T> fa, fb, fc;
    if (f.ftz) {
      auto flushed = [&](const T* p, std::vector<T>& v) -> const T* {
        if (!p) return nullptr;
        v.assign(p, p + n);
        for (T& x : v) x = flush(e, x);
        return v.data();
      };
      a = flushed(a, fa), b = flushed(b, fb), c = flushed(c, fc);
    }
    if constexpr (std::is_same_v<T, float>) directedFloat(f.kind, f.rounding, e, a, b, c, out, n);
    else directedDouble(f.kind, f.rounding, a, b, c, out, n);
  } else if (f.kind == OpKind::Addf && !f.ftz) {
    for (int64_t k = 0; k < n; ++k) out[k] = a[k] + b[k];  // the common case, vectorised
  } else if (f.kind == OpKind::Mulf && !f.ftz) {
    for (int64_t k = 0; k < n; ++k) out[k] = a[k] * b[k];
  } else if (f.kind == OpKind::Fma && e != Elem::F32 && e != Elem::F64) {
    for (int64_t k = 0; k < n; ++k) out[k] = static_cast<T>(runtime::roundTo(e, fmaToOdd(a[k], b[k], c[k])));
  } else {
    for (int64_t k = 0; k < n; ++k) {
      T x = a[k], y = b ? b[k] : T(0), z = c ? c[k] : T(0);
      if (f.ftz) x = flush(e, x), y = flush(e, y), z = flush(e, z);
      out[k] = compute<T>(f, x, y, z);
    }
  }
  bool narrow = e != Elem::F32 && e != Elem::F64;
  if (narrow && !directed)
    for (int64_t k = 0; k < n; ++k) out[k] = static_cast<T>(runtime::roundTo(e, out[k]));
  if (f.ftz)
    for (int64_t k = 0; k < n; ++k) out[k] = flush(e, out[k]);
}

void compareTiles(BlockExec& x, const Operation& op) {
  const Tile& a = x.tile(op.operands[0].value);
  const Tile& b = x.tile(op.operands[1].value);
  Predicate p = predicateOf(op).value_or(Predicate::Equal);
  bool unordered = attrValue<CmpOrdering>(op, attr_names::comparisonOrdering) == CmpOrdering::Unordered;
  auto r = x.result(op);
  for (int64_t k = 0; k < r->n; ++k)
    r->ints()[k] = a.store == Store::F64 ? compareFloat(p, unordered, a.f64()[k], b.f64()[k])
                                         : compareFloat(p, unordered, a.f32()[k], b.f32()[k]);
}

// fpowi: each source element to its signed integer exponent, computed in
// double and rounded once to the result's format (so x ** 2 of an f32 or
// narrower tile is the correctly rounded x * x, as NumPy computes it).
void powInt(BlockExec& x, const Operation& op) {
  const Tile& a = x.tile(op.operands[0].value);
  const Tile& e = x.tile(op.operands[1].value);
  unsigned bits = intBits(e.elem);
  auto r = x.result(op);
  for (int64_t k = 0; k < r->n; ++k) {
    double v = std::pow(a.asDouble(k), static_cast<double>(signedOf(bits, e.ints()[k])));
    if (r->store == Store::F64) r->f64()[k] = v;
    else r->f32()[k] = static_cast<float>(runtime::roundTo(r->elem, v));
  }
}

}  // namespace

void evalFloat(BlockExec& x, const Operation& op, OpKind k) {
  if (k == OpKind::Cmpf) return compareTiles(x, op);
  if (k == OpKind::Fpowi) return powInt(x, op);
  FloatOp f{k};
  if (correctlyRounded(k)) f.rounding = roundingOf(op).value_or(Rounding::NearestEven);
  f.ftz = attrs::flushToZero(op) != nullptr;
  f.propagateNan = attrs::propagateNan(op) != nullptr;
  const Tile& a = x.tile(op.operands[0].value);
  const Tile* b = op.operands.size() > 1 ? &x.tile(op.operands[1].value) : nullptr;
  const Tile* c = op.operands.size() > 2 ? &x.tile(op.operands[2].value) : nullptr;
  auto r = x.result(op);
  if (r->store == Store::F64)
    mapFloat<double>(f, r->elem, a.f64(), b ? b->f64() : nullptr, c ? c->f64() : nullptr, r->f64(), r->n);
  else
    mapFloat<float>(f, r->elem, a.f32(), b ? b->f32() : nullptr, c ? c->f32() : nullptr, r->f32(), r->n);
}

}  // namespace tilesight::interp
