// Built with -frounding-math (codegen/CMakeLists.txt): the compiler must not
// fold or reorder float arithmetic across the rounding-mode changes here.
#include <cfenv>

#include "codegen/interp/float_math.h"
#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

int fenvMode(Rounding r) {
  switch (r) {
    case Rounding::Zero: return FE_TOWARDZERO;
    case Rounding::NegativeInf: return FE_DOWNWARD;
    case Rounding::PositiveInf: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

struct ScopedRounding {
  explicit ScopedRounding(Rounding r) : saved(std::fegetround()) { std::fesetround(fenvMode(r)); }
  ~ScopedRounding() { std::fesetround(saved); }
  int saved;
};

}  // namespace

void directedFloat(OpKind k, Rounding r, Elem e, const float* a, const float* b, const float* c, float* out, long n) {
  ScopedRounding scope(r);
  for (long i = 0; i < n; ++i) {
    float bi = b ? b[i] : 0.f, ci = c ? c[i] : 0.f;
    if (e == Elem::F32) {
      out[i] = floatArith<float>(k, a[i], bi, ci);
    } else {
      double v = floatArith<double>(k, a[i], bi, ci);
      out[i] = static_cast<float>(runtime::roundTo(e, v, r));
    }
  }
}

void directedDouble(OpKind k, Rounding r, const double* a, const double* b, const double* c, double* out, long n) {
  ScopedRounding scope(r);
  for (long i = 0; i < n; ++i) out[i] = floatArith<double>(k, a[i], b ? b[i] : 0.0, c ? c[i] : 0.0);
}

}  // namespace tilesight::interp
