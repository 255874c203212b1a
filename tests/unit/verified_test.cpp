// The codegen gate: a program reaches codegen only with no syntax or type
// error, no broken or unregistered op and every value typed; findings of the
// checks (undefined behaviour a run can confirm) do not stop it.
#include <gtest/gtest.h>

#include "analysis/verified.h"
#include "test_util.h"

using namespace tilesight;
using namespace tilesight::testing;

namespace {

// The text and its analysis outlive the result, which points into them.
struct Gated {
  std::string text;
  Analysis analysis;
  VerifiedProgram::Result result;
  explicit Gated(std::string t) : text(std::move(t)), analysis(analyze(text)) {
    result = VerifiedProgram::of(analysis, analysis.chunks.at(0));
  }
};

}  // namespace

TEST(Verified, CleanProgramPasses) {
  Gated g(kernel("%x: tile<i32>", "    %y = addi %x, %x : tile<i32>"));
  const auto& r = g.result;
  ASSERT_TRUE(r.program) << (r.reasons.empty() ? "" : r.reasons[0]);
  EXPECT_TRUE(r.reasons.empty());
  EXPECT_FALSE(r.program->program().ops.empty());
}

TEST(Verified, TypeErrorIsARefusalWithItsLine) {
  Gated g(kernel("%x: tile<i32>, %f: tile<f32>", "    %y = addi %x, %f : tile<i32>"));
  const auto& r = g.result;
  EXPECT_FALSE(r.program);
  ASSERT_FALSE(r.reasons.empty());
  EXPECT_EQ(r.reasons[0].rfind("line 3: error: ", 0), 0u) << r.reasons[0];
}

TEST(Verified, UnregisteredOpIsRefused) {
  Gated g(kernel("%x: tile<i32>", "    %y = \"foo.bar\"(%x) : (tile<i32>) -> tile<i32>"));
  const auto& r = g.result;
  EXPECT_FALSE(r.program);
  bool named = false;
  for (const std::string& s : r.reasons) named |= s.find("'foo.bar' is not a Tile IR op") != std::string::npos;
  EXPECT_TRUE(named) << (r.reasons.empty() ? "" : r.reasons[0]);
}

TEST(Verified, FindingsOfTheChecksDoNotStopARun) {
  // Index 4 of a 4-tile view: bounds.index (an error), which the sanitizer is to confirm by running.
  Gated g(kernel("%p: tile<ptr<f32>>",
                       "    %tv = make_tensor_view %p, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>\n"
                       "    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>\n"
                       "    %c4 = constant <i32: 4> : tile<i32>\n"
                       "    %v, %t = load_view_tko weak %pv[%c4] : partition_view<tile=(16), tensor_view<64xf32, "
                       "strides=[1]>>, tile<i32> -> tile<16xf32>, token"));
  const auto& r = g.result;
  EXPECT_TRUE(r.program) << (r.reasons.empty() ? "" : r.reasons[0]);
}
