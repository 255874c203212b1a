// The op table: every OpKind names its own row (ops.def is the one source of
// both), mnemonics are unique, and the memory traits say what each memory op
// does.
#include <gtest/gtest.h>

#include <set>

#include "analysis/ir/op_table.h"

using namespace tilesight;

TEST(OpTable, EveryKindIsItsRow) {
  const OpTable& t = OpTable::get();
  ASSERT_EQ(t.all().size(), kOpKindCount);
  std::set<std::string_view> names;
  for (size_t i = 0; i < kOpKindCount; ++i) {
    const OpInfo& op = t.all()[i];
    EXPECT_EQ(static_cast<size_t>(op.kind), i) << op.name;
    EXPECT_EQ(&t.info(op.kind), &op);
    EXPECT_EQ(t.lookup(op.name), &op);
    EXPECT_TRUE(names.insert(op.name).second) << "duplicate " << op.name;
  }
  EXPECT_EQ(t.info(OpKind::Addi).name, "addi");
  EXPECT_EQ(t.info(OpKind::TestingFunc).name, "testing$func");
  EXPECT_EQ(t.info(OpKind::LoadViewTko).category, OpCategory::View);
  EXPECT_EQ(categoryName(t.info(OpKind::Cmpf).category), "float");
}

TEST(OpTable, MemoryTraits) {
  const OpTable& t = OpTable::get();
  auto reads = [&](OpKind k) { return (t.info(k).traits & kReadsMemory) != 0; };
  auto writes = [&](OpKind k) { return (t.info(k).traits & kWritesMemory) != 0; };
  EXPECT_TRUE(reads(OpKind::LoadPtrTko) && !writes(OpKind::LoadPtrTko));
  EXPECT_TRUE(reads(OpKind::LoadViewTko) && !writes(OpKind::LoadViewTko));
  EXPECT_TRUE(!reads(OpKind::StorePtrTko) && writes(OpKind::StorePtrTko));
  EXPECT_TRUE(!reads(OpKind::StoreViewTko) && writes(OpKind::StoreViewTko));
  for (OpKind k : {OpKind::AtomicRmwTko, OpKind::AtomicCasTko, OpKind::AtomicRedViewTko})
    EXPECT_TRUE(reads(k) && writes(k)) << t.info(k).name;
  // Every other op touches no memory through a pointer or view operand.
  for (const OpInfo& op : t.all())
    if ((op.traits & (kReadsMemory | kWritesMemory)) != 0) {
      EXPECT_TRUE(op.traits & kMemory) << op.name;
    }
  EXPECT_FALSE(reads(OpKind::PrintTko) || writes(OpKind::PrintTko));
}
