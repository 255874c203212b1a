// The soundness harness (codegen/soundness/fact_checker.h): the facts of a small
// program hold over its run, and a fact made wrong on purpose (an interval,
// a divisor, an affine form, a stride, a fact narrowed in an `if`) is a
// violation that names its op.
#include <functional>

#include <gtest/gtest.h>

#include "analysis/checks/value_facts.h"
#include "codegen/soundness/fact_checker.h"
#include "interp_test_util.h"

namespace tilesight::testing {
namespace {

// Block b stores 4 * b + n + [0, 1, 2, 3] to p[4b .. 4b + 3] at each of 3
// loop iterations; blocks 0 and 1 compute b + 1 in an `if`.
const std::string kProgram = kernel("%p: tile<ptr<i32>>, %n: tile<i32>", R"(
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %c4 = constant <i32: 4> : tile<i32>
    %c2 = constant <i32: 2> : tile<i32>
    %base = muli %bx, %c4 : tile<i32>
    %x = addi %base, %n : tile<i32>
    %i4 = iota : tile<4xi32>
    %x1 = reshape %x : tile<i32> -> tile<1xi32>
    %xb = broadcast %x1 : tile<1xi32> -> tile<4xi32>
    %v = addi %i4, %xb : tile<4xi32>
    %b1 = reshape %base : tile<i32> -> tile<1xi32>
    %bb = broadcast %b1 : tile<1xi32> -> tile<4xi32>
    %o = addi %i4, %bb : tile<4xi32>
    %p1 = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %p1 : tile<1xptr<i32>> -> tile<4xptr<i32>>
    %q = offset %pb, %o : tile<4xptr<i32>>, tile<4xi32> -> tile<4xptr<i32>>
    for %i in (%c0 to %c3, step %c1) : tile<i32> {
      %t = store_ptr_tko weak %q, %v : tile<4xptr<i32>>, tile<4xi32> -> token
    }
    %small = cmpi less_than %bx, %c2, signed : tile<i32> -> tile<i1>
    if %small {
      %m = addi %bx, %c1 : tile<i32>
    })");

struct Checked {
  interp::FactCounts counts;
  uint64_t violations = 0;
  std::string messages;
};

ValueId named(const Program& p, std::string_view name) {
  for (ValueId v = 0; v < p.values.size(); ++v)
    if (p.value(v).name == name) return v;
  ADD_FAILURE() << "no value " << name;
  return kNoId;
}

using Wrong = std::function<void(const Program&, interp::FactChecker&)>;

// Runs `program` over 4 blocks with `args`, after `wrong` changed the facts.
Checked runProgram(const std::string& program, const std::vector<std::string>& args, const Wrong& wrong = {}) {
  Checked out;
  Analysis a = analyze(program);
  VerifiedProgram::Result vp = VerifiedProgram::of(a, a.chunks.at(0));
  if (!vp.program) {
    ADD_FAILURE() << "not verified";
    return out;
  }
  const Program& p = vp.program->program();
  auto entry = runtime::selectEntry(p, "");
  if (!entry) return ADD_FAILURE() << llvm::toString(entry.takeError()), out;
  runtime::AddressSpace memory;
  auto bound = runtime::bindArguments(p, **entry, args, memory);
  if (!bound) return ADD_FAILURE() << llvm::toString(bound.takeError()), out;
  std::vector<interp::RtValue> values = interp::entryArguments(*bound);
  interp::LaunchOptions opts;
  opts.grid = {4, 1, 1};
  interp::FactChecker checker(p, interp::launchCheckOptions(p, **entry, opts.grid, values));
  if (wrong) wrong(p, checker);
  opts.observer = &checker;
  interp::RunOutcome r = interp::runEntry(*vp.program, **entry, values, memory, opts);
  EXPECT_TRUE(r.ok) << r.fault;
  out.counts = checker.counts();
  out.violations = checker.violationCount();
  for (const interp::FactViolation& v : checker.violations()) out.messages += v.message + "\n";
  return out;
}

// kProgram with n = 5, after `wrong` changed the facts.
Checked runChecked(const Wrong& wrong = {}) { return runProgram(kProgram, {"p=zeros:16:i32", "n=5"}, wrong); }

// The fact of `name`, changed in place: the harness must see what a check would read.
TileFact& factOf(const Program& p, interp::FactChecker& c, std::string_view name) {
  return const_cast<TileFact&>(*c.facts().tile(named(p, name)));
}

TEST(FactChecker, TheFactsOfARunHold) {
  Checked c = runChecked();
  EXPECT_EQ(c.violations, 0u) << c.messages;
  EXPECT_GT(c.counts.interval, 0u);
  EXPECT_GT(c.counts.divisor, 0u);
  EXPECT_GT(c.counts.affine, 0u);
  EXPECT_GT(c.counts.strides, 0u);
}

TEST(FactChecker, AWrongIntervalIsAViolationAtItsOp) {
  Checked c = runChecked([](const Program& p, interp::FactChecker& k) { factOf(p, k, "%x").base.range = {0, 7}; });
  // Blocks 1..3 give %x = 9, 13, 17.
  EXPECT_EQ(c.violations, 3u) << c.messages;
  EXPECT_NE(c.messages.find("'addi' at 11:5: %x = 9, outside the fact's interval [0, 7]"), std::string::npos)
      << c.messages;
}

TEST(FactChecker, AWrongDivisorIsAViolation) {
  Checked c = runChecked([](const Program& p, interp::FactChecker& k) { factOf(p, k, "%base").base.divisor = 8; });
  EXPECT_NE(c.messages.find("'muli' at 10:5: %base = 4, not a multiple of the fact's divisor 8"), std::string::npos)
      << c.messages;
}

TEST(FactChecker, AWrongAffineFormIsAViolation) {
  Checked c = runChecked([](const Program& p, interp::FactChecker& k) { factOf(p, k, "%x").base.affine->c0 += 1; });
  EXPECT_EQ(c.violations, 4u) << c.messages;
  EXPECT_NE(c.messages.find("'addi' at 11:5: %x = 5, but the fact's exact form 4*%bx + 6 is 6"), std::string::npos)
      << c.messages;
}

TEST(FactChecker, AWrongStrideIsAViolation) {
  Checked c = runChecked([](const Program& p, interp::FactChecker& k) { factOf(p, k, "%q").strides[0] = 2; });
  EXPECT_NE(c.messages.find("'offset' at 21:5: %q element 1 minus the one before it along dimension 0 is 1, not the "
                            "fact's stride 2"),
            std::string::npos)
      << c.messages;
}

TEST(FactChecker, APointerIsCheckedAsAnOffsetFromItsRoot) {
  Checked c = runChecked([](const Program& p, interp::FactChecker& k) { factOf(p, k, "%q").base.range = {0, 3}; });
  // Block b's elements are 4b .. 4b + 3 elements past %p; the interval, with
  // the stride, covers [0, 6].
  EXPECT_EQ(c.violations, 3u) << c.messages;
  EXPECT_NE(c.messages.find("'offset' at 21:5: %q = 7, outside the fact's interval [0, 6]"), std::string::npos)
      << c.messages;
}

TEST(FactChecker, ALoopVariableIsCheckedAtEveryIteration) {
  Checked c = runChecked([](const Program& p, interp::FactChecker& k) { factOf(p, k, "%i").base.range = {0, 1}; });
  EXPECT_EQ(c.violations, 4u) << c.messages;  // the third iteration of each block
  EXPECT_NE(c.messages.find("'for' at 22:5: %i = 2, outside the fact's interval [0, 1]"), std::string::npos)
      << c.messages;
}

// Inside `if %bx < 2`, %bx is in [0, 1] where the region uses it.
TEST(FactChecker, ANarrowedFactIsCheckedWhereTheRegionUsesIt) {
  Checked c = runChecked([](const Program& p, interp::FactChecker& k) {
    const Value& m = p.value(named(p, "%m"));
    const TileFact* seen = k.facts().tileAt(named(p, "%bx"), m.owner);
    ASSERT_NE(seen, k.facts().tile(named(p, "%bx")));
    const_cast<TileFact*>(seen)->base.range = {0, 0};
  });
  EXPECT_EQ(c.violations, 1u) << c.messages;
  EXPECT_NE(c.messages.find("'addi' at 27:7: %bx = 1, outside the fact's interval [0, 0] (as narrowed for this use)"),
            std::string::npos)
      << c.messages;
}

// An i1 takes a byte in memory (i1 is loaded per byte), so a pointer cast
// between i8 and i1 keeps its offset: 8 bytes past the root are 8 i1 elements,
// not 64. The facts once scaled it by the bit widths (a fact the run refutes).
TEST(FactChecker, APointerCastToI1CountsBytesNotBits) {
  const std::string program = kernel("%p: tile<ptr<i8>>", R"(
    %c8 = constant <i32: 8> : tile<i32>
    %q = offset %p, %c8 : tile<ptr<i8>>, tile<i32> -> tile<ptr<i8>>
    %b = ptr_to_ptr %q : tile<ptr<i8>> -> tile<ptr<i1>>
    %i = iota : tile<4xi32>
    %b1 = reshape %b : tile<ptr<i1>> -> tile<1xptr<i1>>
    %bb = broadcast %b1 : tile<1xptr<i1>> -> tile<4xptr<i1>>
    %g = offset %bb, %i : tile<4xptr<i1>>, tile<4xi32> -> tile<4xptr<i1>>
    %v, %t = load_ptr_tko weak %g : tile<4xptr<i1>> -> tile<4xi1>, token)");
  Checked c = runProgram(program, {"p=zeros:16:i8"});
  EXPECT_EQ(c.violations, 0u) << c.messages;
  EXPECT_GT(c.counts.interval, 0u);
}

}  // namespace
}  // namespace tilesight::testing
