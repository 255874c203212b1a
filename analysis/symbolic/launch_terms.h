#pragma once
// The integer values of one kernel entry as terms of linear integer
// arithmetic over its launch (issue 37): the grid, the block ids, the entry's
// scalar arguments and the induction variables of its loops are symbols; the
// ops between them become exact terms, with floor division and remainder by
// constants and wrapping at the value's width (Presburger arithmetic, which
// Z3 decides). What cannot be written so (a value loaded from memory, a
// product of two unknowns, a remainder by an unknown) becomes a fresh symbol
// in its type's range, marked inexact: it stands for every value it could
// take, so a proof over it holds, but a solution that rests on it is no
// witness.
//
// The meaning of each op is analysis/semantics' (int_ops, view_geometry);
// this file writes the same rules as terms, as the SIMT lowering prints them
// as C (tests/corpus/prove pins the questions they answer; a differential
// test of each op's term against semantics::evalIntOp is still to come).
#include <map>
#include <set>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <z3++.h>

#include "analysis/ir/ir.h"

namespace tilesight::symbolic {

// A term (Int sort for integers, Bool for i1) and whether it is exact.
struct Term {
  z3::expr e;
  bool exact = true;
};

// One symbol of the launch, for witnesses: its name in messages and term.
struct Symbol {
  enum Kind : uint8_t { Grid, BlockId, Argument, InductionVariable, Unknown };
  Kind kind;
  std::string name;  // "grid.x", "block.y", "%n", "%i"
  z3::expr e;
  ValueId value = kNoId;
};

class LaunchTerms {
public:
  LaunchTerms(z3::context& z, const Program& p, OpId entry);

  // The value of integer or i1 v when every element is the same (a scalar,
  // a splat, a broadcast of one); nullopt for any other value.
  std::optional<Term> value(ValueId v);
  // What holds wherever `op` runs: the conditions of the ifs around it, the
  // guards that return before it, the loop bounds of its induction variables.
  Term reaches(OpId op);
  // What the symbols of `query` satisfy, and those of these facts in turn:
  // type ranges, the grid's limits, block ids below the grid, induction
  // variables between their loop's bounds, the entry's `assume`s, tensor
  // sizes at least 0. Only the facts a query reaches are asserted, so that a
  // loop that never runs falsifies the questions about its body alone.
  z3::expr factsFor(const z3::expr& query) const;
  // That no integer op on the way to `query`'s symbols wraps around: a
  // solution that needs a wrap (b * 256 past 2^31 for a block id near the
  // grid's limit) is real but rarely what a finding should rest on.
  z3::expr noWrapFor(const z3::expr& query) const;

  z3::expr grid(size_t d) const { return symbols_[d].e; }
  z3::expr blockId(size_t d) const { return symbols_[3 + d].e; }
  // The term of entry argument v (an integer scalar), or nullopt.
  std::optional<z3::expr> argument(ValueId v);
  // The size of tensor dimension `dim` of the tensor_view under `view` (a
  // view or a tensor_view), at least 0; nullopt when it cannot be followed.
  std::optional<Term> tensorSize(ValueId view, size_t dim);

  const std::vector<Symbol>& symbols() const { return symbols_; }
  const Program& program() const { return p_; }
  z3::context& context() const { return z_; }

private:
  std::optional<Term> compute(ValueId v);
  std::optional<Term> result(const Operation& op, ValueId v);
  std::optional<Term> integerOp(const Operation& op, unsigned bits);
  std::optional<Term> blockArgument(const Value& val, ValueId v);
  Term fresh(ValueId v, unsigned bits, Symbol::Kind kind, bool exact);
  z3::expr wrap(const z3::expr& m, unsigned bits);
  std::set<unsigned> cone(const z3::expr& query, std::vector<z3::expr>* facts) const;
  z3::expr asUnsigned(const z3::expr& x, unsigned bits) const;
  void assumeFact(const Operation& op, const z3::expr& x);
  void addFact(const z3::expr& symbol, const z3::expr& fact);
  void addFactOnEach(const z3::expr& x, const z3::expr& fact);  // on each symbol of x
  void exitGuards(OpId op, z3::expr& cond, bool& exact);

  z3::context& z_;
  const Program& p_;
  OpId entry_;
  std::vector<Symbol> symbols_;
  std::map<unsigned, std::vector<z3::expr>> factsOf_;  // by the symbol's declaration id
  std::vector<z3::expr> noWrap_;                        // each wrapping op's result in range
  llvm::DenseMap<ValueId, std::optional<Term>> memo_;
  unsigned depth_ = 0;
};

// A model's launch, for a message: "grid 6,1,1, block 5,0,0, %n = 17, %i =
// 3": the grid, the block, and the arguments and induction variables that
// `query` involves.
std::string describeLaunch(const LaunchTerms& t, const z3::model& m, const z3::expr& query);

// The symbols (uninterpreted constants) of e, each once, added to `out`.
void constantsOf(const z3::expr& e, std::vector<z3::expr>& out, std::set<unsigned>& seen);

}  // namespace tilesight::symbolic
