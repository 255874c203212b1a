#pragma once
// Generates a valid tile program of about N ops, in the custom or the MLIR
// generic form, for the parser benchmarks. Deterministic.
#include <string>

namespace tilesight::bench {

enum class Form { Custom, Generic };
std::string generateProgram(int ops, Form form);

// About N ops of memory-heavy kernels (views, token-threaded loops, block ids,
// pointer tiles) in the custom form, clean under every check.
std::string generateKernels(int ops);

}  // namespace tilesight::bench
