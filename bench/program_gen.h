#pragma once
// Generates a valid tile program of about N ops, in the custom or the MLIR
// generic form, for the parser benchmarks. Deterministic.
#include <string>

namespace tilesight::bench {

enum class Form { Custom, Generic };
std::string generateProgram(int ops, Form form);

}  // namespace tilesight::bench
