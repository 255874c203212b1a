#include "analysis/bytecode/source_map.h"

namespace tilesight::bytecode {

const OpLocation* locationAt(const Decoded& d, const Program& parsed, uint32_t offset) {
  std::optional<size_t> i = opAt(parsed, offset);
  if (!i || *i >= d.locations.size() || !d.locations[*i].at.known()) return nullptr;
  return &d.locations[*i];
}

}  // namespace tilesight::bytecode
