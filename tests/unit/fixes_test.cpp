// Fixes attached to diagnostics: each one, applied, removes its diagnostic,
// and where the rest of the program is right, leaves no error at all.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

using namespace tilesight;
using namespace tilesight::testing;

namespace {

std::string func(const std::string& args, const std::string& body) {
  return "cuda_tile.module @m {\n  testing$func @f(" + args + ") {\n" + body + "\n    return\n  }\n}\n";
}

std::string applied(std::string text, const Fix& f) {
  std::vector<TextEdit> edits = f.edits;
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.range.begin > b.range.begin; });
  for (const TextEdit& e : edits) text.replace(e.range.begin, e.range.end - e.range.begin, e.newText);
  return text;
}

const Diagnostic* withMessage(const Analysis& a, std::string_view part) {
  for (const Diagnostic& d : a.diagnostics)
    if (d.message.find(part) != std::string::npos) return &d;
  return nullptr;
}

struct Fixed {
  std::string title;
  std::string text;          // the program after the fix
  std::vector<std::string> errors;  // what is left
};

// Applies each fix of the diagnostic whose message contains `message`, and
// checks that the fixed program no longer reports it.
std::vector<Fixed> applyEach(const std::string& text, std::string_view message) {
  Analysis before = analyze(text);
  const Diagnostic* d = withMessage(before, message);
  if (!d) {
    ADD_FAILURE() << "no diagnostic contains '" << message << "'";
    return {};
  }
  std::vector<Fixed> out;
  for (const Fix& f : d->fixes) {
    std::string fixed = applied(text, f);
    Analysis after = analyze(fixed);
    EXPECT_EQ(withMessage(after, message), nullptr) << "after '" << f.title << "':\n" << fixed;
    out.push_back({f.title, fixed, messages(after)});
  }
  return out;
}

// The one fix of `message`, which must leave a program without errors.
Fixed onlyFix(const std::string& text, std::string_view message) {
  std::vector<Fixed> fixes = applyEach(text, message);
  if (fixes.size() != 1) {
    ADD_FAILURE() << fixes.size() << " fixes for '" << message << "'";
    return {};
  }
  EXPECT_TRUE(fixes[0].errors.empty()) << fixes[0].errors.front() << "\n" << fixes[0].text;
  return fixes[0];
}

std::vector<std::string> titles(const std::vector<Fixed>& fixes) {
  std::vector<std::string> out;
  for (const Fixed& f : fixes) out.push_back(f.title);
  return out;
}

const std::string kAdd = "    %x = addi %a, %a : tile<i32>";

}  // namespace

TEST(Fixes, MisspelledOpName) {
  Fixed f = onlyFix(func("%a: tile<i32>", "    %x = subbi %a, %a : tile<i32>"), "unknown operation 'subbi'");
  EXPECT_EQ(f.title, "replace with 'subi'");
  EXPECT_NE(f.text.find("%x = subi %a"), std::string::npos);
}

TEST(Fixes, OtherDialectPrefixBecomesCudaTile) {
  Fixed f = onlyFix(func("%a: tile<i32>", "    %x = arith.addi %a, %a : tile<i32>"), "unknown operation 'arith.addi'");
  EXPECT_EQ(f.title, "replace with 'cuda_tile.addi'");
}

TEST(Fixes, NoGuessForFarOrAmbiguousOpNames) {
  // Nothing is close to frobnicate; addx is as close to addi as to addf.
  EXPECT_TRUE(applyEach(func("%a: tile<i32>", "    %x = frobnicate %a : tile<i32>"), "unknown operation").empty());
  EXPECT_TRUE(applyEach(func("%a: tile<i32>", "    %x = addx %a, %a : tile<i32>"), "unknown operation").empty());
}

TEST(Fixes, MisspelledValueName) {
  std::string body = "    %value = addi %a, %a : tile<i32>\n    %y = addi %vaule, %a : tile<i32>";
  Fixed f = onlyFix(func("%a: tile<i32>", body), "undefined value '%vaule'");
  EXPECT_EQ(f.title, "replace with '%value'");
  // A short name is not a typo of another short name.
  EXPECT_TRUE(applyEach(func("%a: tile<i32>", "    %y = addi %b, %a : tile<i32>"), "undefined value").empty());
}

TEST(Fixes, ValueNamesOfOtherFunctionsAreNotSuggested) {
  std::string text =
      "cuda_tile.module @m {\n  testing$func @f(%value: tile<i32>) {\n    return\n  }\n"
      "  testing$func @g(%a: tile<i32>) {\n    %y = addi %vaule, %a : tile<i32>\n    return\n  }\n}\n";
  EXPECT_TRUE(applyEach(text, "undefined value '%vaule'").empty());
}

TEST(Fixes, MissingColonBeforeTheType) {
  Fixed f = onlyFix(func("%a: tile<i32>", "    %x = addi %a, %a tile<i32>"), "expected ':', found 'tile'");
  EXPECT_EQ(f.title, "insert ':'");
  EXPECT_NE(f.text.find("%x = addi %a, %a : tile<i32>"), std::string::npos);
}

TEST(Fixes, MissingCommaBetweenOperands) {
  Fixed f = onlyFix(func("%a: tile<i32>", "    %x = addi %a %a : tile<i32>"), "expected ',', found '%a'");
  EXPECT_NE(f.text.find("%x = addi %a, %a : tile<i32>"), std::string::npos);
}

TEST(Fixes, MissingClosingAngleAtTheEndOfTheLine) {
  std::string body = "    %w = constant <i32: 1> : tile<i32\n" + kAdd;
  Fixed f = onlyFix(func("%a: tile<i32>", body), "expected '>', found '%x'");
  EXPECT_EQ(f.title, "insert '>'");
  EXPECT_NE(f.text.find(": tile<i32>\n"), std::string::npos);
}

TEST(Fixes, MissingClosingParenBeforeTheColon) {
  std::string body =
      "    %r = for %i in (%a to %a, step %a : tile<i32> iter_values(%acc = %a) -> (tile<i32>) {\n"
      "      continue %acc : tile<i32>\n    }";
  Fixed f = onlyFix(func("%a: tile<i32>", body), "expected ')', found ':'");
  EXPECT_NE(f.text.find("step %a) : tile<i32>"), std::string::npos);
}

TEST(Fixes, NoInsertionWhenTheNextTokenDoesNotFit) {
  // A missing ':' at the end of the line needs a type as well: no fix.
  EXPECT_TRUE(applyEach(func("%a: tile<i32>", "    %x = addi %a, %a\n" + kAdd), "expected ':'").empty());
}

TEST(Fixes, MisspelledElementType) {
  Fixed f = onlyFix(func("%a: tile<f32>", "    %x = addf %a, %a : tile<f33>"), "'f33' is not a Tile IR element type");
  EXPECT_EQ(f.title, "replace with 'f32'");
  Fixed c = onlyFix(func("%a: tile<4xf8E4M3FN>", "    %x = ftof %a : tile<4xf8E4M3FN> -> tile<4xf8e5m2>"),
                    "'f8e5m2' is not a Tile IR element type");
  EXPECT_EQ(c.title, "replace with 'f8E5M2'");
}

TEST(Fixes, MisspelledCudaTileTypeName) {
  Fixed f = onlyFix(func("%a: !cuda_tile.tiel<i32>", kAdd), "unknown cuda_tile type 'tiel'");
  EXPECT_EQ(f.title, "replace with 'tile'");
  EXPECT_NE(f.text.find("%a: !cuda_tile.tile<i32>"), std::string::npos);
}

TEST(Fixes, MisspelledAttributeKeywords) {
  std::string cmp = "    %c = cmpi equl %a, %a, signed : tile<i32> -> tile<i1>";
  EXPECT_EQ(onlyFix(func("%a: tile<i32>", cmp), "expected a comparison predicate").title, "replace with 'equal'");
  std::string sign = "    %c = cmpi equal %a, %a, unsinged : tile<i32> -> tile<i1>";
  EXPECT_EQ(onlyFix(func("%a: tile<i32>", sign), "expected signedness").title, "replace with 'unsigned'");
  std::string load = "    %v, %t = load_ptr_tko relaxd device %p : tile<ptr<f32>> -> tile<f32>, token";
  EXPECT_EQ(onlyFix(func("%p: tile<ptr<f32>>", load), "expected a memory ordering").title, "replace with 'relaxed'");
  std::string scope = "    %v, %t = load_ptr_tko relaxed devce %p : tile<ptr<f32>> -> tile<f32>, token";
  EXPECT_EQ(onlyFix(func("%p: tile<ptr<f32>>", scope), "expected a memory scope").title, "replace with 'device'");
  std::string rounding = "    %x = addf %a, %a rounding<zeroo> : tile<f32>";
  EXPECT_EQ(onlyFix(func("%a: tile<f32>", rounding), "expected rounding").title, "replace with 'zero'");
  std::string overflow = "    %x = addi %a, %a overflow<no_wrapp> : tile<i32>";
  EXPECT_EQ(onlyFix(func("%a: tile<i32>", overflow), "expected overflow").title, "replace with 'no_wrap'");
}

TEST(Fixes, MisspelledAssumePredicate) {
  Fixed f = onlyFix(func("%a: tile<i32>", "    %x = assume div_bi<16>, %a : tile<i32>"), "unknown assume predicate");
  EXPECT_EQ(f.title, "replace with 'div_by'");
}

TEST(Fixes, MisspelledPaddingValue) {
  std::string tv = "tensor_view<64xf32, strides=[1]>";
  std::string body = "    %tv = make_tensor_view %p, shape = [64], strides = [1] : " + tv +
                     "\n    %v = make_partition_view %tv : partition_view<tile=(16), padding_value = zeor, " + tv + ">";
  Fixed f = onlyFix(func("%p: tile<ptr<f32>>", body), "unknown padding_value 'zeor'");
  EXPECT_EQ(f.title, "replace with 'zero'");
}

TEST(Fixes, LoadOrderingThatOnlyStoresHave) {
  std::string load = "    %v, %t = load_ptr_tko release device %p : tile<ptr<f32>> -> tile<f32>, token";
  std::vector<Fixed> fixes = applyEach(func("%p: tile<ptr<f32>>", load), "a load cannot have 'release' ordering");
  EXPECT_EQ(titles(fixes), (std::vector<std::string>{"replace with 'relaxed'", "replace with 'acquire'"}));
  for (const Fixed& f : fixes) EXPECT_TRUE(f.errors.empty()) << f.text;
  // Without a scope only weak is valid.
  std::string bare = "    %v, %t = load_ptr_tko acq_rel %p : tile<ptr<f32>> -> tile<f32>, token";
  EXPECT_EQ(onlyFix(func("%p: tile<ptr<f32>>", bare), "a load cannot have 'acq_rel'").title, "replace with 'weak'");
}

TEST(Fixes, WeakAccessWithAScope) {
  std::string store = "    %t = store_ptr_tko weak device %p, %x : tile<ptr<f32>>, tile<f32> -> token";
  Fixed f = onlyFix(func("%p: tile<ptr<f32>>, %x: tile<f32>", store), "a weak store takes no memory scope");
  EXPECT_EQ(f.title, "remove the memory scope");
  EXPECT_NE(f.text.find("store_ptr_tko weak %p"), std::string::npos);
}

TEST(Fixes, WeakAtomic) {
  std::string rmw = "    %r, %t = atomic_rmw_tko weak device %p, add, %x : tile<ptr<i32>>, tile<i32> -> tile<i32>, token";
  std::vector<Fixed> fixes = applyEach(func("%p: tile<ptr<i32>>, %x: tile<i32>", rmw), "atomics cannot be weak");
  EXPECT_EQ(titles(fixes), (std::vector<std::string>{"replace with 'relaxed'", "replace with 'acquire'",
                                                     "replace with 'release'", "replace with 'acq_rel'"}));
  for (const Fixed& f : fixes) EXPECT_TRUE(f.errors.empty()) << f.text;
}

TEST(Fixes, ExtensionThatNarrowsIsATruncation) {
  std::string body = "    %e = cuda_tile.exti %x signed : tile<i32> -> tile<i16>";
  Fixed f = onlyFix(func("%x: tile<i32>", body), "extension must widen");
  EXPECT_EQ(f.title, "replace with 'trunci'");
  EXPECT_NE(f.text.find("%e = cuda_tile.trunci %x : tile<i32> -> tile<i16>"), std::string::npos);
  // Equal widths: neither op fits, no fix.
  EXPECT_TRUE(applyEach(func("%x: tile<i32>", "    %e = exti %x signed : tile<i32> -> tile<i32>"), "extension").empty());
}

TEST(Fixes, TruncationThatWidensIsAnExtension) {
  std::string body = "    %e = trunci %x overflow<no_wrap> : tile<i16> -> tile<i32>";
  std::vector<Fixed> fixes = applyEach(func("%x: tile<i16>", body), "truncation must narrow");
  ASSERT_EQ(titles(fixes), (std::vector<std::string>{"replace with 'exti' (signed)", "replace with 'exti' (unsigned)"}));
  EXPECT_NE(fixes[0].text.find("%e = exti %x signed : tile<i16> -> tile<i32>"), std::string::npos);
  EXPECT_NE(fixes[1].text.find("%e = exti %x unsigned : tile<i16>"), std::string::npos);
  for (const Fixed& f : fixes) EXPECT_TRUE(f.errors.empty()) << f.text;
  Fixed plain = applyEach(func("%x: tile<i16>", "    %e = trunci %x : tile<i16> -> tile<i32>"), "truncation")[0];
  EXPECT_NE(plain.text.find("%e = exti %x signed : tile<i16>"), std::string::npos);
}

TEST(Fixes, UnsupportedConversionRounding) {
  std::string body = "    %y = ftof %x rounding<zero> : tile<f32> -> tile<f16>";
  Fixed f = onlyFix(func("%x: tile<f32>", body), "rounding<zero> is not supported for float conversions");
  EXPECT_EQ(f.title, "replace with 'rounding<nearest_even>'");
}
