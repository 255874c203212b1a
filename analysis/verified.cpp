#include "analysis/verified.h"

#include <algorithm>

#include "analysis/diag/codes.h"

namespace tilesight {

namespace {

// At most this many reasons are listed: the first errors say what to fix.
constexpr size_t kMaxReasons = 10;

std::string lineText(const Program& p, uint32_t offset) {
  std::string_view before = p.source.substr(0, std::min<size_t>(offset, p.source.size()));
  return "line " + std::to_string(std::count(before.begin(), before.end(), '\n') + 1);
}

}  // namespace

VerifiedProgram::Result VerifiedProgram::of(const Analysis& analysis, const ChunkAnalysis& chunk) {
  Result r;
  const Program& p = chunk.parsed.program;
  auto add = [&](std::string reason) {
    if (r.reasons.size() < kMaxReasons) r.reasons.push_back(std::move(reason));
  };
  for (const Diagnostic& d : analysis.diagnostics) {
    bool inChunk = d.range.begin >= chunk.chunk.begin && d.range.begin <= chunk.chunk.end;
    if (inChunk && isLanguageError(d))
      add(lineText(p, d.range.begin) + ": error: " + d.message);
  }
  for (const Operation& op : p.ops) {
    if (!op.info)
      add(lineText(p, op.range.begin) + ": '" + std::string(op.name) + "' is not a Tile IR op");
    else if (op.broken)
      add(lineText(p, op.range.begin) + ": '" + std::string(op.info->name) + "' has operands that did not resolve");
  }
  for (const Value& v : p.values)
    if (!v.type) add(lineText(p, v.range.begin) + ": " + std::string(v.name) + " has no type");
  if (r.reasons.empty()) r.program = VerifiedProgram(p);
  return r;
}

}  // namespace tilesight
