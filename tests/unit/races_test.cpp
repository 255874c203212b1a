// race.unordered and race.scope: each bug shape with its exact message, line
// and note; each fix applied leaves a program with no diagnostic at all; what
// stays silent (ordered pairs, reads only, morally strong pairs, the other
// branch, a loop over its induction variable, test functions); the options
// (grid, aliasing, codes turned off); broken programs; a 50,000-op program.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "test_util.h"

using namespace tilesight;
using namespace tilesight::testing;

namespace {

const std::string kPV = "partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>";
const std::string kView =
    "    %tv = make_tensor_view %p, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>\n"
    "    %pv = make_partition_view %tv : " +
    kPV +
    "\n"
    "    %c0 = constant <i32: 0> : tile<i32>\n    %c1 = constant <i32: 1> : tile<i32>\n"
    "    %c2 = constant <i32: 2> : tile<i32>\n    %c4 = constant <i32: 4> : tile<i32>\n"
    "    %x = constant <f32: 1.0> : tile<16xf32>\n";

std::string storeV(const std::string& name, const std::string& index, const std::string& token = "",
                   const std::string& ord = "weak") {
  return "    %" + name + " = store_view_tko " + ord + " %x, %pv[%" + index + "]" +
         (token.empty() ? "" : " token = %" + token) + " : tile<16xf32>, " + kPV + ", tile<i32> -> token\n";
}
std::string loadV(const std::string& name, const std::string& index, const std::string& token = "",
                  const std::string& ord = "weak") {
  return "    %v_" + name + ", %" + name + " = load_view_tko " + ord + " %pv[%" + index + "]" +
         (token.empty() ? "" : " token = %" + token) + " : " + kPV + ", tile<i32> -> tile<16xf32>, token\n";
}

Analysis run(const std::string& text, const CheckOptions& checks = {}) {
  AnalyzeOptions o;
  o.checks = checks;
  return analyze(text, o);
}

std::vector<const Diagnostic*> races(const Analysis& a) {
  std::vector<const Diagnostic*> out;
  for (const Diagnostic& d : a.diagnostics)
    if (d.code.starts_with("race")) out.push_back(&d);
  return out;
}

uint32_t lineOf(const std::string& text, uint32_t offset) {
  return static_cast<uint32_t>(std::count(text.begin(), text.begin() + offset, '\n')) + 1;
}

std::string applied(std::string text, const Fix& f) {
  std::vector<TextEdit> edits = f.edits;
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit& a, const TextEdit& b) { return a.range.begin > b.range.begin; });
  for (const TextEdit& e : edits) text.replace(e.range.begin, e.range.end - e.range.begin, e.newText);
  return text;
}

// The one race diagnostic of `text`.
struct Found {
  Diagnostic diag;
  uint32_t line = 0;
  std::vector<uint32_t> noteLines;
};

Found only(const std::string& text, const CheckOptions& checks = {}) {
  Analysis a = run(text, checks);
  auto r = races(a);
  EXPECT_EQ(r.size(), 1u) << text;
  EXPECT_EQ(a.errorCount(), std::count_if(r.begin(), r.end(), [](const Diagnostic* d) {
              return d->severity == Severity::Error;
            }));
  if (r.empty()) return {};
  Found f{*r[0], lineOf(text, r[0]->range.begin), {}};
  for (const RelatedNote& n : f.diag.notes) f.noteLines.push_back(lineOf(text, n.range.begin));
  return f;
}

// Applies the diagnostic's one fix and expects a program with no diagnostic at all.
std::string fixedText(const std::string& text, const Found& f, const CheckOptions& checks = {}) {
  EXPECT_EQ(f.diag.fixes.size(), 1u);
  if (f.diag.fixes.size() != 1) return text;
  std::string fixed = applied(text, f.diag.fixes[0]);
  Analysis after = run(fixed, checks);
  EXPECT_TRUE(after.diagnostics.empty()) << after.diagnostics.front().message << "\n" << fixed;
  return fixed;
}

bool silent(const std::string& text, const CheckOptions& checks = {}) {
  Analysis a = run(text, checks);
  for (const Diagnostic& d : a.diagnostics) ADD_FAILURE() << d.message << "\n" << text;
  return a.diagnostics.empty();
}

std::string kernelP(const std::string& body, const std::string& args = "%p: tile<ptr<f32>>") {
  return kernel(args, kView + body);
}

CheckOptions grid(int64_t x, int64_t y = 1) {
  CheckOptions o;
  o.grid = std::array<int64_t, 3>{x, y, 1};
  return o;
}

// Lines of the kernel body: line 1 is the module, 2 the entry, 3..9 kView.
constexpr uint32_t kFirst = 10;

// --- race.unordered in one run --------------------------------------------------------

TEST(Races, StoreThenLoadOfOneTile) {
  std::string text = kernelP(storeV("s", "c1") + loadV("l", "c1"));
  Found f = only(text);
  EXPECT_EQ(f.diag.code, "race.unordered");
  EXPECT_EQ(f.diag.severity, Severity::Error);
  EXPECT_EQ(f.diag.message,
            "'load_view_tko' and the 'store_view_tko' at line 10 both access tile (1) of %pv and one of them "
            "writes, but no "
            "token orders them (program order does not order token-ordered operations)");
  EXPECT_EQ(f.line, kFirst + 1);
  EXPECT_EQ(text.substr(f.diag.range.begin, f.diag.range.end - f.diag.range.begin), "%pv[%c1]");
  ASSERT_EQ(f.diag.notes.size(), 1u);
  EXPECT_EQ(f.diag.notes[0].message, "the other access: this 'store_view_tko' writes tile (1) of %pv");
  EXPECT_EQ(f.noteLines, std::vector<uint32_t>{kFirst});
  EXPECT_EQ(f.diag.fixes[0].title, "wait for the 'store_view_tko' at line 10");
  std::string fixed = fixedText(text, f);
  EXPECT_NE(fixed.find("%pv[%c1] token = %s :"), std::string::npos);
}

TEST(Races, TwoStoresOfOneTile) {
  Found f = only(kernelP(storeV("a", "c2") + storeV("b", "c2")));
  EXPECT_NE(f.diag.message.find("both access tile (2) of %pv and both write"), std::string::npos);
  fixedText(kernelP(storeV("a", "c2") + storeV("b", "c2")), f);
}

TEST(Races, TokenMadeButNotThreadedIsJoined) {
  std::string text = kernelP("    %t0 = make_token : token\n" + storeV("s", "c1", "t0") +
                             "    %t1 = make_token : token\n" + loadV("l", "c1", "t1"));
  Found f = only(text);
  EXPECT_EQ(f.line, kFirst + 3);
  EXPECT_EQ(f.diag.fixes[0].title, "wait for the 'store_view_tko' at line 11 (join it with %t1)");
  std::string fixed = fixedText(text, f);
  EXPECT_NE(fixed.find("    %joined = join_tokens %t1, %s : token\n    %v_l, %l = load_view_tko weak "
                       "%pv[%c1] token = %joined"),
            std::string::npos);
}

TEST(Races, JoinThatMissesOneStore) {
  std::string text = kernelP(storeV("a", "c0") + storeV("b", "c1") + "    %j = join_tokens %a, %a : token\n" +
                             loadV("l", "c1", "j"));
  Found f = only(text);
  EXPECT_NE(f.diag.message.find("the 'store_view_tko' at line 11 both access tile (1) of %pv"),
            std::string::npos);
  fixedText(text, f);
}

TEST(Races, PointerStoresOverlapAViewLoad) {
  std::string body =
      "    %off = iota : tile<16xi32>\n    %p1 = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>\n"
      "    %pb = broadcast %p1 : tile<1xptr<f32>> -> tile<16xptr<f32>>\n"
      "    %ptrs = offset %pb, %off : tile<16xptr<f32>>, tile<16xi32> -> tile<16xptr<f32>>\n"
      "    %s = store_ptr_tko weak %ptrs, %x : tile<16xptr<f32>>, tile<16xf32> -> token\n" +
      loadV("l", "c0");
  std::string text = kernelP(body);
  Found f = only(text);
  EXPECT_NE(
      f.diag.message.find("'load_view_tko' and the 'store_ptr_tko' at line 14 both access element 0 of %p"),
      std::string::npos);
  fixedText(text, f);
  // Tile 1 (elements 16..31) does not meet elements 0..15.
  EXPECT_TRUE(silent(kernelP(body.substr(0, body.find("    %v_l")) + loadV("l", "c1"))));
}

TEST(Races, DataDependencyOrdersNothing) {
  std::string text = kernel("%p: tile<ptr<i32>>",
                            "    %c1 = constant <i32: 1> : tile<i32>\n"
                            "    %v, %tl = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token\n"
                            "    %w = addi %v, %c1 : tile<i32>\n"
                            "    %ts = store_ptr_tko weak %p, %w : tile<ptr<i32>>, tile<i32> -> token");
  Found f = only(text);
  EXPECT_EQ(f.diag.message,
            "'store_ptr_tko' and the 'load_ptr_tko' at line 4 both access element 0 of %p and one of them "
            "writes, but no "
            "token orders them (program order does not order token-ordered operations)");
  EXPECT_EQ(f.diag.notes[0].message, "the other access: this 'load_ptr_tko' reads element 0 of %p");
  fixedText(text, f);
}

TEST(Races, UnrelatedIndicesMayOverlap) {
  std::string text =
      kernelP(storeV("s", "i") + loadV("l", "j"), "%p: tile<ptr<f32>>, %i: tile<i32>, %j: tile<i32>");
  Found f = only(text);
  EXPECT_EQ(f.diag.severity, Severity::Warning);
  EXPECT_EQ(f.diag.message,
            "'load_view_tko' and the 'store_view_tko' at line 10 may access the same memory (tile (%i) and "
            "tile (%j) of "
            "%pv) and one of them writes, but no token orders them");
  EXPECT_EQ(f.diag.notes[0].message, "the other access: this 'store_view_tko' writes");
  fixedText(text, f, {});
}

TEST(Races, IfResultsNotJoined) {
  std::string text = kernelP("    %t0 = make_token : token\n    %r:2 = if %c -> (token, token) {\n" +
                                 storeV("a", "c0", "t0") + storeV("b", "c1", "t0") +
                                 "      yield %a, %b : token, token\n    } else {\n" +
                                 "      yield %t0, %t0 : token, token\n    }\n" + loadV("l", "c1", "r#0"),
                             "%p: tile<ptr<f32>>, %c: tile<i1>");
  Found f = only(text);
  EXPECT_EQ(f.line, kFirst + 8);
  EXPECT_NE(f.diag.message.find("the 'store_view_tko' at line 13 both access tile (1) of %pv"),
            std::string::npos);
  EXPECT_TRUE(f.diag.fixes.empty());  // %b is not in scope after the if
}

TEST(Races, AtomicAndWeakLoad) {
  Found f = only(kernel("%p: tile<ptr<i32>>",
                        "    %c1 = constant <i32: 1> : tile<i32>\n"
                        "    %o, %ta = atomic_rmw_tko relaxed device %p, add, %c1 : tile<ptr<i32>>, "
                        "tile<i32> -> tile<i32>, token\n"
                        "    %v, %tl = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token"));
  EXPECT_EQ(f.diag.notes[0].message,
            "the other access: this 'atomic_rmw_tko' reads and writes element 0 of %p");
}

// The CAS waits for the weak load, the xchg for nothing: the CAS and the xchg
// are morally strong, but the load and the xchg race. The CAS, the last write
// before the xchg, stands in for no weak access behind it (found by a blind
// translation's mutant; the sanitizer missed it too).
TEST(Races, AWeakAccessBehindAnAtomicStillRacesWithTheNextAtomic) {
  std::string text = kernel("%p: tile<ptr<i32>>",
                            "    %t0 = make_token : token\n"
                            "    %v, %t1 = load_ptr_tko weak %p token = %t0 : tile<ptr<i32>> -> tile<i32>, token\n"
                            "    %c, %t2 = atomic_cas_tko relaxed device %p, %v, %v token = %t1 : tile<ptr<i32>>, "
                            "tile<i32> -> tile<i32>, token\n"
                            "    %o, %t3 = atomic_rmw_tko relaxed device %p, xchg, %v token = %t0 : tile<ptr<i32>>, "
                            "tile<i32> -> tile<i32>, token");
  Found f = only(text);
  EXPECT_EQ(f.line, 6u);
  ASSERT_EQ(f.noteLines.size(), 1u);
  EXPECT_EQ(f.noteLines[0], 4u);
  EXPECT_EQ(f.diag.severity, Severity::Error);
  // Threading the xchg after the CAS orders it after the load too.
  std::string ordered = text;
  ordered.replace(ordered.find("xchg, %v token = %t0"), 20, "xchg, %v token = %t2");
  EXPECT_TRUE(silent(ordered));
}

// --- what stays silent --------------------------------------------------------------------

TEST(Races, SilentPairs) {
  EXPECT_TRUE(silent(kernelP(storeV("s", "c1") + loadV("l", "c1", "s"))));  // ordered
  EXPECT_TRUE(silent(kernelP(loadV("a", "c1") + loadV("b", "c1"))));        // reads only
  EXPECT_TRUE(silent(kernelP(storeV("a", "c0") + storeV("b", "c1"))));      // other tiles
  EXPECT_TRUE(silent(
      kernelP(storeV("a", "c1", "", "relaxed tl_blk") + loadV("b", "c1", "", "acquire tl_blk"))));  // strong
  EXPECT_TRUE(
      silent(kernelP("    if %c {\n" + storeV("a", "c1") + "    } else {\n" + loadV("b", "c1") + "    }\n",
                     "%p: tile<ptr<f32>>, %c: tile<i1>")));  // never both
  EXPECT_TRUE(silent(
      kernel("%p: tile<ptr<f32>>, %q: tile<ptr<f32>>",
             "    %x = constant <f32: 1.0> : tile<f32>\n"
             "    %v, %t = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token\n"
             "    %s = store_ptr_tko weak %q, %x : tile<ptr<f32>>, tile<f32> -> token")));  // no aliasing
}

TEST(Races, TestFunctionsAreNotKernels) {
  // NVIDIA's valid tests store one tile three times unordered inside testing$func.
  std::string text = "cuda_tile.module @m {\n  testing$func @f(%p: tile<ptr<f32>>) {\n" + kView +
                     storeV("a", "c1") + storeV("b", "c1") + "    return\n  }\n}\n";
  EXPECT_TRUE(silent(text));
}

// --- loops --------------------------------------------------------------------------------

std::string loop(const std::string& body, const std::string& carried = "%ts",
                 const std::string& upper = "%c4") {
  return "    %t0 = make_token : token\n"
         "    %r = for %i in (%c0 to " +
         upper + ", step %c1) : tile<i32> iter_values(%tok = %t0) -> (token) {\n" + body + "      continue " +
         carried + " : token\n    }\n";
}

TEST(Races, LoopOverTheInductionVariableIsNoRaceWithItself) {
  EXPECT_TRUE(silent(kernelP(loop(loadV("l", "i", "tok") + storeV("ts", "i", "l")))));
  EXPECT_TRUE(silent(kernelP(loop(storeV("ts", "i"), "%t0"))));  // tile %i in iteration %i only
}

TEST(Races, LoadAndStoreOfOneIterationNeedAToken) {
  std::string text = kernelP(loop(loadV("l", "i", "tok") + storeV("ts", "i", "tok")));
  Found f = only(text);
  EXPECT_NE(
      f.diag.message.find("'store_view_tko' and the 'load_view_tko' at line 12 both access tile (%i) of %pv"),
      std::string::npos);
  EXPECT_EQ(f.diag.fixes[0].title, "wait for the 'load_view_tko' at line 12 (join it with %tok)");
  fixedText(text, f);
}

TEST(Races, FixedTileInALoopNeedsACarriedToken) {
  std::string text = kernelP(loop(storeV("ts", "c1", "tok") + "      %f = make_token : token\n", "%f"));
  Found f = only(text);
  EXPECT_EQ(f.diag.message,
            "'store_view_tko' writes tile (1) of %pv in different iterations of the loop at line 11, and no "
            "token carried "
            "from one iteration to the next orders the writes");
  EXPECT_EQ(f.noteLines, std::vector<uint32_t>{kFirst + 1});
  EXPECT_EQ(f.diag.notes[0].message,
            "the loop: carry a token through its iter_values to order its iterations");
  EXPECT_TRUE(silent(kernelP(loop(storeV("ts", "c1", "tok")))));
}

TEST(Races, ReadAheadIsOneIterationApart) {
  std::string body = "      %n = addi %i, %c1 : tile<i32>\n" + loadV("l", "n", "t0") + storeV("ts", "i", "l");
  Found f = only(kernelP(loop(body, "%ts", "%c2")));
  EXPECT_EQ(f.diag.message,
            "'store_view_tko' (tile (%i) of %pv) and the 'load_view_tko' at line 13 (tile (%i + 1) of %pv) "
            "access the same "
            "tile 1 iteration apart in the loop at line 11 and one of them writes, but no token carried from "
            "one iteration "
            "to the next orders them");
  EXPECT_TRUE(silent(
      kernelP(loop("      %n = addi %i, %c1 : tile<i32>\n" + loadV("l", "n", "tok") + storeV("ts", "i", "l"),
                   "%ts", "%c2"))));
}

TEST(Races, HalfTheInductionVariableMayRepeat) {
  Found f = only(kernelP(loop("      %h = divi %i, %c2 signed : tile<i32>\n" + storeV("ts", "h"), "%t0")));
  EXPECT_EQ(f.diag.severity, Severity::Warning);
  EXPECT_NE(f.diag.message.find(
                "'store_view_tko' may write the same memory (tile (%h) of %pv) in different iterations"),
            std::string::npos);
}

TEST(Races, OneTripIsNoLoop) {
  std::string text = kernelP("    for %i in (%c0 to %c1, step %c1) : tile<i32> {\n" + storeV("ts", "c1") +
                             "      continue\n    }\n");
  EXPECT_TRUE(silent(text));
}

// --- tile blocks ----------------------------------------------------------------------------

const std::string kIds = "    %bx, %by, %bz = get_tile_block_id : tile<i32>\n";

TEST(Races, BlocksConflictOnlyWithAKnownGrid) {
  std::string text = kernelP(kIds + "    %h = divi %bx, %c2 signed : tile<i32>\n" + storeV("s", "h"));
  EXPECT_TRUE(silent(text));
  EXPECT_TRUE(silent(text, grid(1)));
  Found f = only(text, grid(4));
  EXPECT_EQ(f.diag.message,
            "'store_view_tko' in tile blocks (0, 0, 0) and (1, 0, 0) (--grid=4,1,1) both access tile (0) of "
            "%pv and both "
            "write; tokens order accesses only within one tile block, and weak accesses cannot communicate "
            "between blocks");
  ASSERT_EQ(f.diag.notes.size(), 1u);
  EXPECT_EQ(f.diag.notes[0].message, "%h selects the same tile in both tile blocks");
  EXPECT_EQ(f.noteLines, std::vector<uint32_t>{kFirst + 1});
  EXPECT_TRUE(silent(kernelP(kIds + storeV("s", "bx")), grid(4)));
  EXPECT_TRUE(silent(kernelP(kIds + storeV("s", "by")), grid(1, 4)));
}

TEST(Races, BlocksThatShareTheYIndex) {
  // A 2x2 grid storing tile %by: blocks (0, 0, 0) and (1, 0, 0) both store tile 0.
  Found f = only(kernelP(kIds + storeV("s", "by")), grid(2, 2));
  EXPECT_NE(f.diag.message.find("tile blocks (0, 0, 0) and (1, 0, 0) (--grid=2,2,1) both access tile (0)"),
            std::string::npos);
}

// A store in each arm of an `if` whose condition comes from memory: one of
// the two runs whichever arm is taken, so when both write the same tile the
// conflict between blocks is certain. One arm alone, or arms that write
// different tiles, is only possible.
TEST(Races, BlocksStoreInEitherArmOfAnIf) {
  auto text = [](const std::string& thenIndex, const std::string& elseIndex) {
    return kernel("%p: tile<ptr<f32>>, %q: tile<ptr<i32>>",
                  kView + kIds +
                      "    %cv, %ct = load_ptr_tko weak %q : tile<ptr<i32>> -> tile<i32>, token\n"
                      "    %cz = constant <i32: 0> : tile<i32>\n"
                      "    %cond = cmpi equal %cv, %cz, signed : tile<i32> -> tile<i1>\n"
                      "    if %cond {\n" +
                      storeV("s1", thenIndex) + "      yield\n    } else {\n" +
                      (elseIndex.empty() ? "" : storeV("s2", elseIndex)) + "      yield\n    }\n");
  };
  Analysis both = run(text("c1", "c1"), grid(2));
  auto r = races(both);
  ASSERT_EQ(r.size(), 1u);  // on the first twin only
  EXPECT_EQ(r[0]->severity, Severity::Error);
  EXPECT_EQ(lineOf(text("c1", "c1"), r[0]->range.begin), 15u);
  EXPECT_EQ(r[0]->message,
            "'store_view_tko' (or the one at line 18 in the other arm of the 'if' at line 14, whichever runs) in "
            "tile blocks (0, 0, 0) and (1, 0, 0) (--grid=2,1,1) both access tile (1) of %pv and both write; tokens "
            "order accesses only within one tile block, and weak accesses cannot communicate between blocks");
  for (auto [t, e] : {std::pair<std::string, std::string>{"c1", ""}, {"c1", "c2"}}) {
    Analysis one = run(text(t, e), grid(2));
    auto ro = races(one);
    ASSERT_FALSE(ro.empty());
    for (const Diagnostic* d : ro) {
      EXPECT_EQ(d->severity, Severity::Warning) << d->message;
      EXPECT_NE(d->message.find("may both access"), std::string::npos) << d->message;
      EXPECT_EQ(d->message.find("other arm"), std::string::npos) << d->message;
    }
  }
}

// An unordered pair in one tile block is certain only when both run: a store
// in a `while` on a loaded flag may not run (a warning naming the loop); a
// `while i < 4` from 0 certainly enters its body (an error).
TEST(Races, SameRunPairThatMayNotRun) {
  auto text = [](const std::string& go) {
    return kernel("%p: tile<ptr<f32>>, %q: tile<ptr<i32>>",
                  kView + "    %flag, %tf = load_ptr_tko weak %q : tile<ptr<i32>> -> tile<i32>, token\n" +
                      storeV("s0", "c1") +
                      "    %r = loop iter_values(%i = %c0) : tile<i32> -> tile<i32> {\n"
                      "      %go = cmpi less_than %" + go + ", %c4, signed : tile<i32> -> tile<i1>\n"
                      "      if %go {\n        yield\n      } else {\n        break %i : tile<i32>\n      }\n"
                      "  " + storeV("s1", "c1") +
                      "      %n = addi %i, %c1 : tile<i32>\n      continue %n : tile<i32>\n    }\n");
  };
  // The pair with the store before the loop (the store in the loop also races with itself across iterations).
  auto pair = [](const Analysis& a) -> const Diagnostic* {
    for (const Diagnostic* d : races(a))
      if (d->message.starts_with("'store_view_tko' and the 'store_view_tko' at line 11")) return d;
    return nullptr;
  };
  Analysis onFlag = run(text("flag")), onCounter = run(text("i"));
  const Diagnostic* loaded = pair(onFlag);
  ASSERT_NE(loaded, nullptr);
  EXPECT_EQ(loaded->severity, Severity::Warning);
  EXPECT_EQ(loaded->message,
            "'store_view_tko' and the 'store_view_tko' at line 11 both access tile (1) of %pv when both run (whether "
            "the 'loop' at line 12 runs them is not known) and both write, but no token orders them");
  const Diagnostic* counted = pair(onCounter);
  ASSERT_NE(counted, nullptr);
  EXPECT_EQ(counted->severity, Severity::Error);
  EXPECT_EQ(counted->message,
            "'store_view_tko' and the 'store_view_tko' at line 11 both access tile (1) of %pv and both write, but no "
            "token orders them (program order does not order token-ordered operations)");
}

// A scatter through row numbers loaded from an index array that no op of the
// kernel writes: two blocks that load the same entries store to the same
// elements, whatever the entries hold (cuTile's MoE scatter with a wrong
// block id). Certain without a mask; with one that is not known, possible.
TEST(Races, BlocksScatterThroughTheSameLoadedRows) {
  auto text = [](const std::string& block, const std::string& mask, const std::string& alsoStore) {
    return kernel("%p: tile<ptr<f32>>, %q: tile<ptr<i32>>",
                  kView + kIds + "    %h = divi %bx, %c2 signed : tile<i32>\n" +
                      "    %c16 = constant <i32: 16> : tile<i32>\n"
                      "    %base = muli %" + block + ", %c16 : tile<i32>\n"
                      "    %io = iota : tile<16xi32>\n"
                      "    %b1 = reshape %base : tile<i32> -> tile<1xi32>\n"
                      "    %bb = broadcast %b1 : tile<1xi32> -> tile<16xi32>\n"
                      "    %ix = addi %bb, %io : tile<16xi32>\n"
                      "    %q1 = reshape %q : tile<ptr<i32>> -> tile<1xptr<i32>>\n"
                      "    %qb = broadcast %q1 : tile<1xptr<i32>> -> tile<16xptr<i32>>\n"
                      "    %qp = offset %qb, %ix : tile<16xptr<i32>>, tile<16xi32> -> tile<16xptr<i32>>\n"
                      "    %rows, %t1 = load_ptr_tko weak %qp : tile<16xptr<i32>> -> tile<16xi32>, token\n" +
                      alsoStore +
                      "    %p1 = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>\n"
                      "    %pb = broadcast %p1 : tile<1xptr<f32>> -> tile<16xptr<f32>>\n"
                      "    %pp = offset %pb, %rows : tile<16xptr<f32>>, tile<16xi32> -> tile<16xptr<f32>>\n"
                      "    %lim = constant <i32: 100> : tile<16xi32>\n"
                      "    %m = cmpi less_than %rows, %lim, signed : tile<16xi32> -> tile<16xi1>\n"
                      "    %s = store_ptr_tko weak %pp, %x" + (mask.empty() ? "" : std::string(", %") + mask) +
                      " : tile<16xptr<f32>>, tile<16xf32>" + (mask.empty() ? "" : ", tile<16xi1>") + " -> token\n");
  };
  Found f = only(text("h", "", ""), grid(4));
  EXPECT_EQ(f.diag.severity, Severity::Error);
  EXPECT_EQ(f.diag.message,
            "'store_ptr_tko' in tile blocks (0, 0, 0) and (1, 0, 0) (--grid=4,1,1) both access the same elements "
            "of %p (what selects them is computed from the same values in both: %base = 0, and from memory that "
            "no op of the kernel writes) and both write; tokens order accesses only within one tile block, and "
            "weak accesses cannot communicate between blocks");
  ASSERT_EQ(f.diag.notes.size(), 1u);
  EXPECT_EQ(f.diag.notes[0].message, "%pp points at the same element in both tile blocks");
  Found masked = only(text("h", "m", ""), grid(4));
  EXPECT_EQ(masked.diag.severity, Severity::Warning);
  EXPECT_NE(masked.diag.message.find("may both access the same elements of %p (what selects them is computed "
                                     "from the same values in both: %base = 0, and from memory that no op of the "
                                     "kernel writes) if any lane of its mask is set (the mask is the same in "
                                     "both, but not known) and both write"),
            std::string::npos)
      << masked.diag.message;
  EXPECT_TRUE(silent(text("bx", "", ""), grid(4)));  // each block its own rows
  EXPECT_TRUE(silent(text("h", "", ""), grid(1)));
  // The kernel writes the index array: the rows may differ between blocks.
  std::string writesRows =
      "    %w = store_ptr_tko weak %qp, %ix token = %t1 : tile<16xptr<i32>>, tile<16xi32> -> token\n";
  Analysis a = run(text("bx", "", writesRows), grid(4));
  for (const Diagnostic* d : races(a)) EXPECT_EQ(d->message.find("'store_ptr_tko' in tile blocks"), 0u) << d->message;
  for (const Diagnostic* d : races(a)) EXPECT_EQ(d->message.find("of %p "), std::string::npos) << d->message;
}

// A persistent `loop` over tiles from the block id: stepping by the grid
// size, the blocks never meet; stepping by one, block 0's second iteration
// is block 1's first (whether the loop gets there is not known: a warning).
// Through a view whose base pointer int_to_ptr makes from a loaded word, as
// cuTile's lists of arrays do; the loop carries the store's token, as cuTile's
// while loops do.
TEST(Races, PersistentLoopStepsByOneInsteadOfTheGrid) {
  auto text = [](const std::string& step) {
    return kernel("%list: tile<ptr<i64>>, %q: tile<ptr<i32>>",
                  "    %c1 = constant <i32: 1> : tile<i32>\n    %c4 = constant <i32: 4> : tile<i32>\n"
                  "    %x = constant <f32: 1.0> : tile<16xf32>\n" +
                      kIds +
                      "    %word, %t0 = load_ptr_tko weak %list : tile<ptr<i64>> -> tile<i64>, token\n"
                      "    %base = int_to_ptr %word : tile<i64> -> tile<ptr<f32>>\n"
                      "    %tv = make_tensor_view %base, shape = [64], strides = [1] : tensor_view<64xf32, "
                      "strides=[1]>\n"
                      "    %pv = make_partition_view %tv : " +
                      kPV +
                      "\n"
                      "    %n, %t1 = load_ptr_tko weak %q : tile<ptr<i32>> -> tile<i32>, token\n"
                      "    %r, %rt = loop iter_values(%i = %bx, %tok = %t1) : tile<i32>, token -> tile<i32>, token {\n"
                      "      %go = cmpi less_than %i, %n, signed : tile<i32> -> tile<i1>\n"
                      "      if %go {\n        yield\n      } else {\n        break %i, %tok : tile<i32>, token\n      }\n"
                      "      %s = store_view_tko weak %x, %pv[%i] token = %tok : tile<16xf32>, " +
                      kPV +
                      ", tile<i32> -> token\n"
                      "      %next = addi %i, %" +
                      step +
                      " : tile<i32>\n"
                      "      continue %next, %s : tile<i32>, token\n    }\n");
  };
  EXPECT_TRUE(silent(text("c4"), grid(4)));
  Found f = only(text("c1"), grid(4));
  EXPECT_EQ(f.diag.severity, Severity::Warning);
  EXPECT_NE(f.diag.message.find("'store_view_tko' in tile blocks (0, 0, 0) and (1, 0, 0) (--grid=4,1,1) may both "
                                "access the same tile of %pv (what selects them is computed from the same values "
                                "in both: %i = 1, and from memory that no op of the kernel writes) if both get "
                                "there (a branch or a loop exit on the way is not known) and both write"),
            std::string::npos)
      << f.diag.message;
}

// A pointer int_to_ptr makes inside a loop may be another array in each
// iteration (a list of arrays walked by the loop): the same tile through it in
// two iterations is not the same memory. Made before the loop, it is.
TEST(Races, LooseRootDefinedInTheLoopIsNotOneMemory) {
  auto text = [](bool inside) {
    std::string make = "    %word, %tw = load_view_tko weak %lv[%g] : partition_view<tile=(1), tensor_view<4xi64, "
                       "strides=[1]>>, tile<i32> -> tile<1xi64>, token\n"
                       "    %w0 = reshape %word : tile<1xi64> -> tile<i64>\n"
                       "    %base = int_to_ptr %w0 : tile<i64> -> tile<ptr<f32>>\n"
                       "    %tv = make_tensor_view %base, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>\n"
                       "    %pv = make_partition_view %tv : " + kPV + "\n";
    std::string before = inside ? "" : "    %g = constant <i32: 0> : tile<i32>\n" + make;
    return kernel("%list: tile<ptr<i64>>",
                  "    %ltv = make_tensor_view %list, shape = [4], strides = [1] : tensor_view<4xi64, strides=[1]>\n"
                  "    %lv = make_partition_view %ltv : partition_view<tile=(1), tensor_view<4xi64, strides=[1]>>\n"
                  "    %c0 = constant <i32: 0> : tile<i32>\n    %c1 = constant <i32: 1> : tile<i32>\n"
                  "    %c4 = constant <i32: 4> : tile<i32>\n    %x = constant <f32: 1.0> : tile<16xf32>\n" +
                      before + "    for %k in (%c0 to %c4, step %c1) : tile<i32> {\n" +
                      (inside ? "    %g = addi %k, %c0 : tile<i32>\n" + make : "") +
                      "      %s = store_view_tko weak %x, %pv[%c0] : tile<16xf32>, " + kPV +
                      ", tile<i32> -> token\n      continue\n    }\n");
  };
  EXPECT_TRUE(silent(text(true)));
  Found f = only(text(false));
  EXPECT_NE(f.diag.message.find("writes tile (0) of %pv"), std::string::npos) << f.diag.message;
}

// --- race.scope -------------------------------------------------------------------------------

TEST(Races, BlockScopedAtomicAcrossBlocks) {
  std::string text = kernel("%p: tile<ptr<i32>>",
                            "    %c1 = constant <i32: 1> : tile<i32>\n"
                            "    %o, %t = atomic_rmw_tko relaxed tl_blk %p, add, %c1 : tile<ptr<i32>>, "
                            "tile<i32> -> tile<i32>, token");
  EXPECT_TRUE(silent(text));
  Found f = only(text, grid(2));
  EXPECT_EQ(f.diag.code, "race.scope");
  EXPECT_EQ(f.diag.message,
            "'atomic_rmw_tko' in tile blocks (0, 0, 0) and (1, 0, 0) (--grid=2,1,1) both access element 0 of "
            "%p, but the "
            "'atomic_rmw_tko' has scope tl_blk, which covers only the tile block that runs it: its relaxed "
            "access does not "
            "communicate with the other tile block");
  ASSERT_EQ(f.diag.notes.size(), 1u);
  EXPECT_EQ(f.diag.notes[0].message, "tl_blk: only the tile block that runs this 'atomic_rmw_tko'");
  EXPECT_EQ(text.substr(f.diag.notes[0].range.begin, 6), "tl_blk");
  ASSERT_EQ(f.diag.fixes.size(), 1u);
  EXPECT_EQ(f.diag.fixes[0].title, "use scope device");
  std::string fixed = fixedText(text, f, grid(2));
  EXPECT_NE(fixed.find("atomic_rmw_tko relaxed device %p"), std::string::npos);
}

TEST(Races, ReleaseWithBlockScopeAcquireWithDevice) {
  std::string text =
      kernel("%f: tile<ptr<i32>>",
             "    %c1 = constant <i32: 1> : tile<i32>\n"
             "    %ts = store_ptr_tko release tl_blk %f, %c1 : tile<ptr<i32>>, tile<i32> -> token\n"
             "    %v, %tl = load_ptr_tko acquire device %f token = %ts : tile<ptr<i32>> -> tile<i32>, token");
  Analysis a = run(text, grid(2));
  auto r = races(a);
  ASSERT_EQ(r.size(), 2u);  // the stores of two blocks, and a store and a load
  for (const Diagnostic* d : r) {
    EXPECT_EQ(d->code, "race.scope");
    EXPECT_NE(d->message.find("the 'store_ptr_tko' has scope tl_blk"), std::string::npos);
  }
  EXPECT_TRUE(silent(applied(text, r[1]->fixes.at(0)), grid(2)));
}

// --- options and robustness -----------------------------------------------------------------

TEST(Races, AssumeAliasing) {
  std::string text = kernel("%p: tile<ptr<f32>>, %q: tile<ptr<f32>>",
                            "    %x = constant <f32: 1.0> : tile<f32>\n"
                            "    %v, %t = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token\n"
                            "    %s = store_ptr_tko weak %q, %x : tile<ptr<f32>>, tile<f32> -> token");
  CheckOptions o;
  o.assumeAliasing = true;
  Found f = only(text, o);
  EXPECT_EQ(f.diag.severity, Severity::Warning);
  EXPECT_NE(f.diag.message.find("(%p and %q, which may point to the same memory)"), std::string::npos);
  fixedText(text, f, o);
}

// With --assume-aliasing the entry arguments shared a group whose key was
// ~0, DenseMap's empty key: a global next to an entry argument crashed
// (found by scripts/mutate_check.py).
TEST(Races, AssumeAliasingNextToAGlobal) {
  std::string text =
      "cuda_tile.module @m {\n"
      "  global @count <i32: [0]> : tile<1xi32>\n"
      "  entry @k(%lock: tile<ptr<i32>>) {\n"
      "    %g = get_global @count : tile<ptr<i32>>\n"
      "    %c0 = constant <i32: 0> : tile<i32>\n"
      "    %c1 = constant <i32: 1> : tile<i32>\n"
      "    %old, %t = atomic_rmw_tko relaxed device %g, add, %c1 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token\n"
      "    %o2, %t2 = atomic_cas_tko acq_rel device %lock, %c0, %c1 token = %t : tile<ptr<i32>>, tile<i32> -> "
      "tile<i32>, token\n"
      "    return\n"
      "  }\n"
      "}\n";
  CheckOptions o;
  o.assumeAliasing = true;
  EXPECT_TRUE(silent(text, o));
}

TEST(Races, CodesTurnedOff) {
  std::string text = kernelP(storeV("s", "c1") + loadV("l", "c1"));
  CheckOptions off;
  off.disabled = {"race"};
  EXPECT_TRUE(silent(text, off));
  off.disabled = {"race.scope"};
  EXPECT_EQ(races(run(text, off)).size(), 1u);
}

TEST(Races, BrokenProgramsStaySilent) {
  // An undefined token, an undefined view, a missing index type: other codes report them.
  for (const std::string& body :
       {storeV("s", "c1") + loadV("l", "c1", "nope"), storeV("s", "c1") + loadV("l", "c9"),
        storeV("s", "c1") + "    %v, %l = load_view_tko weak %qv[%c1] : " + kPV +
            " -> tile<16xf32>, token\n"}) {
    Analysis a = run(kernelP(body));
    EXPECT_GT(a.errorCount(), 0u);
    EXPECT_TRUE(races(a).empty()) << races(a).front()->message;
  }
}

// A view over a tensor view that did not resolve (found by the parser fuzzer:
// the footprint's source key read value kNoId).
TEST(Races, ViewOverAnUndefinedTensorView) {
  std::string body = "    %pv = make_partition_view %undefined : " + kPV + "\n" +
                     "    %c0 = constant <i32: 0> : tile<i32>\n    %x = constant <f32: 1.0> : tile<16xf32>\n" +
                     storeV("s", "c0") + loadV("l", "c0");
  Analysis a = run(kernelP(body));
  EXPECT_GT(a.errorCount(), 0u);  // the undefined value
}

// A 50,000-op kernel: 12,500 load, compute, store rounds through one view,
// each round ordered after the previous one, then the same without tokens on
// distinct tiles. Quadratic pair work would take minutes.
TEST(Races, FiftyThousandOps) {
  std::string body =
      "    %tv = make_tensor_view %p, shape = [16384], strides = [1] : tensor_view<16384xf32, strides=[1]>\n"
      "    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<16384xf32, strides=[1]>>\n"
      "    %t0 = make_token : token\n";
  std::string view = "partition_view<tile=(16), tensor_view<16384xf32, strides=[1]>>";
  const int rounds = 6250;
  for (int k = 0; k < 2 * rounds; ++k) {
    std::string n = std::to_string(k), prev = k == 0 ? "t0" : "s" + std::to_string(k - 1);
    std::string tok = k < rounds ? " token = %" + prev : "";
    body += "    %c" + n + " = constant <i32: " + std::to_string(k % 1024) + "> : tile<i32>\n";
    body += "    %v" + n + ", %l" + n + " = load_view_tko weak %pv[%c" + n + "]" + tok + " : " + view +
            ", tile<i32> -> tile<16xf32>, token\n";
    body += "    %w" + n + " = addf %v" + n + ", %v" + n + " : tile<16xf32>\n";
    body += "    %s" + n + " = store_view_tko weak %w" + n + ", %pv[%c" + n + "] token = %l" + n +
            " : tile<16xf32>, " + view + ", tile<i32> -> token\n";
  }
  std::string text = kernel("%p: tile<ptr<f32>>", body);
  auto start = std::chrono::steady_clock::now();
  Analysis a = run(text);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // In the unordered half, each load waits for nothing and each store only
  // for its own load: both race with the previous store of their tile.
  EXPECT_EQ(races(a).size(), 2u * rounds);
  EXPECT_EQ(a.errorCount(), 2u * rounds);
  EXPECT_LT(seconds, 20.0);
}

}  // namespace
