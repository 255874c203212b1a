// The waits-for relation: chains, joins, fresh tokens, if paths, loop-carried
// tokens (same iteration, one and two iterations back, every earlier one),
// nested loops, loop results, exclusive branches and the saturation bound.
#include <gtest/gtest.h>

#include <memory>

#include "analysis/checks/checks.h"
#include "analysis/checks/token_graph.h"
#include "test_util.h"

using namespace tilesight;
using namespace tilesight::testing;

namespace {

// `%name = store_ptr_tko ...` and `%v_name, %name = load_ptr_tko ...` through %p.
std::string store(const std::string& name, const std::string& token = "") {
  return "    %" + name + " = store_ptr_tko weak %p, %x" + (token.empty() ? "" : " token = %" + token) +
         " : tile<ptr<f32>>, tile<f32> -> token\n";
}
std::string load(const std::string& name, const std::string& token = "") {
  return "    %v_" + name + ", %" + name + " = load_ptr_tko weak %p" +
         (token.empty() ? "" : " token = %" + token) + " : tile<ptr<f32>> -> tile<f32>, token\n";
}
const std::string kHead =
    "    %x = constant <f32: 1.0> : tile<f32>\n    %c0 = constant <i32: 0> : tile<i32>\n"
    "    %c1 = constant <i32: 1> : tile<i32>\n    %c4 = constant <i32: 4> : tile<i32>\n";
std::string forLoop(const std::string& result, const std::string& arg, const std::string& init,
                    const std::string& body, const std::string& cont) {
  return "    %" + result + " = for %i" + result + " in (%c0 to %c4, step %c1) : tile<i32> iter_values(%" +
         arg + " = %" + init + ") -> (token) {\n" + body + "      continue %" + cont + " : token\n    }\n";
}

class Tokens : public ::testing::Test {
protected:
  std::string text;
  Analysis analysis;
  std::vector<OpId> memoryOps;
  std::unique_ptr<TokenGraph> graph;

  void build(const std::string& body) {
    text = kernel("%p: tile<ptr<f32>>, %cond: tile<i1>", kHead + body);
    AnalyzeOptions options;
    options.checks.disabled = {"race"};  // the races of these programs are the point
    analysis = analyze(text, options);
    ASSERT_EQ(analysis.errorCount(), 0u) << messages(analysis).front() << "\n" << text;
    graph = std::make_unique<TokenGraph>(program());
    memoryOps.clear();
    for (CheckUnit u : checkUnits(program())) {
      llvm::ArrayRef<OpId> ops = graph->addFunction(u.op);
      memoryOps.insert(memoryOps.end(), ops.begin(), ops.end());
    }
  }
  const Program& program() const { return analysis.chunks.at(0).parsed.program; }
  // The op that defines the token `%name`.
  OpId op(std::string_view name) const {
    std::string n = "%" + std::string(name);
    for (const Value& v : program().values)
      if (v.name == n) return v.owner;
    ADD_FAILURE() << "no value " << n;
    return kNoId;
  }
  bool waits(std::string_view later, std::string_view earlier) const {
    return graph->waitsFor(op(later), op(earlier));
  }
  bool across(std::string_view later, std::string_view earlier, std::string_view loop, uint32_t d) const {
    return graph->waitsAcross(op(later), op(earlier), op(loop), d);
  }
};

TEST_F(Tokens, ChainOrdersEveryLaterOp) {
  build(store("a") + load("b", "a") + store("c", "b"));
  EXPECT_EQ(memoryOps.size(), 3u);
  EXPECT_TRUE(waits("b", "a"));
  EXPECT_TRUE(waits("c", "b"));
  EXPECT_TRUE(waits("c", "a"));
  EXPECT_EQ(graph->tokenIn(op("c")), program().op(op("b")).results[1]);
  EXPECT_EQ(graph->tokenIn(op("a")), kNoId);
}

TEST_F(Tokens, ProgramOrderOrdersNothing) {
  build(store("a") + load("b") + store("c", "b"));
  EXPECT_FALSE(waits("b", "a"));
  EXPECT_FALSE(waits("c", "a"));
}

TEST_F(Tokens, FreshTokenIsNotThreaded) {
  build("    %t0 = make_token : token\n" + store("a", "t0") + "    %t1 = make_token : token\n" +
        load("b", "t1") + load("c", "t0"));
  EXPECT_FALSE(waits("b", "a"));
  EXPECT_FALSE(waits("c", "a"));  // %t0 was made before the store
}

TEST_F(Tokens, JoinWaitsForEachInput) {
  build(store("a") + store("b") + store("d") + "    %j = join_tokens %a, %b : token\n" + load("e", "j") +
        "    %j2 = join_tokens %a, %d : token\n" + load("f", "j2"));
  EXPECT_TRUE(waits("e", "a"));
  EXPECT_TRUE(waits("e", "b"));
  EXPECT_FALSE(waits("e", "d"));
  EXPECT_FALSE(waits("f", "b"));
}

TEST_F(Tokens, IfResultCoversWhatEveryPathCovers) {
  build(
      store("a") + "    %r = if %cond -> (token) {\n" + store("b", "a") +
      "      yield %b : token\n    } else {\n" + "      yield %a : token\n    }\n" + load("d", "r") +
      "    %s = if %cond -> (token) {\n" + store("e", "a") +
      "      yield %e : token\n    } else {\n      %f = make_token : token\n      yield %f : token\n    }\n" +
      load("g", "s"));
  EXPECT_TRUE(waits("d", "a"));   // both branches pass a token that waits for %a
  EXPECT_TRUE(waits("d", "b"));   // %b runs only on the path that yields its token
  EXPECT_FALSE(waits("g", "a"));  // the else branch yields a fresh token
  EXPECT_TRUE(waits("g", "e"));
  EXPECT_TRUE(graph->exclusive(op("b"), op("r")) == false);
  EXPECT_TRUE(graph->exclusive(op("e"), op("f")));
  EXPECT_FALSE(graph->exclusive(op("e"), op("g")));
}

TEST_F(Tokens, BranchThatReturnsNeedsNoToken) {
  build(store("a") + "    %r = if %cond -> (token) {\n" + store("b") +
        "      yield %b : token\n    } else {\n" + "      return\n    }\n" + load("d", "r"));
  EXPECT_TRUE(waits("d", "b"));
  EXPECT_FALSE(waits("d", "a"));
}

TEST_F(Tokens, CarriedTokenOrdersIterations) {
  build(store("a") + forLoop("r", "tok", "a", load("b", "tok") + store("s", "b"), "s") + load("d", "r"));
  EXPECT_TRUE(waits("b", "a"));  // every iteration's token waits for %a
  EXPECT_TRUE(waits("s", "b"));
  EXPECT_TRUE(across("b", "s", "r", 1));
  EXPECT_TRUE(across("b", "s", "r", 3));
  EXPECT_TRUE(across("b", "s", "r", 0));
  EXPECT_TRUE(across("s", "s", "r", 0));
  EXPECT_TRUE(waits("d", "s"));  // the result waits for every iteration's store
  EXPECT_TRUE(waits("d", "b"));
  EXPECT_TRUE(waits("d", "a"));
}

TEST_F(Tokens, DroppedTokenLeavesIterationsUnordered) {
  build(
      store("a") +
      forLoop("r", "tok", "a", load("b", "tok") + store("s", "b") + "      %f = make_token : token\n", "f") +
      load("d", "r"));
  EXPECT_FALSE(waits("b", "a"));  // from the second iteration on, %tok is fresh
  EXPECT_TRUE(waits("s", "b"));
  EXPECT_FALSE(across("b", "s", "r", 1));
  EXPECT_FALSE(across("s", "s", "r", 0));
  EXPECT_FALSE(waits("d", "s"));
  EXPECT_FALSE(waits("d", "a"));
}

TEST_F(Tokens, OneIterationBackIsNotTwo) {
  // The carried token is the store's, and each store takes a fresh token:
  // iteration k's load waits for iteration k - 1's store only.
  build(
      "    %t0 = make_token : token\n" +
      forLoop("r", "tok", "t0", load("b", "tok") + "      %f = make_token : token\n" + store("s", "f"), "s"));
  EXPECT_TRUE(across("b", "s", "r", 1));
  EXPECT_FALSE(across("b", "s", "r", 2));
  EXPECT_FALSE(across("b", "s", "r", 0));
  EXPECT_FALSE(across("s", "b", "r", 1));
}

TEST_F(Tokens, NestedLoopsCarryThroughTheInnerResult) {
  std::string inner = "  " + forLoop("r2", "u", "tok", "  " + store("a", "u"), "a");
  build("    %t0 = make_token : token\n" + forLoop("r1", "tok", "t0", inner, "r2") + load("d", "r1"));
  EXPECT_TRUE(across("a", "a", "r2", 0));
  EXPECT_TRUE(across("a", "a", "r1", 0));
  EXPECT_TRUE(waits("d", "a"));
  EXPECT_EQ(graph->innermostCommonLoop(op("a"), op("d")), kNoId);
  EXPECT_EQ(graph->loopOf(op("a")), op("r2"));
  EXPECT_EQ(graph->loopOf(op("r2")), op("r1"));
}

TEST_F(Tokens, InnerLoopThatDropsItsTokenBreaksTheOuterOrder) {
  std::string inner =
      "  " + forLoop("r2", "u", "tok", "  " + store("a", "u") + "        %f = make_token : token\n", "f");
  build("    %t0 = make_token : token\n" + forLoop("r1", "tok", "t0", inner, "r2"));
  EXPECT_FALSE(across("a", "a", "r2", 1));
  EXPECT_FALSE(across("a", "a", "r1", 0));
}

// cuTile's while loop: the exit test comes first and `break` passes the
// iter_value on, so the loop's result waits, through the tokens carried from
// earlier iterations, for every load and store of the body. A break that
// passes a fresh token waits for none of them.
TEST_F(Tokens, BreakThroughIterValuesCoversEarlierIterations) {
  auto whileLoop = [](const std::string& exitToken) {
    return "    %t0 = make_token : token\n"
           "    %res = loop iter_values(%a = %t0) : token -> token {\n"
           "      %fresh = make_token : token\n"
           "      if %cond {\n"
           "        break %" + exitToken + " : token\n"
           "      }\n" +
           "  " + load("l", "a") + "  " + store("s", "l") +
           "      continue %s : token\n"
           "    }\n" +
           store("after", "res");
  };
  build(whileLoop("a"));
  EXPECT_TRUE(waits("after", "s"));
  EXPECT_TRUE(waits("after", "l"));
  build(whileLoop("fresh"));
  EXPECT_FALSE(waits("after", "s"));
}

TEST_F(Tokens, ManyStreamsSaturate) {
  std::string body, names;
  for (size_t i = 0; i <= TokenGraph::kMaxChains; ++i) {
    body += store("s" + std::to_string(i));
    names += (i ? ", %s" : "%s") + std::to_string(i);
  }
  build(body + "    %j = join_tokens " + names + " : token\n" + store("late") + load("d", "j"));
  EXPECT_TRUE(waits("d", "s0"));
  EXPECT_TRUE(waits("d", "late"));  // past the bound a token is taken to order everything
}

}  // namespace
