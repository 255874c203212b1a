#pragma once
// The gate between analysis and codegen: the interpreter and the GPU
// backends read only a VerifiedProgram, which exists only for a chunk that
// parsed and verified with no error, has no broken or unregistered op, and
// gives every value a type. Codegen can then take every op's operands, types
// and attributes as the op table describes them. It points into the
// Analysis it came from, which must outlive it.
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis.h"

namespace tilesight {

class VerifiedProgram {
public:
  const Program& program() const { return *program_; }

  // The program of `chunk` (one of `analysis`'s chunks), or the reasons it
  // cannot run, first ones first ("line 3: error: ...", "line 7: 'foo.bar'
  // is not a Tile IR op").
  struct Result;
  static Result of(const Analysis& analysis, const ChunkAnalysis& chunk);

private:
  explicit VerifiedProgram(const Program& p) : program_(&p) {}
  const Program* program_;
};

struct VerifiedProgram::Result {
  std::optional<VerifiedProgram> program;
  std::vector<std::string> reasons;  // empty when program is set
};

}  // namespace tilesight
