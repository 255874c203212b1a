// Value facts: each transfer function with exact intervals, evidence, strides
// and pointer roots; loops, the grid, assume, overflow and branch refinement.
#include <gtest/gtest.h>

#include <memory>

#include "analysis/checks/checks.h"
#include "analysis/checks/value_facts.h"
#include "test_util.h"

using namespace tilesight;
using namespace tilesight::testing;

namespace {

class Facts : public ::testing::Test {
protected:
  CheckOptions options;
  std::string text;  // the analysis points into it
  Analysis analysis;
  std::unique_ptr<ValueFacts> facts;

  void load(const std::string& args, const std::string& body) {
    text = kernel(args, body);
    analysis = analyze(text);
    ASSERT_EQ(analysis.errorCount(), 0u) << messages(analysis).front();
    buildFacts();
  }
  const Program& program() const { return analysis.chunks.at(0).parsed.program; }
  void buildFacts() {
    facts = std::make_unique<ValueFacts>(program(), options);
    for (CheckUnit u : checkUnits(program())) facts->build(u.op, u.end);
  }
  ValueId id(std::string_view name) const {
    for (ValueId v = 0; v < program().values.size(); ++v)
      if (program().value(v).name == name) return v;
    ADD_FAILURE() << "no value " << name;
    return kNoId;
  }
  const ScalarFact& s(std::string_view name) const {
    const ScalarFact* f = facts->scalar(id(name));
    EXPECT_NE(f, nullptr) << name;
    static const ScalarFact none;
    return f ? *f : none;
  }
  const TileFact& t(std::string_view name) const {
    const TileFact* f = facts->tile(id(name));
    EXPECT_NE(f, nullptr) << name;
    static const TileFact none;
    return f ? *f : none;
  }
  std::string range(std::string_view name) const { return ValueFacts::rangeText(s(name)); }
  // The op that defines a value.
  OpId owner(std::string_view name) const { return program().value(id(name)).owner; }
};

using Strides = std::vector<std::optional<int64_t>>;
Strides strides(const TileFact& f) { return Strides(f.strides.begin(), f.strides.end()); }

const std::string kI32 = " : tile<i32>";

std::string bounded(const std::string& name, const std::string& src, int64_t lo, int64_t hi,
                    const std::string& type = "tile<i32>") {
  return "    " + name + " = assume bounded<" + std::to_string(lo) + ", " + std::to_string(hi) + ">, " + src + " : " +
         type + "\n";
}

}  // namespace

TEST_F(Facts, ConstantIsExactWithItsOp) {
  load("", "    %c = constant <i32: 4> : tile<i32>\n    %h = constant <i8: 0xFF> : tile<i8>");
  const ScalarFact& c = s("%c");
  EXPECT_EQ(c.exact(), 4);
  EXPECT_EQ(c.evidence, Evidence::Constant);
  EXPECT_EQ(c.basis.op, owner("%c"));
  EXPECT_EQ(c.divisor, 4);
  ASSERT_TRUE(c.affine);
  EXPECT_TRUE(c.affine->isConstant());
  EXPECT_EQ(c.affine->c0, 4);
  EXPECT_EQ(s("%h").exact(), -1);  // the bit pattern 0xFF as a signed i8
  EXPECT_EQ(facts->describe(id("%c")), "%c is the constant 4");
}

TEST_F(Facts, UnknownArgumentIsTheTypeRangeAndASymbol) {
  load("%n: tile<i16>", "");
  const ScalarFact& n = s("%n");
  EXPECT_FALSE(n.known());
  EXPECT_EQ(n.range, (Interval{-32768, 32767}));
  EXPECT_EQ(n.evidence, Evidence::None);
  ASSERT_TRUE(n.affine);
  ASSERT_EQ(n.affine->terms.size(), 1u);
  EXPECT_EQ(n.affine->terms[0].first, id("%n"));
  EXPECT_EQ(facts->describe(id("%n")), "");
  EXPECT_EQ(range("%n"), "[?, ?]");
}

TEST_F(Facts, AssumeBoundedNarrowsWithItsText) {
  load("%n: tile<i32>", bounded("%a", "%n", 0, 7) + "    %h = assume bounded<2, ?>, %n : tile<i32>");
  const ScalarFact& a = s("%a");
  EXPECT_EQ(a.range, (Interval{0, 7}));
  EXPECT_TRUE(a.loKnown && a.hiKnown);
  EXPECT_EQ(a.evidence, Evidence::Assume);
  EXPECT_EQ(a.basis.op, owner("%a"));
  EXPECT_EQ(facts->describe(id("%a")), "%a ranges over [0, 7] from assume bounded<0, 7> at line 3");
  EXPECT_EQ(range("%h"), "[2, ?]");
  EXPECT_EQ(s("%h").range.hi, INT32_MAX);
}

TEST_F(Facts, AssumeDivByRoundsTheEnds) {
  load("%n: tile<i32>", bounded("%a", "%n", 1, 100) + "    %d = assume div_by<16>, %a : tile<i32>");
  EXPECT_EQ(s("%d").range, (Interval{16, 96}));
  EXPECT_EQ(s("%d").divisor, 16);
}

TEST_F(Facts, AddSubMulOfBoundedValues) {
  load("%n: tile<i32>, %m: tile<i32>",
       bounded("%a", "%n", 0, 7) + bounded("%b", "%m", -2, 3) +
           "    %add = addi %a, %b : tile<i32>\n"
           "    %sub = subi %a, %b : tile<i32>\n"
           "    %mul = muli %a, %b : tile<i32>\n"
           "    %c4 = constant <i32: 4> : tile<i32>\n"
           "    %m4 = muli %a, %c4 : tile<i32>\n"
           "    %neg = subi %c4, %a : tile<i32>");
  EXPECT_EQ(s("%add").range, (Interval{-2, 10}));
  EXPECT_EQ(s("%add").evidence, Evidence::Derived);
  EXPECT_EQ(s("%add").basis.kind, Evidence::Assume);
  EXPECT_EQ(s("%sub").range, (Interval{-3, 9}));
  EXPECT_EQ(s("%mul").range, (Interval{-14, 21}));
  EXPECT_EQ(s("%m4").range, (Interval{0, 28}));
  EXPECT_EQ(s("%m4").divisor, 4);
  EXPECT_EQ(s("%neg").range, (Interval{-3, 4}));
  EXPECT_EQ(facts->describe(id("%m4")),
            "%m4 ranges over [0, 28], derived from %a, which ranges over [0, 7] from assume bounded<0, 7> at line 3");
}

TEST_F(Facts, DivRemShiftMaxMinAnd) {
  load("%n: tile<i32>",
       bounded("%a", "%n", -9, 17) +
           "    %c4 = constant <i32: 4> : tile<i32>\n"
           "    %c2 = constant <i32: 2> : tile<i32>\n"
           "    %c7 = constant <i32: 7> : tile<i32>\n"
           "    %div = divi %a, %c4 signed : tile<i32>\n"
           "    %floor = divi %a, %c4 signed rounding<negative_inf> : tile<i32>\n"
           "    %rem = remi %a, %c4 signed : tile<i32>\n"
           "    %shl = shli %a, %c2 : tile<i32>\n"
           "    %shr = shri %a, %c2 signed : tile<i32>\n"
           "    %max = maxi %a, %c2 signed : tile<i32>\n"
           "    %min = mini %a, %c2 signed : tile<i32>\n"
           "    %and = andi %n, %c7 : tile<i32>\n"
           "    %udiv = divi %a, %c4 unsigned : tile<i32>");
  EXPECT_EQ(s("%div").range, (Interval{-2, 4}));
  EXPECT_EQ(s("%floor").range, (Interval{-3, 4}));
  EXPECT_EQ(s("%rem").range, (Interval{-3, 3}));
  EXPECT_EQ(s("%shl").range, (Interval{-36, 68}));
  EXPECT_EQ(s("%shr").range, (Interval{-3, 4}));
  EXPECT_EQ(s("%max").range, (Interval{2, 17}));
  EXPECT_EQ(s("%min").range, (Interval{-9, 2}));
  EXPECT_EQ(s("%and").range, (Interval{0, 7}));
  EXPECT_TRUE(s("%and").loKnown && s("%and").hiKnown);
  // Unsigned division of a possibly negative value: nothing is known.
  EXPECT_FALSE(s("%udiv").known());
  EXPECT_EQ(s("%udiv").range, (Interval{INT32_MIN, INT32_MAX}));
}

TEST_F(Facts, OverflowBecomesUnknownUnlessUndefined) {
  load("%n: tile<i8>",
       bounded("%a", "%n", 100, 120, "tile<i8>") +
           "    %c10 = constant <i8: 10> : tile<i8>\n"
           "    %wrap = addi %a, %c10 : tile<i8>\n"
           "    %nsw = addi %a, %c10 overflow<no_signed_wrap> : tile<i8>\n"
           "    %ok = subi %a, %c10 : tile<i8>");
  EXPECT_FALSE(s("%wrap").known());
  EXPECT_EQ(s("%wrap").range, (Interval{-128, 127}));
  ASSERT_TRUE(s("%wrap").affine);
  EXPECT_FALSE(s("%wrap").affine->exact);  // still true modulo 2^8
  EXPECT_EQ(s("%nsw").range, (Interval{110, 127}));
  EXPECT_TRUE(s("%nsw").loKnown);
  EXPECT_FALSE(s("%nsw").hiKnown);
  EXPECT_EQ(s("%ok").range, (Interval{90, 110}));
}

TEST_F(Facts, ExtendAndTruncate) {
  load("%n: tile<i32>",
       bounded("%a", "%n", -5, 300) +
           "    %s = exti %a signed : tile<i32> -> tile<i64>\n"
           "    %u = exti %a unsigned : tile<i32> -> tile<i64>\n"
           "    %t = trunci %a : tile<i32> -> tile<i16>\n"
           "    %t8 = trunci %a : tile<i32> -> tile<i8>");
  EXPECT_EQ(s("%s").range, (Interval{-5, 300}));
  EXPECT_EQ(s("%s").bits, 64u);
  EXPECT_EQ(s("%u").range, (Interval{0, 4294967295}));
  EXPECT_FALSE(s("%u").known());
  EXPECT_EQ(s("%t").range, (Interval{-5, 300}));
  EXPECT_EQ(s("%t8").range, (Interval{-128, 127}));
  EXPECT_FALSE(s("%t8").known());
}

TEST_F(Facts, ForInductionVariableStopsBeforeTheUpperBound) {
  load("",
       "    %c0 = constant <i32: 0> : tile<i32>\n"
       "    %c4 = constant <i32: 4> : tile<i32>\n"
       "    %c10 = constant <i32: 10> : tile<i32>\n"
       "    %r, %q = for %i in (%c0 to %c10, step %c4) : tile<i32>\n"
       "        iter_values(%same = %c4, %acc = %c0) -> (tile<i32>, tile<i32>) {\n"
       "      %j = addi %i, %same : tile<i32>\n"
       "      continue %same, %j : tile<i32>, tile<i32>\n"
       "    }");
  const ScalarFact& i = s("%i");
  EXPECT_EQ(i.range, (Interval{0, 8}));
  EXPECT_EQ(i.evidence, Evidence::Loop);
  EXPECT_EQ(i.basis.op, owner("%r"));
  EXPECT_EQ(i.divisor, 4);
  EXPECT_EQ(facts->describe(id("%i")), "%i ranges over [0, 8] from the loop at line 6");
  // %same is passed on unchanged: it keeps the constant 4; %acc is loop-carried.
  EXPECT_EQ(s("%same").exact(), 4);
  EXPECT_FALSE(s("%acc").known());
  EXPECT_EQ(s("%j").range, (Interval{4, 12}));
  // Results: the initial value or what a continue passes.
  EXPECT_EQ(s("%r").exact(), 4);
  EXPECT_EQ(s("%q").range, (Interval{0, 12}));
}

TEST_F(Facts, ForWithUnknownBoundsKnowsOneEnd) {
  load("%n: tile<i32>",
       "    %c1 = constant <i32: 1> : tile<i32>\n"
       "    for %i in (%c1 to %n, step %c1) : tile<i32> {\n"
       "      continue\n"
       "    }");
  EXPECT_EQ(range("%i"), "[1, ?]");
  EXPECT_EQ(s("%i").range, (Interval{1, INT32_MAX - 1}));
}

TEST_F(Facts, LoopIterValuesAreUnknownAndResultsJoinBreaks) {
  load("",
       "    %c0 = constant <i32: 0> : tile<i32>\n"
       "    %c5 = constant <i32: 5> : tile<i32>\n"
       "    %r = loop iter_values(%x = %c0) : tile<i32> -> tile<i32> {\n"
       "      %b = cmpi equal %x, %c5, signed : tile<i32> -> tile<i1>\n"
       "      if %b {\n"
       "        break %c5 : tile<i32>\n"
       "      }\n"
       "      %y = addi %x, %c5 : tile<i32>\n"
       "      continue %y : tile<i32>\n"
       "    }");
  EXPECT_FALSE(s("%x").known());
  EXPECT_EQ(s("%r").exact(), 5);
}

TEST_F(Facts, IfResultsJoinBothYieldsAndBranchesRefine) {
  load("%n: tile<i32>, %c: tile<i1>",
       bounded("%a", "%n", 0, 20) +
           "    %c1 = constant <i32: 1> : tile<i32>\n"
           "    %c9 = constant <i32: 9> : tile<i32>\n"
           "    %r = if %c -> (tile<i32>) {\n"
           "      yield %c1 : tile<i32>\n"
           "    } else {\n"
           "      yield %c9 : tile<i32>\n"
           "    }\n"
           "    %lt = cmpi less_than %a, %c9, signed : tile<i32> -> tile<i1>\n"
           "    if %lt {\n"
           "      %in = addi %a, %c1 : tile<i32>\n"
           "    } else {\n"
           "      %out = addi %a, %c1 : tile<i32>\n"
           "    }\n"
           "    %after = addi %a, %c1 : tile<i32>");
  EXPECT_EQ(s("%r").range, (Interval{1, 9}));
  EXPECT_EQ(s("%in").range, (Interval{1, 9}));
  EXPECT_EQ(s("%out").range, (Interval{10, 21}));
  EXPECT_EQ(s("%after").range, (Interval{1, 21}));  // the refinement ends with the branch
  // Ops inside each branch see %a narrowed; the plain fact is the whole range.
  EXPECT_EQ(facts->scalarAt(id("%a"), owner("%in"))->range, (Interval{0, 8}));
  EXPECT_EQ(facts->scalarAt(id("%a"), owner("%out"))->range, (Interval{9, 20}));
  EXPECT_EQ(facts->scalarAt(id("%a"), owner("%after"))->range, (Interval{0, 20}));
  EXPECT_EQ(s("%a").range, (Interval{0, 20}));
  EXPECT_EQ(facts->describe(id("%a"), owner("%in")),
            "%a ranges over [0, 8] from assume bounded<0, 20> at line 3, narrowed by the comparison at line 11");
}

TEST_F(Facts, GridGivesBlockIdsAndCounts) {
  options.grid = std::array<int64_t, 3>{4, 2, 1};
  load("",
       "    %bx, %by, %bz = get_tile_block_id : tile<i32>\n"
       "    %nx, %ny, %nz = get_num_tile_blocks : tile<i32>\n"
       "    %c1 = constant <i32: 1> : tile<i32>\n"
       "    %next = addi %bx, %c1 : tile<i32>");
  EXPECT_EQ(s("%bx").range, (Interval{0, 3}));
  EXPECT_EQ(s("%by").range, (Interval{0, 1}));
  EXPECT_EQ(s("%bz").exact(), 0);
  EXPECT_EQ(s("%bx").evidence, Evidence::Grid);
  EXPECT_EQ(s("%nx").exact(), 4);
  EXPECT_EQ(s("%ny").exact(), 2);
  EXPECT_EQ(facts->describe(id("%bx")), "%bx ranges over [0, 3] from the grid (--grid=4,2,1)");
  EXPECT_EQ(s("%next").range, (Interval{1, 4}));
  EXPECT_EQ(facts->describe(id("%next")),
            "%next ranges over [1, 4], derived from %bx, which ranges over [0, 3] from the grid (--grid=4,2,1)");
  // %bx + 1 and %bx differ by exactly 1.
  EXPECT_EQ(s("%next").affine->minus(*s("%bx").affine), 1);
}

TEST_F(Facts, WithoutAGridOnlyTheLowerEndIsKnown) {
  load("",
       "    %bx, %by, %bz = get_tile_block_id : tile<i32>\n"
       "    %nx, %ny, %nz = get_num_tile_blocks : tile<i32>\n"
       "    %c1 = constant <i32: 1> : tile<i32>\n"
       "    %prev = subi %bx, %c1 : tile<i32>");
  EXPECT_EQ(s("%bx").range, (Interval{0, (1 << 24) - 2}));
  EXPECT_TRUE(s("%bx").loKnown);
  EXPECT_FALSE(s("%bx").hiKnown);
  EXPECT_EQ(range("%bx"), "[0, ?]");
  EXPECT_EQ(s("%nx").range, (Interval{1, (1 << 24) - 1}));
  EXPECT_EQ(range("%prev"), "[-1, ?]");
  EXPECT_EQ(facts->describe(id("%bx")), "%bx ranges over [0, ?] (get_tile_block_id is never negative)");
}

TEST_F(Facts, IndexSpaceShapeIsExact) {
  load("%p: tile<ptr<f32>>",
       "    %tv = make_tensor_view %p, shape = [100, 64], strides = [64, 1] : tensor_view<100x64xf32, strides=[64,1]>\n"
       "    %pv = make_partition_view %tv : partition_view<tile=(32x64), tensor_view<100x64xf32, strides=[64,1]>>\n"
       "    %e0, %e1 = get_index_space_shape %pv : partition_view<tile=(32x64), tensor_view<100x64xf32, "
       "strides=[64,1]>> -> tile<i32>\n"
       "    %s0, %s1 = get_tensor_shape %tv : tensor_view<100x64xf32, strides=[64,1]> -> tile<i64>");
  EXPECT_EQ(s("%e0").exact(), 4);
  EXPECT_EQ(s("%e1").exact(), 1);
  EXPECT_EQ(s("%s0").exact(), 100);
  EXPECT_EQ(s("%s1").exact(), 64);
}

TEST_F(Facts, IotaBroadcastReshapeAndScaling) {
  load("",
       "    %io = iota : tile<8xi32>\n"
       "    %c4 = constant <i32: 4> : tile<8xi32>\n"
       "    %x4 = muli %io, %c4 : tile<8xi32>\n"
       "    %m = reshape %io : tile<8xi32> -> tile<2x4xi32>\n"
       "    %col = reshape %io : tile<8xi32> -> tile<8x1xi32>\n"
       "    %b = broadcast %col : tile<8x1xi32> -> tile<8x16xi32>\n"
       "    %p = permute %m [1, 0] : tile<2x4xi32> -> tile<4x2xi32>\n"
       "    %sum = addi %x4, %io : tile<8xi32>\n"
       "    %c1 = constant <i32: 1> : tile<8xi32>\n"
       "    %sh = shli %io, %c1 : tile<8xi32>");
  EXPECT_EQ(strides(t("%io")), (Strides{1}));
  EXPECT_EQ(t("%io").base.exact(), 0);
  EXPECT_EQ(t("%io").range(), (Interval{0, 7}));
  EXPECT_TRUE(t("%c4").uniform());
  EXPECT_EQ(s("%c4").exact(), 4);  // a splat is a scalar fact too
  EXPECT_EQ(strides(t("%x4")), (Strides{4}));
  EXPECT_EQ(t("%x4").range(), (Interval{0, 28}));
  EXPECT_EQ(strides(t("%m")), (Strides{4, 1}));
  EXPECT_EQ(strides(t("%col")), (Strides{1, 0}));
  EXPECT_EQ(strides(t("%b")), (Strides{1, 0}));
  EXPECT_EQ(strides(t("%p")), (Strides{1, 4}));
  EXPECT_EQ(strides(t("%sum")), (Strides{5}));
  EXPECT_EQ(strides(t("%sh")), (Strides{2}));
  EXPECT_EQ(facts->scalar(id("%io")), nullptr);  // not uniform
}

TEST_F(Facts, DenseConstantsAffineOrJustBounded) {
  load("",
       "    %g = constant <i32: [3, 0, 5, 1]> : tile<4xi32>\n"
       "    %s = constant <i32: [[2, 6], [10, 14]]> : tile<2x2xi32>");
  EXPECT_EQ(strides(t("%s")), (Strides{8, 4}));
  EXPECT_EQ(t("%s").base.exact(), 2);
  EXPECT_EQ(strides(t("%g")), (Strides{std::nullopt}));
  EXPECT_EQ(t("%g").range(), (Interval{0, 5}));
}

TEST_F(Facts, ElementWrapMakesATileUnknown) {
  load("",
       "    %io = iota : tile<128xi8>\n"
       "    %c2 = constant <i8: 2> : tile<128xi8>\n"
       "    %x = muli %io, %c2 : tile<128xi8>");
  EXPECT_EQ(strides(t("%x")), (Strides{std::nullopt}));
  EXPECT_FALSE(t("%x").base.known());
}

TEST_F(Facts, PointerRootsOffsetsAndStrides) {
  load("%p: tile<ptr<f32>>, %q: tile<i64>",
       "    %io = iota : tile<16xi32>\n"
       "    %r = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>\n"
       "    %b = broadcast %r : tile<1xptr<f32>> -> tile<16xptr<f32>>\n"
       "    %c2 = constant <i32: 2> : tile<16xi32>\n"
       "    %off = muli %io, %c2 : tile<16xi32>\n"
       "    %ptrs = offset %b, %off : tile<16xptr<f32>>, tile<16xi32> -> tile<16xptr<f32>>\n"
       "    %h = ptr_to_ptr %ptrs : tile<16xptr<f32>> -> tile<16xptr<f16>>\n"
       "    %raw = int_to_ptr %q : tile<i64> -> tile<ptr<f32>>");
  const TileFact& p = t("%p");
  EXPECT_TRUE(p.pointer);
  EXPECT_EQ(p.root, id("%p"));
  EXPECT_EQ(p.elemBits, 32u);
  EXPECT_EQ(facts->scalar(id("%p")), nullptr);  // pointers have tile facts only
  const TileFact& ptrs = t("%ptrs");
  EXPECT_EQ(ptrs.root, id("%p"));
  EXPECT_EQ(ptrs.base.exact(), 0);
  EXPECT_EQ(strides(ptrs), (Strides{2}));
  EXPECT_EQ(ptrs.range(), (Interval{0, 30}));
  const TileFact& h = t("%h");
  EXPECT_EQ(h.root, id("%p"));
  EXPECT_EQ(h.elemBits, 16u);
  EXPECT_EQ(strides(h), (Strides{4}));
  EXPECT_EQ(t("%raw").root, id("%raw"));  // a pointer made from an integer is a base of its own
  EXPECT_EQ(t("%raw").base.exact(), 0);
}

TEST_F(Facts, PointerOffsetsByBlockIdKeepAnAffineForm) {
  load("%p: tile<ptr<f32>>",
       "    %bx, %by, %bz = get_tile_block_id : tile<i32>\n"
       "    %c128 = constant <i32: 128> : tile<i32>\n"
       "    %o = muli %bx, %c128 : tile<i32>\n"
       "    %q = offset %p, %o : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>");
  const TileFact& q = t("%q");
  EXPECT_EQ(q.root, id("%p"));
  EXPECT_EQ(ValueFacts::rangeText(q.base), "[0, ?]");
  ASSERT_TRUE(q.base.affine);
  ASSERT_EQ(q.base.affine->terms.size(), 1u);
  EXPECT_EQ(q.base.affine->terms[0].first, id("%bx"));
  EXPECT_EQ(q.base.affine->terms[0].second, 128);
  EXPECT_EQ(q.base.divisor, 128);
}

TEST_F(Facts, GlobalsAreRoots) {
  text =
      "cuda_tile.module @m {\n  global @g <f32: [1.0, 2.0]> : tile<2xf32>\n  entry @k() {\n"
      "    %g = get_global @g : tile<ptr<f32>>\n    return\n  }\n}\n";
  analysis = analyze(text);
  ASSERT_EQ(analysis.errorCount(), 0u) << messages(analysis).front();
  buildFacts();
  EXPECT_EQ(t("%g").root, id("%g"));
}

TEST_F(Facts, EvidenceRangePointsAtTheBasis) {
  load("%n: tile<i32>", bounded("%a", "%n", 0, 7) + "    %c1 = constant <i32: 1> : tile<i32>\n"
                                                    "    %b = addi %a, %c1 : tile<i32>");
  auto r = facts->evidenceRange(id("%b"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->begin, program().value(id("%a")).range.begin);
  EXPECT_FALSE(facts->evidenceRange(id("%n")));
  EXPECT_EQ(facts->line(r->begin), 3u);
}

TEST_F(Facts, SelectJoinsBothArms) {
  load("%c: tile<i1>",
       "    %c2 = constant <i32: 2> : tile<i32>\n"
       "    %c6 = constant <i32: 6> : tile<i32>\n"
       "    %s = select %c, %c2, %c6 : tile<i1>, tile<i32>");
  EXPECT_EQ(s("%s").range, (Interval{2, 6}));
  EXPECT_TRUE(s("%s").loKnown && s("%s").hiKnown);
  EXPECT_EQ(s("%s").divisor, 2);
}

// cuTile lowers Python's `a % b` to remi and a sign fix-up
// select(((r < 0) xor (b < 0)) and r != 0, r + b, r): with a non-negative
// dividend and a positive divisor the condition is decided false, so the
// select is r and stays in [0, b - 1] (the join of both arms was [0, 2b - 1]).
TEST_F(Facts, PythonModuloFixUpIsDecided) {
  options.grid = std::array<int64_t, 3>{512, 1, 1};
  load("",
       "    %bid, %by, %bz = get_tile_block_id : tile<i32>\n"
       "    %c0 = constant <i32: 0> : tile<i32>\n"
       "    %c8 = constant <i32: 8> : tile<i32>\n"
       "    %r = remi %bid, %c8 signed : tile<i32>\n"
       "    %rneg = cmpi less_than %r, %c0, signed : tile<i32> -> tile<i1>\n"
       "    %bneg = cmpi less_than %c8, %c0, signed : tile<i32> -> tile<i1>\n"
       "    %sgn = xori %rneg, %bneg : tile<i1>\n"
       "    %nz = cmpi not_equal %r, %c0, signed : tile<i32> -> tile<i1>\n"
       "    %fix = andi %sgn, %nz : tile<i1>\n"
       "    %adj = addi %r, %c8 : tile<i32>\n"
       "    %mod = select %fix, %adj, %r : tile<i1>, tile<i32>\n"
       "    %q = divi %bid, %c8 signed rounding<negative_inf> : tile<i32>");
  EXPECT_EQ(s("%r").range, (Interval{0, 7}));
  EXPECT_EQ(s("%rneg").exact(), 0);  // false
  EXPECT_EQ(s("%bneg").exact(), 0);
  EXPECT_EQ(s("%sgn").exact(), 0);
  EXPECT_FALSE(s("%nz").exact());    // r may or may not be 0
  EXPECT_EQ(s("%fix").exact(), 0);   // false and anything
  EXPECT_EQ(s("%mod").range, (Interval{0, 7}));
  EXPECT_TRUE(s("%mod").hiKnown);
  EXPECT_EQ(s("%q").range, (Interval{0, 63}));
}

// Conditions decided by ranges: true is -1 in one bit; or/xor of exact values.
TEST_F(Facts, ComparisonsDecidedByRanges) {
  load("%x: tile<i32>",
       bounded("%a", "%x", 0, 3) + bounded("%b", "%x", 4, 9) +
           "    %lt = cmpi less_than %a, %b, signed : tile<i32> -> tile<i1>\n"
           "    %ge = cmpi greater_than_or_equal %a, %b, unsigned : tile<i32> -> tile<i1>\n"
           "    %eq = cmpi equal %a, %b, signed : tile<i32> -> tile<i1>\n"
           "    %open = cmpi less_than %a, %x, signed : tile<i32> -> tile<i1>\n"
           "    %or = ori %lt, %ge : tile<i1>\n"
           "    %xor = xori %lt, %lt : tile<i1>\n"
           "    %pick = select %lt, %a, %b : tile<i1>, tile<i32>");
  EXPECT_EQ(s("%lt").exact(), -1);
  EXPECT_EQ(s("%ge").exact(), 0);
  EXPECT_EQ(s("%eq").exact(), 0);
  EXPECT_FALSE(s("%open").exact());
  EXPECT_EQ(s("%or").exact(), -1);
  EXPECT_EQ(s("%xor").exact(), 0);
  EXPECT_EQ(s("%pick").range, (Interval{0, 3}));
}

// A bounds mask whose every lane is in range is all true (the lanes of
// iota + 16 * k stay below 64 for k in [0, 2]).
TEST_F(Facts, BoundsMaskOfInRangeLanesIsAllTrue) {
  load("%x: tile<i32>",
       bounded("%k", "%x", 0, 2) +
           "    %c16 = constant <i32: 16> : tile<i32>\n"
           "    %base = muli %k, %c16 : tile<i32>\n"
           "    %i = iota : tile<16xi32>\n"
           "    %b = reshape %base : tile<i32> -> tile<1xi32>\n"
           "    %bb = broadcast %b : tile<1xi32> -> tile<16xi32>\n"
           "    %lane = addi %i, %bb : tile<16xi32>\n"
           "    %n = constant <i32: 64> : tile<16xi32>\n"
           "    %mask = cmpi less_than %lane, %n, signed : tile<16xi32> -> tile<16xi1>");
  EXPECT_TRUE(t("%mask").uniform());
  EXPECT_EQ(t("%mask").base.exact(), -1);
}

TEST_F(Facts, InductionVariableNearTheTypeLimitMayWrap) {
  load("",
       "    %c0 = constant <i8: 0> : tile<i8>\n"
       "    %c100 = constant <i8: 120> : tile<i8>\n"
       "    %c10 = constant <i8: 10> : tile<i8>\n"
       "    for %i in (%c0 to %c100, step %c10) : tile<i8> {\n"
       "      continue\n"
       "    }");
  // 110 + 10 wraps past 127: the lower end is lost, the upper one holds.
  EXPECT_EQ(range("%i"), "[?, 110]");
  EXPECT_EQ(s("%i").range.lo, -128);
}

TEST_F(Facts, ReshapeOfALinearTileIntoOneDimension) {
  load("",
       "    %io = iota : tile<8xi32>\n"
       "    %m = reshape %io : tile<8xi32> -> tile<2x4xi32>\n"
       "    %p = permute %m [1, 0] : tile<2x4xi32> -> tile<4x2xi32>\n"
       "    %back = reshape %m : tile<2x4xi32> -> tile<8xi32>\n"
       "    %mixed = reshape %p : tile<4x2xi32> -> tile<8xi32>");
  EXPECT_EQ(strides(t("%back")), (Strides{1}));
  EXPECT_EQ(strides(t("%mixed")), (Strides{std::nullopt}));  // 0, 4, 1, 5, ...: not affine
}

TEST_F(Facts, WrapKeepsOnlyPowerOfTwoDivisors) {
  load("%n: tile<i32>",
       "    %c12 = constant <i32: 12> : tile<i32>\n"
       "    %m = muli %n, %c12 : tile<i32>");
  EXPECT_FALSE(s("%m").known());
  EXPECT_EQ(s("%m").divisor, 4);  // n * 12 mod 2^32 is still a multiple of 4
}

TEST_F(Facts, AllocaIsARoot) {
  load("",
       "    %a = alloca num_elem = 64, alignment = 16 : tile<ptr<f32>>\n"
       "    %c8 = constant <i32: 8> : tile<i32>\n"
       "    %q = offset %a, %c8 : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>");
  EXPECT_EQ(t("%q").root, id("%a"));
  EXPECT_EQ(t("%q").base.exact(), 8);
}

TEST_F(Facts, BrokenProgramsGetFactsWithoutCrashing) {
  text = kernel("%n: tile<i32>",
                "    %x = addi %n, %missing : tile<i32>\n"
                "    %y = addi %x, %n : tile<i64>\n"
                "    for %i in (%x to %nothing, step %n) : tile<i32> {\n"
                "      continue\n"
                "    }\n"
                "    %z = subi %y, %y : tile<4xi32>");
  analysis = analyze(text);
  EXPECT_GT(analysis.errorCount(), 0u);
  buildFacts();
  EXPECT_EQ(facts->tile(id("%n"))->base.range, (Interval{INT32_MIN, INT32_MAX}));
}

TEST_F(Facts, BranchesNarrowValuesComputedFromTheComparedOne) {
  options.grid = std::array<int64_t, 3>{8, 1, 1};
  load("",
       "    %bx, %by, %bz = get_tile_block_id : tile<i32>\n"
       "    %c0 = constant <i32: 0> : tile<i32>\n"
       "    %c1 = constant <i32: 1> : tile<i32>\n"
       "    %c2 = constant <i32: 2> : tile<i32>\n"
       "    %prev = subi %bx, %c1 : tile<i32>\n"
       "    %neg = muli %bx, %c2 : tile<i32>\n"
       "    %gt = cmpi greater_than %bx, %c0, signed : tile<i32> -> tile<i1>\n"
       "    if %gt {\n"
       "      %in = addi %prev, %c0 : tile<i32>\n"
       "    }");
  EXPECT_EQ(s("%prev").range, (Interval{-1, 6}));
  EXPECT_EQ(facts->scalarAt(id("%prev"), owner("%in"))->range, (Interval{0, 6}));
  EXPECT_EQ(facts->scalarAt(id("%bx"), owner("%in"))->range, (Interval{1, 7}));
  EXPECT_EQ(facts->scalarAt(id("%neg"), owner("%in"))->range, (Interval{2, 14}));
  EXPECT_EQ(s("%in").range, (Interval{0, 6}));
  EXPECT_EQ(facts->describe(id("%prev"), owner("%in")),
            "%prev ranges over [0, 6], derived from %bx, which ranges over [1, 7] from the grid (--grid=8,1,1), narrowed by the "
            "comparison at line 9");
}
