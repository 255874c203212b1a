#pragma once
// What an SSA value holds while a tile block runs: a tile, a tensor_view, a
// tile view (partition, strided, gather/scatter) or a token.
#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

#include "analysis/ir/types.h"
#include "codegen/interp/tile.h"

namespace tilesight::interp {

struct TensorViewValue {
  TypeRef type = nullptr;
  uint64_t base = 0;             // byte address of element 0
  Elem elem = Elem::None;
  std::vector<int64_t> shape;    // dynamic entries resolved
  std::vector<int64_t> strides;  // in elements
};

struct ViewValue {
  TypeRef type = nullptr;  // partition_view, strided_view or gather_scatter_view
  std::shared_ptr<const TensorViewValue> tensor;
};

// Tokens order memory operations. The plain interpreter runs ops in program
// order, so a token carries nothing else; under the sanitizer it carries the
// memory events of its tile block that it orders after (bit i: event i).
struct TokenValue {
  std::shared_ptr<const std::vector<uint64_t>> events;
  bool covers(uint32_t event) const {
    return events && event / 64 < events->size() && ((*events)[event / 64] >> (event % 64)) & 1;
  }
};

using RtValue = std::variant<std::monostate, TileRef, std::shared_ptr<const TensorViewValue>,
                             std::shared_ptr<const ViewValue>, TokenValue>;

}  // namespace tilesight::interp
