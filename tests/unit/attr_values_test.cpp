// Typed attribute values: as written, the op table's defaults when omitted,
// nothing for a missing attribute without a default; the parser's keyword
// sets are these names; dense float literals keep -inf, inf and nan.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/keywords.h"
#include "analysis/ir/op_table.h"
#include "test_util.h"

using namespace tilesight;
using namespace tilesight::testing;

namespace {

const Operation& opOf(const Analysis& a, OpKind k, size_t nth = 0) {
  for (const Operation& op : a.chunks[0].parsed.program.ops)
    if (op.info && op.info->kind == k && nth-- == 0) return op;
  ADD_FAILURE() << "no op of kind " << OpTable::get().info(k).name;
  static const Operation none;
  return none;
}

}  // namespace

TEST(AttrValues, WrittenOrTableDefault) {
  Analysis a = analyze(kernel("%p: tile<ptr<f32>>, %x: tile<i32>, %f: tile<f32>",
                              "    %q = divi %x, %x signed : tile<i32>\n"
                              "    %r = divi %x, %x unsigned rounding<positive_inf> : tile<i32>\n"
                              "    %s = addf %f, %f : tile<f32>\n"
                              "    %t = addf %f, %f rounding<zero> : tile<f32>\n"
                              "    %i = ftoi %f signed : tile<f32> -> tile<i32>\n"
                              "    %c = cmpi less_than_or_equal %x, %x, signed : tile<i32> -> tile<i1>\n"
                              "    %n = addi %x, %x overflow<no_signed_wrap> : tile<i32>\n"
                              "    %m = addi %x, %x : tile<i32>\n"
                              "    %v, %tk = load_ptr_tko relaxed device %p : tile<ptr<f32>> -> tile<f32>, token\n"
                              "    %w, %tw = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token"));
  ASSERT_EQ(a.errorCount(), 0u) << (a.diagnostics.empty() ? "" : a.diagnostics[0].message);
  EXPECT_EQ(roundingOf(opOf(a, OpKind::Divi, 0)), Rounding::Zero);  // the default
  EXPECT_EQ(signednessOf(opOf(a, OpKind::Divi, 0)), Signedness::Signed);
  EXPECT_EQ(roundingOf(opOf(a, OpKind::Divi, 1)), Rounding::PositiveInf);
  EXPECT_EQ(signednessOf(opOf(a, OpKind::Divi, 1)), Signedness::Unsigned);
  EXPECT_EQ(roundingOf(opOf(a, OpKind::Addf, 0)), Rounding::NearestEven);
  EXPECT_EQ(roundingOf(opOf(a, OpKind::Addf, 1)), Rounding::Zero);
  EXPECT_EQ(roundingOf(opOf(a, OpKind::Ftoi)), Rounding::NearestIntToZero);
  EXPECT_EQ(predicateOf(opOf(a, OpKind::Cmpi)), Predicate::LessThanOrEqual);
  EXPECT_EQ(overflowOf(opOf(a, OpKind::Addi, 0)), Overflow::NoSignedWrap);
  EXPECT_EQ(overflowOf(opOf(a, OpKind::Addi, 1)), Overflow::None);
  EXPECT_EQ(signednessOf(opOf(a, OpKind::Addi, 1)), std::nullopt);  // addi has none
  EXPECT_EQ(orderingOf(opOf(a, OpKind::LoadPtrTko, 0)), MemoryOrdering::Relaxed);
  EXPECT_EQ(scopeOf(opOf(a, OpKind::LoadPtrTko, 0)), MemoryScope::Device);
  EXPECT_EQ(orderingOf(opOf(a, OpKind::LoadPtrTko, 1)), MemoryOrdering::Weak);
  EXPECT_EQ(scopeOf(opOf(a, OpKind::LoadPtrTko, 1)), std::nullopt);
  EXPECT_EQ(attrs::flushToZero(opOf(a, OpKind::Addf, 0)), nullptr);
}

TEST(AttrValues, KeywordSetsAreTheEnumNames) {
  EXPECT_EQ(keywordSet("rnd_ieee")->words.size(), keywordNames<Rounding>().size());
  EXPECT_EQ(keywordSet("pred")->words[3], keywordName(Predicate::LessThanOrEqual));
  EXPECT_EQ(keywordSet("ord")->words[4], "acq_rel");
  EXPECT_EQ(keywordValue<MemoryScope>("tl_blk"), MemoryScope::TlBlk);
  EXPECT_EQ(keywordValue<MemoryScope>("block"), std::nullopt);
  EXPECT_EQ(OpTable::get().info(OpKind::Divi).attrDefault("rounding"), "zero");
  EXPECT_EQ(OpTable::get().info(OpKind::Tanh).attrDefault("rounding_mode"), "full");
  EXPECT_EQ(OpTable::get().info(OpKind::Cmpi).attrDefault("signedness"), "");
}

TEST(AttrValues, DenseFloatsKeepInfinitiesAndNaN) {
  Analysis a = analyze(kernel("", "    %c = constant <f32: [-inf, inf, nan, -0.0]> : tile<4xf32>"));
  ASSERT_EQ(a.errorCount(), 0u);
  const Attr* v = opOf(a, OpKind::Constant).attr("value");
  ASSERT_TRUE(v);
  ASSERT_EQ(v->elems.size(), 4u);
  EXPECT_TRUE(std::isinf(v->elems[0].f) && v->elems[0].f < 0);
  EXPECT_TRUE(std::isinf(v->elems[1].f) && v->elems[1].f > 0);
  EXPECT_TRUE(std::isnan(v->elems[2].f));
  EXPECT_TRUE(v->elems[3].f == 0 && std::signbit(v->elems[3].f));
}
