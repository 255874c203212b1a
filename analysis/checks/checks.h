#pragma once
// The dataflow checks of DESIGN §5 over one parsed and verified chunk:
// bounds.index and bounds.partial-tile (bounds.cpp), layout.overlap
// (overlap.cpp), subbyte.align (subbyte.cpp), race.unordered and race.scope
// (races.cpp), on the shared facts of value_facts.h and token_graph.h.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/diag/diagnostic.h"
#include "analysis/ir/ir.h"
#include "analysis/layout/layout.h"
#include "analysis/syntax/parser.h"

namespace tilesight {

class Executions;
class ValueFacts;

// The spec's limit on a launch grid: at most 2^24 - 1 tile blocks per axis.
constexpr int64_t kMaxGridAxis = (int64_t(1) << 24) - 1;

// Why `grid` cannot be a launch grid (an axis below 1 or above kMaxGridAxis),
// or empty when it can. Shared by `--grid` and the server's `tilesight.grid`.
std::string gridProblem(const std::array<int64_t, 3>& grid);

struct CheckOptions {
  // The launch grid (x, y, z) when known: `--grid`, `tilesight.grid`.
  std::optional<std::array<int64_t, 3>> grid;
  // Distinct entry pointer arguments may alias (`--assume-aliasing`).
  bool assumeAliasing = false;
  // The entry parameters (by position) whose memory may overlap each
  // other's: a launch's arrays that alias (a view of another argument).
  std::vector<size_t> aliasGroup;
  // Integer scalar arguments of the launch (`--arg NAME=VALUE`): NAME is an
  // argument's name without `%`, or its position. Dynamic shapes and loop
  // bounds that follow from them become known.
  std::vector<std::pair<std::string, int64_t>> args;
  // Codes, or prefixes before a '.', that are turned off ("race" turns off
  // race.unordered and race.scope).
  std::vector<std::string> disabled;
  // How a message names another place of the program (the op at a text
  // offset): unset, "line N" of the text; `check` on bytecode names the
  // Python line the debug info gives ("kernel.py:12:5").
  std::function<std::string(const Program& program, uint32_t offset)> placeName;
  // Where `grid` comes from when not from the command line: a launch's
  // file or directive ("vec_add.launch.json", "kernel.py:4"); empty: --grid.
  std::string gridFrom;
  // The same for `args`, when every one of them comes from a launch.
  std::string argsFrom;

  // `check --prove`: each entry's launch contract and, per view access,
  // whether it is proved in range (launch_proofs.cpp), as remarks.
  bool prove = false;

  bool enabled(std::string_view code) const;
};

// How messages name the grid (`grid` must be set): "--grid=4,1,1", or
// "grid 4,1,1 of kernel.py:4" when a launch gave it.
std::string gridText(const CheckOptions& options);

// What every check reads: the program, the options, and the value facts,
// shared by all checks.
struct CheckContext {
  const Program& program;
  const CheckOptions& options;
  const ValueFacts& facts;
  const Executions& executions;      // what a launch certainly runs (executions.h)
  layout::WorkBudget& layoutBudget;  // the analysis's, shared with the #layout claims
};

// The checks walk the program one unit at a time: a function, or an op
// outside every function (a global). A unit's facts are built right before
// the checks see it, so its IR and facts are still in cache when they do (a
// program of 50,000 ops does not fit in it; one function does). Units share
// nothing the checks report on: kernels are launched one at a time.
class CheckPass {
public:
  virtual ~CheckPass() = default;
  // Each anchor op of the unit, in program order: functions, ops that make
  // views and tensor_views, and memory ops.
  virtual void visit(OpId) {}
  // The unit, once its anchors are visited.
  virtual void endUnit(OpId) {}
};

// A unit and its nested ops: ids are given in pre-order, so a unit's ops are
// the ids [op, end).
struct CheckUnit {
  OpId op;
  OpId end;
};
// The top-level ops and the ops of each module's body, in program order.
std::vector<CheckUnit> checkUnits(const Program& program);

// Runs the enabled checks; their diagnostics go to `diags`. (A check file
// that covers two codes may still report a disabled one: analyze() drops
// every diagnostic whose code is off.)
// `units`: the units to check (default: every unit of the program, in
// order); `unitStarts`, when given, gets each unit's first op and how many
// diagnostics `diags` held before it (analysis.cpp attributes them).
void runChecks(const ParseResult& parsed, const CheckOptions& options, layout::WorkBudget& layoutBudget,
               DiagSink& diags, const std::vector<CheckUnit>* units = nullptr,
               std::vector<std::pair<OpId, size_t>>* unitStarts = nullptr);

// The `--arg`s (as NAME=VALUE) that set no integer scalar argument of any
// function of `program`: no argument has that name or position, or its type
// cannot hold the value.
std::vector<std::string> unusedArgs(const Program& program, const CheckOptions& options);

// One pass per check file.
std::unique_ptr<CheckPass> boundsCheck(const CheckContext& cx, DiagSink& diags);
std::unique_ptr<CheckPass> overlapCheck(const CheckContext& cx, DiagSink& diags);
std::unique_ptr<CheckPass> subbyteCheck(const CheckContext& cx, DiagSink& diags);
std::unique_ptr<CheckPass> raceCheck(const CheckContext& cx, DiagSink& diags);
std::unique_ptr<CheckPass> launchProofs(const CheckContext& cx, DiagSink& diags);

}  // namespace tilesight
