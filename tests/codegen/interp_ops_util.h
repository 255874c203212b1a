#pragma once
// Helpers for the per-op interpreter tests (interp_*_test.cpp): the store
// boilerplate that writes a computed tile to an entry's pointer argument,
// one-output runs, and exact comparisons of float bit patterns. Expected
// values in those tests are written out by hand; nothing here computes one.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/codegen/interp_test_util.h"

namespace tilesight::testing {

// The number of elements of a shape written as in a tile type ("" for a
// scalar, "8", "2x4").
inline int64_t shapeCount(const std::string& shape) {
  int64_t n = 1;
  size_t at = 0;
  while (at < shape.size()) {
    size_t x = shape.find('x', at);
    n *= std::stoll(shape.substr(at, x == std::string::npos ? std::string::npos : x - at));
    if (x == std::string::npos) break;
    at = x + 1;
  }
  return n;
}

// Ops that store tile `value` (shape e.g. "2x4", "" for a scalar; element
// `elem`) to consecutive elements of the array at scalar pointer `ptr`,
// starting `at` elements in. Names of the helper values derive from both.
inline std::string store(const std::string& value, const std::string& shape, const std::string& elem,
                         const std::string& ptr = "%out", int at = 0) {
  std::string p = "tile<ptr<" + elem + ">>";
  std::string id = value.substr(1) + "_" + ptr.substr(1) + "_" + std::to_string(at);
  if (shape.empty() && at == 0)
    return "    %" + id + "_t = store_ptr_tko weak " + ptr + ", " + value + " : " + p + ", tile<" + elem + "> -> token\n";
  std::string n = std::to_string(shapeCount(shape));
  std::string v = value, s;
  if (shape.empty() || shape.find('x') != std::string::npos) {  // flatten to 1-D first
    v = "%" + id + "_flat";
    s += "    " + v + " = reshape " + value + " : tile<" + (shape.empty() ? "" : shape + "x") + elem + "> -> tile<" + n +
         "x" + elem + ">\n";
  }
  std::string pn = "tile<" + n + "xptr<" + elem + ">>";
  s += "    %" + id + "_p1 = reshape " + ptr + " : " + p + " -> tile<1xptr<" + elem + ">>\n";
  s += "    %" + id + "_pb = broadcast %" + id + "_p1 : tile<1xptr<" + elem + ">> -> " + pn + "\n";
  s += "    %" + id + "_i = iota : tile<" + n + "xi32>\n";
  std::string offsets = "%" + id + "_i";
  if (at != 0) {
    s += "    %" + id + "_c = constant <i32: " + std::to_string(at) + "> : tile<" + n + "xi32>\n";
    s += "    %" + id + "_o = addi %" + id + "_i, %" + id + "_c : tile<" + n + "xi32>\n";
    offsets = "%" + id + "_o";
  }
  s += "    %" + id + "_pp = offset %" + id + "_pb, " + offsets + " : " + pn + ", tile<" + n + "xi32> -> " + pn + "\n";
  s += "    %" + id + "_t = store_ptr_tko weak %" + id + "_pp, " + v + " : " + pn + ", tile<" + n + "x" + elem +
       "> -> token\n";
  return s;
}

// Ops that load `n` consecutive elements at scalar pointer `ptr` into the
// 1-D tile `result` (tile<n x elem>).
inline std::string load(const std::string& result, int64_t n, const std::string& elem, const std::string& ptr) {
  std::string id = result.substr(1);
  std::string pn = "tile<" + std::to_string(n) + "xptr<" + elem + ">>";
  std::string s;
  s += "    %" + id + "_p1 = reshape " + ptr + " : tile<ptr<" + elem + ">> -> tile<1xptr<" + elem + ">>\n";
  s += "    %" + id + "_pb = broadcast %" + id + "_p1 : tile<1xptr<" + elem + ">> -> " + pn + "\n";
  s += "    %" + id + "_i = iota : tile<" + std::to_string(n) + "xi32>\n";
  s += "    %" + id + "_pp = offset %" + id + "_pb, %" + id + "_i : " + pn + ", tile<" + std::to_string(n) + "xi32> -> " +
       pn + "\n";
  s += "    " + result + ", %" + id + "_t = load_ptr_tko weak %" + id + "_pp : " + pn + " -> tile<" + std::to_string(n) +
       "x" + elem + ">, token\n";
  return s;
}

// Ops that gather scalar tiles (tile<elem>) into the 1-D tile `result` of
// their count (2 or 4), in order.
inline std::string gather(const std::string& result, const std::vector<std::string>& scalars, const std::string& elem) {
  std::string id = result.substr(1), s;
  std::vector<std::string> parts;
  for (size_t i = 0; i < scalars.size(); ++i) {
    parts.push_back("%" + id + "_e" + std::to_string(i));
    s += "    " + parts.back() + " = reshape " + scalars[i] + " : tile<" + elem + "> -> tile<1x" + elem + ">\n";
  }
  for (size_t n = 1; parts.size() > 1; n *= 2) {
    std::vector<std::string> next;
    std::string t = "tile<" + std::to_string(n) + "x" + elem + ">";
    std::string t2 = "tile<" + std::to_string(2 * n) + "x" + elem + ">";
    for (size_t i = 0; i + 1 < parts.size(); i += 2) {
      next.push_back(parts.size() == 2 ? result : "%" + id + "_c" + std::to_string(n) + "_" + std::to_string(i));
      s += "    " + next.back() + " = cat " + parts[i] + ", " + parts[i + 1] + " dim = 0 : " + t + ", " + t + " -> " + t2 + "\n";
    }
    parts = next;
  }
  return s;
}

// Whether the program verified and ran; the failure message carries the text.
inline void expectRan(const RunResult& r, const std::string& program) {
  EXPECT_TRUE(r.verified) << r.reasons << "\n" << program;
  EXPECT_TRUE(r.outcome.ok) << r.outcome.fault << "\n" << program;
}

// Runs `body` in an entry whose only argument is %out: tile<ptr<elem>>, an
// array of `count` zeroed T; returns the array afterwards.
template <class T>
std::vector<T> runOut(const std::string& elem, size_t count, const std::string& body) {
  std::string program = kernel("%out: tile<ptr<" + elem + ">>", body);
  std::vector<Arg> args{Arg::zeros(count * sizeof(T))};
  RunResult r = runProgram(program, args);
  expectRan(r, program);
  return args[0].as<T>();
}

inline uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline uint64_t bitsOf(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
inline float f32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline double f64(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

// Element-by-element bit equality (so -0.0 differs from +0.0), with a
// message naming the element; a NaN in `want` accepts any NaN.
template <class T>
void expectBits(const std::vector<T>& got, const std::vector<T>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(want[i]))
        EXPECT_TRUE(std::isnan(got[i])) << "element " << i << ": " << got[i] << " is not a NaN";
      else
        EXPECT_EQ(bitsOf(got[i]), bitsOf(want[i])) << "element " << i << ": " << got[i] << " vs " << want[i];
    } else {
      EXPECT_EQ(got[i], want[i]) << "element " << i;
    }
  }
}

// The same for 16-bit float patterns (f16 when !bf16): kNaN16 in `want`
// accepts any NaN of the format.
constexpr uint16_t kNaN16 = 0xFFFF;
inline void expectHalf(const std::vector<uint16_t>& got, const std::vector<uint16_t>& want, bool bf16 = false) {
  ASSERT_EQ(got.size(), want.size());
  uint16_t exp = bf16 ? 0x7F80 : 0x7C00;
  for (size_t i = 0; i < got.size(); ++i) {
    if (want[i] == kNaN16)
      EXPECT_TRUE((got[i] & exp) == exp && (got[i] & ~exp & 0x7FFF)) << "element " << i << ": 0x" << std::hex << got[i];
    else
      EXPECT_EQ(got[i], want[i]) << "element " << i << ": 0x" << std::hex << got[i] << " vs 0x" << want[i];
  }
}

}  // namespace tilesight::testing
