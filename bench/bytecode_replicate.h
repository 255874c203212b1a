#pragma once
// A bytecode file made N times larger: its function records repeated inside
// its function section (the same tables and debug info serve every copy).
// What the bytecode benchmark decodes, and the decoding cost test.
#include <string>

namespace tilesight::bench {

std::string replicateFunctions(const std::string& file, unsigned copies);

}  // namespace tilesight::bench
