#pragma once
// Shared by analyze() and reanalyze(): how a pass's diagnostics join an
// Analysis's `found` list.
#include <vector>

#include "analysis/analysis.h"

namespace tilesight {

// Appends the diagnostics of `d` whose codes are on, in source order (those at
// one offset in the order made, which is pass order), each with its origin.
void appendFound(std::vector<Diagnostic> d, const std::vector<DiagOrigin>& origins, const CheckOptions& checks,
                 std::vector<Diagnostic>& found, std::vector<DiagOrigin>& foundOrigins);

}  // namespace tilesight
