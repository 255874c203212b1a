#pragma once
// Generates a valid tile program of about N ops, in the custom or the MLIR
// generic form, for the parser benchmarks. Deterministic.
#include <string>

namespace tilesight::bench {

enum class Form { Custom, Generic };
// `entries` entries of about ops/entries ops each (isolated regions, the
// unit an editor's incremental analysis reuses).
std::string generateProgram(int ops, Form form, int entries = 1);

// About N ops of memory-heavy kernels (views, token-threaded loops, block ids,
// pointer tiles) in the custom form, clean under every check.
std::string generateKernels(int ops);

// N small entries (four ops each): per-region costs show up here.
std::string generateEntries(int entries);

// One entry with N type errors (a constant whose literal is not of its
// type, the verifier's most common finding), for the cost per diagnostic.
std::string generateErrors(int errors);

}  // namespace tilesight::bench
