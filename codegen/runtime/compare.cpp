#include "codegen/runtime/compare.h"

#include <cmath>
#include <cstring>

#include "codegen/runtime/element_bits.h"

namespace tilesight::runtime {

double toleranceOf(Elem e) {
  switch (e) {
    case Elem::F64: return 1e-12;
    case Elem::F32: return 1e-5;
    case Elem::TF32: return 4e-3;
    case Elem::F16: return 1e-2;
    case Elem::BF16: return 3e-2;
    case Elem::F8E4M3FN: case Elem::F8E5M2: case Elem::F8E8M0FNU: case Elem::F4E2M1FN: return 0.25;
    default: return 0;
  }
}

std::string Mismatch::text() const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%lld element(s) differ; the first, element %lld: %.9g, the reference %.9g",
                static_cast<long long>(count), static_cast<long long>(first), got, want);
  return buf;
}

std::optional<Mismatch> compareBuffers(const HostBuffer& got, const HostBuffer& want) {
  Mismatch m;
  double tol = toleranceOf(want.elem);
  int64_t n = want.elementCount();
  uint64_t gb = runtime::pointerTo(want.elem, got.address()), wb = runtime::pointerTo(want.elem, want.address());
  int64_t unit = runtime::pointerUnit(want.elem);
  double largest = 0;
  if (tol > 0)
    for (int64_t k = 0; k < n; ++k) {
      double w = runtime::valueAt(want.elem, wb + k * unit);
      if (std::isfinite(w)) largest = std::max(largest, std::fabs(w));
    }
  for (int64_t k = 0; k < n; ++k) {
    bool same;
    double g = 0, w = 0;
    if (tol == 0) {
      same = runtime::readBitsAt(want.elem, gb + k * unit) == runtime::readBitsAt(want.elem, wb + k * unit);
      if (!same) g = runtime::valueAt(want.elem, gb + k * unit), w = runtime::valueAt(want.elem, wb + k * unit);
    } else {
      g = runtime::valueAt(want.elem, gb + k * unit), w = runtime::valueAt(want.elem, wb + k * unit);
      same = (std::isnan(g) && std::isnan(w)) || g == w ||
             std::fabs(g - w) <= tol * std::max(std::fabs(w), 1e-2 * largest);
    }
    if (same) continue;
    if (m.count++ == 0) m.first = k, m.got = g, m.want = w;
  }
  if (m.count == 0) return std::nullopt;
  return m;
}

double maxAbsError(const HostBuffer& got, const HostBuffer& want) {
  uint64_t gb = runtime::pointerTo(want.elem, got.address()), wb = runtime::pointerTo(want.elem, want.address());
  int64_t unit = runtime::pointerUnit(want.elem);
  double worst = 0;
  for (int64_t k = 0; k < want.elementCount(); ++k) {
    double g = runtime::valueAt(want.elem, gb + k * unit), w = runtime::valueAt(want.elem, wb + k * unit);
    if (std::isnan(g) && std::isnan(w)) continue;
    if (std::isnan(g) || std::isnan(w)) return NAN;
    if (g != w) worst = std::max(worst, std::fabs(g - w));
  }
  return worst;
}

}  // namespace tilesight::runtime
