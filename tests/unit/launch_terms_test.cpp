// The launch terms (analysis/symbolic) against the one definition of each
// integer op (analysis/semantics/int_ops): every i8 operand, wrapping and
// rounding included, gives the value semantics::evalIntOp computes.
#include <gtest/gtest.h>

#include <z3++.h>

#include "analysis/ir/ir_query.h"
#include "analysis/semantics/int_ops.h"
#include "analysis/symbolic/launch_terms.h"
#include "test_util.h"

using namespace tilesight;
using namespace tilesight::testing;

namespace {

struct Case {
  std::string op;  // the op's text with %a and %c, giving %r
  OpKind kind;
  IntOpMode mode;
  Predicate pred = Predicate::Equal;
};

// The value of %r for each %a in [-128, 127], %c = c, against evalIntOp.
void sweep(const Case& t, int64_t c) {
  std::string text = kernel("%a: tile<i8>", "    %c = constant <i8: " + std::to_string(c) + "> : tile<i8>\n    " + t.op);
  Analysis analysis = analyze(text);
  ASSERT_EQ(analysis.errorCount(), 0u) << messages(analysis).front() << "\n" << text;
  const Program& p = analysis.chunks.at(0).parsed.program;
  OpId entry = kNoId;
  for (OpId i = 0; i < p.ops.size() && entry == kNoId; ++i)
    if (is(p.op(i), OpKind::Entry)) entry = i;
  ValueId a = kNoId, r = kNoId;
  for (ValueId v = 0; v < p.values.size(); ++v) {
    if (p.value(v).name == "%a") a = v;
    if (p.value(v).name == "%r") r = v;
  }
  z3::context z;
  symbolic::LaunchTerms terms(z, p, entry);
  std::optional<symbolic::Term> rt = terms.value(r);
  ASSERT_TRUE(rt.has_value()) << t.op;
  EXPECT_TRUE(rt->exact) << t.op;
  z3::expr at = *terms.argument(a);
  for (int64_t x = -128; x <= 127; ++x) {
    z3::expr_vector from(z), to(z);
    from.push_back(at);
    to.push_back(z.int_val(x));
    z3::expr got = rt->e.substitute(from, to).simplify();
    IntResult want = evalIntOp(t.kind, t.mode, x, c, t.pred);
    int64_t g = 0;
    if (got.is_bool()) g = got.is_true() ? -1 : 0;  // cmpi: i1 true is -1
    else ASSERT_TRUE(got.is_numeral_i64(g)) << t.op << " with %a = " << x << ": " << got.to_string();
    ASSERT_EQ(g, want.value) << t.op << " with %a = " << x << ", %c = " << c;
  }
}

const IntOpMode kSigned{8, true, Rounding::Zero};
const IntOpMode kUnsigned{8, false, Rounding::Zero};

TEST(LaunchTerms, ArithmeticWrapsAtTheWidth) {
  for (int64_t c : {-128, -3, 0, 1, 37, 127}) {
    sweep({"%r = addi %a, %c : tile<i8>", OpKind::Addi, kSigned}, c);
    sweep({"%r = subi %a, %c : tile<i8>", OpKind::Subi, kSigned}, c);
    sweep({"%r = muli %a, %c : tile<i8>", OpKind::Muli, kSigned}, c);
  }
}

TEST(LaunchTerms, DivisionAndRemainderByAConstantRoundAsSemanticsSays) {
  for (int64_t c : {1, 3, 7, 64, 127}) {
    sweep({"%r = divi %a, %c signed : tile<i8>", OpKind::Divi, kSigned}, c);
    sweep({"%r = divi %a, %c signed rounding<negative_inf> : tile<i8>", OpKind::Divi,
           {8, true, Rounding::NegativeInf}},
          c);
    sweep({"%r = divi %a, %c signed rounding<positive_inf> : tile<i8>", OpKind::Divi,
           {8, true, Rounding::PositiveInf}},
          c);
    sweep({"%r = divi %a, %c unsigned : tile<i8>", OpKind::Divi, kUnsigned}, c);
    sweep({"%r = divi %a, %c unsigned rounding<positive_inf> : tile<i8>", OpKind::Divi,
           {8, false, Rounding::PositiveInf}},
          c);
    sweep({"%r = remi %a, %c signed : tile<i8>", OpKind::Remi, kSigned}, c);
    sweep({"%r = remi %a, %c unsigned : tile<i8>", OpKind::Remi, kUnsigned}, c);
  }
}

TEST(LaunchTerms, ShiftsMinMaxAndComparisonsBySignedness) {
  for (int64_t c : {0, 1, 3, 7}) {
    sweep({"%r = shli %a, %c : tile<i8>", OpKind::Shli, kSigned}, c);
    sweep({"%r = shri %a, %c signed : tile<i8>", OpKind::Shri, kSigned}, c);
    sweep({"%r = shri %a, %c unsigned : tile<i8>", OpKind::Shri, kUnsigned}, c);
  }
  for (int64_t c : {-100, -1, 0, 5, 127}) {
    sweep({"%r = maxi %a, %c signed : tile<i8>", OpKind::Maxi, kSigned}, c);
    sweep({"%r = mini %a, %c unsigned : tile<i8>", OpKind::Mini, kUnsigned}, c);
    sweep({"%r = cmpi less_than %a, %c, signed : tile<i8> -> tile<i1>", OpKind::Cmpi, kSigned, Predicate::LessThan}, c);
    sweep({"%r = cmpi greater_than_or_equal %a, %c, unsigned : tile<i8> -> tile<i1>", OpKind::Cmpi, kUnsigned,
           Predicate::GreaterThanOrEqual},
          c);
  }
}

}  // namespace
