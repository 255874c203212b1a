#pragma once
// MLIR's --verify-diagnostics convention: `// expected-error @below {{text}}`
// comments name the diagnostics a file must produce, line by line.
#include <string>
#include <vector>

#include "analysis/diag/diagnostic.h"
#include "analysis/source/source_text.h"

namespace tilesight {

struct Expectation {
  Severity severity = Severity::Error;
  uint32_t line = 0;      // 0-based line the diagnostic must be on
  bool unknownLocation = false;
  std::string substring;  // must occur in the message
  Range comment;          // where the designation is written
};

// Reads every designation; malformed ones are reported in `problems`.
std::vector<Expectation> parseExpectations(const SourceText& src, std::vector<Diagnostic>& problems);

struct ExpectationReport {
  std::vector<Expectation> missing;      // expected but not produced
  std::vector<Diagnostic> unexpected;    // produced but not expected (notes included)
  bool ok() const { return missing.empty() && unexpected.empty(); }
};

ExpectationReport matchExpectations(const SourceText& src, const std::vector<Expectation>& expected,
                                    const std::vector<Diagnostic>& produced);

}  // namespace tilesight
