#pragma once
// The arithmetic of one float op on one element, shared by the element-wise
// evaluator (ops_float.cpp) and the directed-rounding path
// (float_directed.cpp, built with -frounding-math).
#include <cmath>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/op_table.h"

namespace tilesight::interp {

// The exact operation, computed in T (float or double) under the current
// hardware rounding mode; c is fma's addend.
template <class T>
T floatArith(OpKind k, T a, T b, T c) {
  switch (k) {
    case OpKind::Addf: return a + b;
    case OpKind::Subf: return a - b;
    case OpKind::Mulf: return a * b;
    case OpKind::Divf: return a / b;
    case OpKind::Fma: return std::fma(a, b, c);
    case OpKind::Sqrt: return std::sqrt(a);
    default: return a;
  }
}

// Ops whose rounding_mode may be a directed IEEE mode.
inline bool correctlyRounded(OpKind k) {
  return k == OpKind::Addf || k == OpKind::Subf || k == OpKind::Mulf || k == OpKind::Divf || k == OpKind::Fma ||
         k == OpKind::Sqrt;
}

// Element-wise op k on n elements under a directed rounding r (Zero,
// NegativeInf, PositiveInf), results rounded by r to format e (f16, bf16:
// the value computed in double under r, then rounded by r again, which is
// exact for directed modes since every f16/bf16 value is a double).
void directedFloat(OpKind k, Rounding r, Elem e, const float* a, const float* b, const float* c, float* out, long n);
void directedDouble(OpKind k, Rounding r, const double* a, const double* b, const double* c, double* out, long n);

}  // namespace tilesight::interp
