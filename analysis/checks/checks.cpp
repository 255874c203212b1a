#include "analysis/checks/checks.h"

#include "analysis/checks/executions.h"
#include "analysis/ir/ir_query.h"
#include "analysis/checks/value_facts.h"
#include "analysis/diag/codes.h"
#include "analysis/ir/op_table.h"

namespace tilesight {

std::string gridProblem(const std::array<int64_t, 3>& grid) {
  static constexpr const char* kAxis[] = {"x", "y", "z"};
  for (size_t i = 0; i < 3; ++i) {
    if (grid[i] < 1) return std::string("the grid's ") + kAxis[i] + " axis must be at least 1, not " + std::to_string(grid[i]);
    if (grid[i] > kMaxGridAxis)
      return std::string("the grid's ") + kAxis[i] + " axis has " + std::to_string(grid[i]) +
             " tile blocks, over the spec's limit of 2^24 - 1 = " + std::to_string(kMaxGridAxis) + " per axis";
  }
  return {};
}

bool CheckOptions::enabled(std::string_view code) const {
  for (std::string_view off : disabled)
    if (codeMatches(code, off)) return false;
  return true;
}

namespace {

bool isModule(const Operation& op) {
  return op.info && (op.info->traits & kIsolated) && !(op.info->traits & kTopLevel);
}

bool isAnchor(const Operation& op) {
  const OpInfo* info = op.info;
  return info && ((info->traits & kMemory) || isFunction(op) ||
                  makesView(info->kind));
}

}  // namespace

std::vector<CheckUnit> checkUnits(const Program& p) {
  // Each unit ends where the next unit or module starts (a module owns no op of a unit).
  std::vector<CheckUnit> out;
  auto start = [&](OpId id, bool unit) {
    if (!out.empty() && out.back().end == kNoId) out.back().end = id;
    if (unit) out.push_back({id, kNoId});
  };
  for (OpId t : p.topLevel) {
    const Operation& op = p.op(t);
    start(t, !isModule(op));
    if (!isModule(op)) continue;
    for (const Region& r : op.regions)
      for (const Block& b : r.blocks)
        for (OpId id : b.ops) start(id, true);
  }
  start(static_cast<OpId>(p.ops.size()), false);
  return out;
}

std::string gridText(const CheckOptions& options) {
  const auto& g = *options.grid;
  std::string axes = std::to_string(g[0]) + "," + std::to_string(g[1]) + "," + std::to_string(g[2]);
  return options.gridFrom.empty() ? "--grid=" + axes : "grid " + axes + " of " + options.gridFrom;
}

void runChecks(const ParseResult& parsed, const CheckOptions& options, layout::WorkBudget& layoutBudget,
               DiagSink& diags, const std::vector<CheckUnit>* units, std::vector<std::pair<OpId, size_t>>* unitStarts) {
  const Program& p = parsed.program;
  ValueFacts facts(p, options);
  Executions executions(p, facts);
  CheckContext cx{p, options, facts, executions, layoutBudget};
  std::vector<std::unique_ptr<CheckPass>> passes;
  if (options.enabled("bounds")) passes.push_back(boundsCheck(cx, diags));
  if (options.enabled("layout.overlap")) passes.push_back(overlapCheck(cx, diags));
  if (options.enabled("subbyte.align")) passes.push_back(subbyteCheck(cx, diags));
  if (options.enabled("race")) passes.push_back(raceCheck(cx, diags));
  if (options.prove && options.enabled("prove")) passes.push_back(launchProofs(cx, diags));
  if (passes.empty()) return;
  std::vector<CheckUnit> all = units ? std::vector<CheckUnit>{} : checkUnits(p);
  for (CheckUnit u : units ? *units : all) {
    if (unitStarts) unitStarts->push_back({u.op, diags.all().size()});
    facts.build(u.op, u.end);
    for (OpId id = u.op; id < u.end; ++id)
      if (isAnchor(p.op(id)))
        for (auto& pass : passes) pass->visit(id);
    for (auto& pass : passes) pass->endUnit(u.op);
  }
}

}  // namespace tilesight
