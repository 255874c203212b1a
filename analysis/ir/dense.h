#pragma once
// A dense literal (`<f32: [[1.0, 2.0], [3.0, 4.0]]>`, `<i8: 7>`) as a typed
// element buffer: its values flattened row-major, or one value to splat.
// Integers and booleans are in `ints`; floats in `floats`, except those
// written as integer bit patterns (`<f32: 0x7FC00000>`), which keep their
// bits in `ints` and are marked in `isBits`.
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/ir/attributes.h"

namespace tilesight {

struct DenseValues {
  Elem elem = Elem::None;
  bool splat = false;           // written as one value, not a list
  std::vector<int64_t> ints;    // per element (integers, booleans, float bit patterns)
  std::vector<double> floats;   // per element (floats written as numbers)
  std::vector<bool> isBits;     // per element, float element types only
  size_t size() const { return ints.size(); }
};

// The values of a Dense attribute; nullopt for another kind of attribute.
std::optional<DenseValues> denseValues(const Attr& a);

}  // namespace tilesight
