#include "analysis/checks/checks.h"

#include "analysis/checks/executions.h"
#include "analysis/checks/value_facts.h"
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
    if (code == off || (code.size() > off.size() && code.starts_with(off) && code[off.size()] == '.')) return false;
  return true;
}

void runChecks(const ParseResult& parsed, const CheckOptions& options, layout::WorkBudget& layoutBudget,
               DiagSink& diags) {
  bool any = options.enabled("bounds") || options.enabled("layout.overlap") || options.enabled("subbyte.align") ||
             options.enabled("race");
  if (!any) return;
  std::vector<OpId> anchors;
  for (OpId id = 0; id < parsed.program.ops.size(); ++id) {
    const OpInfo* info = parsed.program.op(id).info;
    if (info && ((info->traits & kMemory) || info->name == "entry" || info->name == "testing$func" ||
                 (info->category == "view" && info->name.starts_with("make_"))))
      anchors.push_back(id);
  }
  ValueFacts facts(parsed.program, options);
  Executions executions(parsed.program, facts);
  CheckContext cx{parsed.program, options, anchors, facts, executions, layoutBudget};
  if (options.enabled("bounds")) checkBounds(cx, diags);
  if (options.enabled("layout.overlap")) checkOverlap(cx, diags);
  if (options.enabled("subbyte.align")) checkSubbyte(cx, diags);
  if (options.enabled("race")) checkRaces(cx, diags);
}

}  // namespace tilesight
