#pragma once
// The dataflow checks of DESIGN §5 over one parsed and verified chunk:
// bounds.index and bounds.partial-tile (bounds.cpp), layout.overlap
// (overlap.cpp), subbyte.align (subbyte.cpp), race.unordered and race.scope
// (races.cpp), on the shared facts of value_facts.h and token_graph.h.
#include <array>
#include <cstdint>
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
  // Integer scalar arguments of the launch (`--arg NAME=VALUE`): NAME is an
  // argument's name without `%`, or its position. Dynamic shapes and loop
  // bounds that follow from them become known.
  std::vector<std::pair<std::string, int64_t>> args;
  // Codes, or prefixes before a '.', that are turned off ("race" turns off
  // race.unordered and race.scope).
  std::vector<std::string> disabled;

  bool enabled(std::string_view code) const;
};

// What every check reads: the program, the options, and the value facts,
// built once for all checks.
struct CheckContext {
  const Program& program;
  const CheckOptions& options;
  // The ops the checks start from, in program order: functions, ops that make
  // views and tensor_views, and memory ops (collected in one pass: a program
  // of 50,000 ops is walked once, not once per check).
  const std::vector<OpId>& anchors;
  const ValueFacts& facts;
  const Executions& executions;      // what a launch certainly runs (executions.h)
  layout::WorkBudget& layoutBudget;  // the analysis's, shared with the #layout claims
};

// Runs the enabled checks; their diagnostics go to `diags`. (A check file
// that covers two codes may still report a disabled one: analyze() drops
// every diagnostic whose code is off.)
void runChecks(const ParseResult& parsed, const CheckOptions& options, layout::WorkBudget& layoutBudget,
               DiagSink& diags);

// The `--arg`s (as NAME=VALUE) that set no integer scalar argument of any
// function of `program`: no argument has that name or position, or its type
// cannot hold the value.
std::vector<std::string> unusedArgs(const Program& program, const CheckOptions& options);

// One entry point per check file.
void checkBounds(const CheckContext& cx, DiagSink& diags);
void checkOverlap(const CheckContext& cx, DiagSink& diags);
void checkSubbyte(const CheckContext& cx, DiagSink& diags);
void checkRaces(const CheckContext& cx, DiagSink& diags);

}  // namespace tilesight
