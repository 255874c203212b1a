// `check --prove` (issue 37): for each entry, its launch contract and, for
// each access through a view, whether every index stays in its index space
// for every launch, for every launch that keeps the contract, for the launch
// given, or whether that is undecided. Remarks `prove.contract` (at the
// entry) and `prove.access` (at each access); nothing else is reported here.
//
// The questions are posed over symbolic/launch_terms.h's terms and decided
// by Z3 under a resource limit (deterministic; a limit reached is
// "undecided", never a finding).
//
// The contract. `x[bid]` stays in range only while the host launches no more
// blocks than x has tiles: that is the host's promise, not a bug. Each access
// that runs in every block (directly in the entry's body) and indexes a
// dimension by a block id plus a constant c >= 0 adds the clause
// grid + c <= extent of that dimension: the relation under which every block
// of the launch finds its tile.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <z3++.h>

#include "analysis/checks/checks.h"
#include "analysis/checks/value_facts.h"
#include "analysis/ir/ir_query.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/semantics/view_geometry.h"
#include "analysis/symbolic/launch_terms.h"

namespace tilesight {

namespace {

using symbolic::LaunchTerms;
using symbolic::Term;

// Work bounds (Z3's rlimit counts work, the same on every machine, so the
// answers are deterministic): per question, and the questions of one entry
// that may end at that limit before the rest are left undecided unasked.
// With these, the slowest file of the corpora with --prove takes 1.3 s
// (real/bugs/matmul_swizzle.tile, 4,000,000 units let it run past a minute);
// a bound only ever leaves a question undecided.
constexpr unsigned kQueryRlimit = 20000;
constexpr unsigned kUnknownsPerEntry = 8;

enum class Proof : uint8_t { Unreachable, EveryLaunch, Contract, ThisLaunch, Fails, Undecided };

const char* kAxes[] = {"x", "y", "z"};

struct Clause {
  z3::expr e;
  std::string text;
  OpId from;
};

// One dimension of an access's index: the index, the extent of its index
// space, and how each is known.
struct IndexQuestion {
  size_t dim;
  std::optional<Term> index;
  std::optional<Term> extent;
  std::string extentText;  // "cdiv(%n, 128)", "8"
  std::optional<Term> size;  // of the tensor dimension it walks
  std::string sizeText;      // "%n"
};

struct Outcome {
  Proof proof = Proof::Undecided;
  std::string detail;  // the witness or why undecided
};

std::string name(const Program& p, ValueId v) { return std::string(p.value(v).name); }

class LaunchProofs final : public CheckPass {
public:
  LaunchProofs(const CheckContext& cx, DiagSink& diags) : cx_(cx), p_(cx.program), diags_(diags) {}

  void visit(OpId id) override {
    const Operation& op = p_.op(id);
    if (is(op, OpKind::Entry)) entry_ = id;
    else if (op.info && !op.broken && isViewAccess(op.info->kind) && entry_ != kNoId) accesses_.push_back(id);
  }

  void endUnit(OpId unit) override {
    if (entry_ == unit && !p_.op(unit).broken) {
      try {
        prove(unit);
      } catch (const z3::exception& e) {  // never a crash: the entry is left undecided, and said so
        diags_.add(Severity::Remark, p_.op(unit).nameRange, "prove.contract",
                   std::string("nothing proved: the solver stopped with an error (") + e.msg() + ")");
      }
    }
    entry_ = kNoId;
    accesses_.clear();
    promisedPastGuard_.clear();
  }

private:
  const CheckContext& cx_;
  const Program& p_;
  DiagSink& diags_;
  OpId entry_ = kNoId;
  std::vector<OpId> accesses_;
  // Accesses indexed by a block id behind a guard on another array's size
  // (`if b * T >= x.shape[0]: return` before `out[b]`): in range when the
  // host gives `out` as many tiles as the guard lets blocks through.
  std::set<OpId> promisedPastGuard_;
  z3::solver* solver_ = nullptr;  // the entry's, while it is proved
  unsigned unknowns_ = 0;         // its questions that ended at the work limit

  void prove(OpId entry) {
    z3::context z;
    z3::solver solver(z, "QF_LIA");
    z3::params prm(z);
    prm.set("rlimit", kQueryRlimit);
    solver.set(prm);
    solver_ = &solver;
    unknowns_ = 0;
    LaunchTerms terms(z, p_, entry);
    std::vector<std::vector<IndexQuestion>> questions;
    for (OpId a : accesses_) questions.push_back(questionsOf(terms, a));
    std::vector<Clause> contract;
    for (size_t i = 0; i < accesses_.size(); ++i) contractClauses(terms, accesses_[i], questions[i], contract);
    contract = keepable(terms, std::move(contract));
    std::optional<z3::expr> launch = launchFacts(terms);
    // The launch given keeps the contract or breaks it: when it keeps it, its
    // questions keep what it leaves open (sizes it does not give) to the
    // contract too; when it breaks a clause, the launch alone is asked.
    std::vector<std::string> broken;
    if (launch) {
      for (const Clause& c : contract)
        if (check(*launch && c.e && terms.factsFor(*launch && c.e)) == z3::unsat) broken.push_back(c.text);
      if (broken.empty())
        for (const Clause& c : contract) *launch = *launch && c.e;
    }
    size_t counts[6] = {};
    for (size_t i = 0; i < accesses_.size(); ++i) {
      Outcome o = proveAccess(terms, accesses_[i], questions[i], contract, launch);
      ++counts[static_cast<size_t>(o.proof)];
      reportAccess(accesses_[i], o, contract.empty());
    }
    reportEntry(entry, contract, counts, launch.has_value(), broken);
  }

  std::vector<IndexQuestion> questionsOf(LaunchTerms& terms, OpId id) {
    const Operation& op = p_.op(id);
    std::vector<IndexQuestion> out;
    const Operand* view = operands::viewOperand(op);
    TypeRef vt = view ? p_.typeOf(view->value) : nullptr;
    llvm::ArrayRef<Operand> index = operands::index(op);
    if (!vt || !vt->isView() || index.size() != vt->shape.size()) return out;
    for (size_t d = 0; d < index.size(); ++d) {
      if (vt->kind == TypeKind::GatherScatterView && static_cast<int64_t>(d) == vt->sparseDim) continue;
      IndexQuestion q{d, terms.value(index[d].value), std::nullopt, "", std::nullopt, ""};
      size_t td = semantics::walkedDim(*vt, d);
      int64_t step = semantics::tileStep(*vt, d);
      std::optional<Term> size = terms.tensorSize(view->value, td);
      if (size && step > 0) {
        // semantics::indexExtent: ceildiv(size, step).
        z3::context& z = terms.context();
        q.extent = Term{z3::operator/(size->e + z.int_val(step - 1), z.int_val(step)), size->exact};
        int64_t staticSize = vt->tensorView ? vt->tensorView->shape[td] : kDynamic;
        ValueId sv = tensorDimValue(p_, view->value, td);
        q.size = size;
        q.sizeText = sv == kNoId ? "the size" : name(p_, sv);
        q.extentText = staticSize != kDynamic ? std::to_string(semantics::indexExtent(staticSize, step))
                       : step == 1            ? (sv == kNoId ? "the size" : name(p_, sv))
                                              : "cdiv(" + (sv == kNoId ? std::string("the size") : name(p_, sv)) +
                                         ", " + std::to_string(step) + ")";
      }
      out.push_back(std::move(q));
    }
    return out;
  }

  // What an index counts with: block id `axis`, or the induction variable
  // of `loop`, plus a constant (through assume, exti, reshape, broadcast,
  // and addi and subi of constants).
  struct Counted {
    size_t axis = 0;
    OpId loop = kNoId;
    int64_t plus = 0;
    ValueId argument = kNoId;  // an entry's scalar argument instead
  };
  std::optional<Counted> counted(ValueId v, int depth = 0) const {
    const Value& val = p_.value(v);
    if (val.blockArg && val.index == 0 && val.owner != kNoId && is(p_.op(val.owner), OpKind::For))
      return Counted{0, val.owner, 0};
    if (val.blockArg && val.owner == entry_) return Counted{0, kNoId, 0, v};
    const Operation* op = definingOp(p_, v);
    if (!op || depth > 16) return std::nullopt;
    switch (op->info->kind) {
      case OpKind::GetTileBlockId: return Counted{p_.value(v).index, kNoId, 0};
      case OpKind::Assume: case OpKind::Reshape: case OpKind::Broadcast: case OpKind::Exti:
        return op->operands.empty() ? std::nullopt : counted(op->operands[0].value, depth + 1);
      case OpKind::Addi: case OpKind::Subi: {
        if (op->operands.size() != 2) return std::nullopt;
        auto c = constantInts(p_, op->operands[1].value, 1);
        auto b = counted(op->operands[0].value, depth + 1);
        if (!c || c->size() != 1 || !b) return std::nullopt;
        b->plus += op->info->kind == OpKind::Addi ? (*c)[0] : -(*c)[0];
        return b;
      }
      default: return std::nullopt;
    }
  }

  static bool mentions(const z3::expr& e, const z3::expr& symbol) {
    std::vector<z3::expr> cs;
    std::set<unsigned> seen;
    symbolic::constantsOf(e, cs, seen);
    return std::any_of(cs.begin(), cs.end(), [&](const z3::expr& c) { return c.decl().id() == symbol.decl().id(); });
  }

  // Whether e involves only the grid and the entry's arguments.
  static bool launchLevel(const LaunchTerms& terms, const z3::expr& e) {
    std::vector<z3::expr> cs;
    std::set<unsigned> seen;
    symbolic::constantsOf(e, cs, seen);
    for (const z3::expr& c : cs)
      for (const symbolic::Symbol& sym : terms.symbols())
        if (sym.e.decl().id() == c.decl().id() && sym.kind != symbolic::Symbol::Grid &&
            sym.kind != symbolic::Symbol::Argument)
          return false;
    return true;
  }

  static bool sharesSymbol(const z3::expr& a, const z3::expr& b) {
    std::vector<z3::expr> cs;
    std::set<unsigned> seen;
    symbolic::constantsOf(b, cs, seen);
    return std::any_of(cs.begin(), cs.end(), [&](const z3::expr& c) { return mentions(a, c); });
  }

  // Whether `op` runs in every block, on every iteration of the loops
  // around it (only loops between it and the entry).
  bool runsInEveryBlock(OpId op) const {
    for (OpId q = p_.op(op).parent; q != entry_; q = p_.op(q).parent)
      if (q == kNoId || !(is(p_.op(q), OpKind::For) || is(p_.op(q), OpKind::Loop))) return false;
    return true;
  }

  void addClause(LaunchTerms& terms, std::vector<Clause>& out, const z3::expr& e, const std::string& text, OpId from) {
    if (std::any_of(out.begin(), out.end(), [&](const Clause& c) { return c.text == text; })) return;
    if (e.simplify().is_true()) return;  // a constant bound: nothing to promise
    // A promise is about the launch (grid, arguments), not about one block
    // or iteration: a loop bound `qb + 2` is the kernel's, checked, not promised.
    if (!launchLevel(terms, e)) return;
    out.push_back({e, text, from});
  }

  // A clause no launch can keep together with the others is a bug of the
  // access, not a promise of the host: it leaves the contract (the first
  // such, in program order), and its access is then reported for the
  // launches that keep the rest. One question when they all agree.
  std::vector<Clause> keepable(LaunchTerms& terms, std::vector<Clause> all) {
    auto conj = [&](const std::vector<Clause>& cs) {
      z3::expr e = terms.context().bool_val(true);
      for (const Clause& c : cs) e = e && c.e;
      return e && terms.factsFor(e);
    };
    if (check(conj(all)) != z3::unsat) return all;
    std::vector<Clause> out;
    for (Clause& c : all) {
      out.push_back(c);
      if (check(conj(out)) == z3::unsat) out.pop_back();
    }
    return out;
  }

  void contractClauses(LaunchTerms& terms, OpId id, const std::vector<IndexQuestion>& qs, std::vector<Clause>& out) {
    // The arrays it indexes are not empty: an empty one has no tile to index.
    for (const IndexQuestion& q : qs)
      if (q.size && !q.size->e.is_numeral()) addClause(terms, out, q.size->e >= 1, q.sizeText + " >= 1", id);
    bool everyBlock = runsInEveryBlock(id);
    z3::context& z = terms.context();
    llvm::ArrayRef<Operand> index = operands::index(p_.op(id));
    for (const IndexQuestion& q : qs) {
      auto b = counted(index[q.dim].value);
      // Only `x[bid]` and `x[i]` state the host's promise: an index ahead of
      // its block or iteration (`x[bid + 1]`) is more often the bug than a
      // promise of a larger array, so it is checked against the others' clauses.
      if (!b || b->plus != 0 || !q.extent) continue;
      std::string plus = b->plus ? " + " + std::to_string(b->plus) : "";
      if (b->argument != kNoId) {  // an index the host passes: the host's to keep in range
        addClause(terms, out, q.index->e >= 0 && q.index->e < q.extent->e,
                  "0 <= " + name(p_, b->argument) + " < " + q.extentText, id);
        continue;
      }
      if (b->loop == kNoId) {  // every block finds its tile: grid + c <= extent
        if (b->axis > 2) continue;
        Term reach = terms.reaches(id);
        if (!mentions(reach.e, terms.blockId(b->axis))) {
          addClause(terms, out, terms.grid(b->axis) + z.int_val(b->plus) <= q.extent->e,
                    std::string("grid.") + kAxes[b->axis] + plus + " <= " + q.extentText, id);
          continue;
        }
        // Behind a guard that asks the block id: a guard that asks this
        // array's own size is the kernel's bounds logic, checked, not
        // promised. Else (`if b * T >= n: return` before `out[b]`) every
        // block that passes the guard finds its tile of this array.
        // The promise would need a quantifier over the blocks (slow to decide):
        // such an access is said undecided rather than out of range.
        if (reach.exact && q.size && !sharesSymbol(reach.e, q.size->e)) promisedPastGuard_.insert(id);
        continue;
      }
      // Every iteration finds its tile: the upper bound + c <= extent, when the loop runs.
      if (!everyBlock) continue;
      ForOp loop(p_.op(b->loop));
      std::optional<Term> lb = terms.value(loop.lowerBound()), ub = terms.value(loop.upperBound());
      if (!lb || !ub || !lb->exact || !ub->exact || loop.unsignedCmp()) continue;
      // A loop up to its block id and no further (`range(bid + 1)`, a causal
      // mask) reaches what `x[bid]` does: every block finds its tile when
      // the grid has no more blocks than x has tiles.
      auto upTo = counted(loop.upperBound());
      if (upTo && upTo->loop == kNoId && upTo->argument == kNoId && upTo->plus == 1 && b->plus == 0 && upTo->axis < 3) {
        addClause(terms, out, terms.grid(upTo->axis) <= q.extent->e,
                  std::string("grid.") + kAxes[upTo->axis] + " <= " + q.extentText, id);
        continue;
      }
      // A bound computed from the array's own size (`(n + 256) / 256` over
      // n's tiles) is the kernel's arithmetic, checked, not promised; one
      // from another argument (a scalar K, another array's shape) is the
      // host's promise that the two agree.
      if (sharesSymbol(ub->e, q.extent->e)) continue;
      // The loop runs in no block when it is empty for its lowest start (a
      // grid-stride loop starts at the block id, 0 in block 0).
      bool perBlockStart = !launchLevel(terms, lb->e);
      addClause(terms, out,
                (perBlockStart ? ub->e <= 0 : lb->e >= ub->e) || ub->e + z.int_val(b->plus) <= q.extent->e,
                name(p_, loop.upperBound()) + plus + " <= " + q.extentText, id);
    }
  }

  // The launch given (--grid, --arg, a launch file) as equalities.
  std::optional<z3::expr> launchFacts(LaunchTerms& terms) {
    if (!cx_.options.grid) return std::nullopt;
    z3::context& z = terms.context();
    z3::expr e = z.bool_val(true);
    for (size_t d = 0; d < 3; ++d) e = e && terms.grid(d) == z.int_val((*cx_.options.grid)[d]);
    const Operation& fn = p_.op(entry_);
    if (!fn.regions.empty() && !fn.regions[0].blocks.empty())
      for (ValueId a : fn.regions[0].blocks[0].args) {
        const ScalarFact* s = cx_.facts.scalar(a);
        auto arg = s && s->basis.kind == Evidence::Launch ? terms.argument(a) : std::nullopt;
        if (arg && s->exact()) e = e && *arg == z.int_val(*s->exact());
      }
    return e;
  }

  // One question to the entry's solver (each in a scope of its own).
  z3::check_result check(const z3::expr& f, std::optional<z3::model>* model = nullptr) {
    if (unknowns_ >= kUnknownsPerEntry) return z3::unknown;
    z3::solver& s = *solver_;
    s.push();
    s.add(f);
    z3::check_result r = s.check();
    unknowns_ += r == z3::unknown;
    if (r == z3::sat && model) model->emplace(s.get_model());
    s.pop();
    return r;
  }

  Outcome proveAccess(LaunchTerms& terms, OpId id, const std::vector<IndexQuestion>& qs,
                      const std::vector<Clause>& contract, const std::optional<z3::expr>& launch) {
    z3::context& z = terms.context();
    if (qs.empty()) return {Proof::Undecided, "its view's index space is not known"};
    Term reach = terms.reaches(id);
    z3::expr out = z.bool_val(false);
    bool exact = reach.exact;
    for (const IndexQuestion& q : qs) {
      if (!q.index) return {Proof::Undecided, "index " + std::to_string(q.dim) + " is not an integer the prover follows"};
      if (!q.extent) return {Proof::Undecided, "the size of dimension " + std::to_string(q.dim) + " is not known"};
      out = out || q.index->e < 0 || q.index->e >= q.extent->e;
      exact = exact && q.index->exact && q.extent->exact;
    }
    z3::expr question = reach.e && out;
    z3::expr base = terms.factsFor(question) && reach.e;
    std::optional<z3::model> m;
    if (launch) {  // the launch given decides first: exact for it
      z3::check_result given = check(base && *launch && terms.factsFor(*launch) && out, &m);
      if (given == z3::sat && exact) return {Proof::Fails, "this launch: " + witness(terms, *m, qs, question)};
      m.reset();
    }
    z3::check_result every = check(base && out);
    if (every == z3::unsat)
      return {check(base && terms.factsFor(reach.e)) == z3::unsat ? Proof::Unreachable : Proof::EveryLaunch, ""};
    z3::expr keeps = z.bool_val(true);
    for (const Clause& c : contract) keeps = keeps && c.e;
    z3::check_result kept = check(base && keeps && terms.factsFor(keeps) && out, &m);
    if (kept == z3::unsat) return {Proof::Contract, ""};
    if (launch) {
      z3::check_result given = check(base && *launch && terms.factsFor(*launch) && out);
      if (given == z3::unsat) return {Proof::ThisLaunch, ""};
    }
    if (kept == z3::unknown || every == z3::unknown)
      return {Proof::Undecided, unknowns_ >= kUnknownsPerEntry ? "the prover's work bound for this entry was reached"
                                                               : "the prover's work limit was reached"};
    if (!exact) return {Proof::Undecided, "the index depends on values the prover does not know (loaded from memory, "
                                          "carried by a loop, or a product of unknowns)"};
    if (promisedPastGuard_.count(id))
      return {Proof::Undecided, "in range when the array has a tile for every block the guard before it lets "
                                "through (the host's promise, not asked)"};
    z3::expr noWrap = terms.noWrapFor(question);
    if (check(base && keeps && terms.factsFor(keeps) && out && noWrap, &m) != z3::sat)
      return {Proof::Undecided, "out of range only for launches where an integer wraps around (" + witness(terms, *m, qs, question) + ")"};
    return {Proof::Fails, witness(terms, *m, qs, question)};
  }

  std::string witness(LaunchTerms& terms, const z3::model& m, const std::vector<IndexQuestion>& qs,
                      const z3::expr& question) {
    for (const IndexQuestion& q : qs) {
      z3::expr i = m.eval(q.index->e, true), n = m.eval(q.extent->e, true);
      int64_t iv = 0, nv = 0;
      if (!i.is_numeral_i64(iv) || !n.is_numeral_i64(nv) || (iv >= 0 && iv < nv)) continue;
      return "index " + std::to_string(iv) + " of dimension " + std::to_string(q.dim) + " (valid: " +
             (nv > 0 ? "0.." + std::to_string(nv - 1) : "none") + ") with " + describeLaunch(terms, m, question);
    }
    return describeLaunch(terms, m, question);
  }

  void reportAccess(OpId id, const Outcome& o, bool noContract) {
    const Operation& op = p_.op(id);
    std::string what = std::string(nameOf(op));
    std::string msg;
    switch (o.proof) {
      case Proof::Unreachable: msg = what + " never runs: the conditions on its way contradict each other"; break;
      case Proof::EveryLaunch: msg = what + " in range for every launch"; break;
      case Proof::Contract: msg = what + " in range for every launch that keeps the contract"; break;
      case Proof::ThisLaunch: msg = what + " in range for this launch; for others undecided"; break;
      case Proof::Fails:
        msg = what + " out of range for " +
              (o.detail.rfind("this launch", 0) == 0
                   ? o.detail
                   : std::string("a launch that keeps ") + (noContract ? "the (empty) contract" : "the contract") +
                         ": " + o.detail);
        break;
      case Proof::Undecided: msg = what + " undecided: " + o.detail; break;
    }
    diags_.add(Severity::Remark, op.nameRange, "prove.access", msg);
  }

  void reportEntry(OpId entry, const std::vector<Clause>& contract, const size_t* counts, bool launch,
                   const std::vector<std::string>& broken) {
    const Operation& fn = p_.op(entry);
    std::string c;
    for (const Clause& k : contract)
      c += (c.empty() ? "" : " and ") + k.text + " (from the " + std::string(nameOf(p_.op(k.from))) + " at " +
           cx_.facts.place(p_.op(k.from).range.begin) + ")";
    size_t total = 0;
    for (int i = 0; i < 6; ++i) total += counts[i];
    auto n = [&](Proof p) { return std::to_string(counts[static_cast<size_t>(p)]); };
    std::string msg = (contract.empty() ? "launch contract: none" : "launch contract: " + c) + "; of " +
                      std::to_string(total) + " view accesses, " + n(Proof::EveryLaunch) +
                      " in range for every launch, " + n(Proof::Contract) + " for every launch that keeps the contract, " +
                      (launch ? n(Proof::ThisLaunch) + " for this launch only, " : "") + n(Proof::Fails) +
                      " out of range for some launch that keeps it, " + n(Proof::Undecided) + " undecided" +
                      (counts[0] ? ", " + n(Proof::Unreachable) + " never run" : "");
    for (size_t i = 0; i < broken.size(); ++i)
      msg += (i ? ", " : "; the launch given breaks the contract: ") + broken[i];
    diags_.add(Severity::Remark, fn.nameRange, "prove.contract", msg);
  }
};

}  // namespace

std::unique_ptr<CheckPass> launchProofs(const CheckContext& cx, DiagSink& diags) {
  return std::make_unique<LaunchProofs>(cx, diags);
}

}  // namespace tilesight
