#pragma once
// Comparing a device's result buffer with the CPU reference's (`run
// --check`): integers and every non-float format bit for bit, floats
// within a tolerance by format (a few units in the last place of the
// format, relative to the element or, near zero, to the buffer's largest).
#include <optional>
#include <string>

#include "codegen/runtime/buffers.h"

namespace tilesight::runtime {

struct Mismatch {
  int64_t count = 0;     // elements outside the tolerance
  int64_t first = 0;     // the first one's index
  double got = 0, want = 0;
  std::string text() const;
};

// Relative tolerance of format e (0: exact).
double toleranceOf(Elem e);

std::optional<Mismatch> compareBuffers(const HostBuffer& got, const HostBuffer& want);

// The largest |got - want| over the elements (NaN where both are NaN counts
// 0, where one is, the result is NaN): the run report's error figure.
double maxAbsError(const HostBuffer& got, const HostBuffer& want);

}  // namespace tilesight::runtime
