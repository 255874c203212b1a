#pragma once
// Helpers for the layout algebra tests: layouts written as CuTe text, and
// comparisons modulo the strides of size-1 modes (implementations differ there).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

#include "analysis/layout/layout.h"

namespace tilesight::layout::test {

// "(4,(2,-2))" -> IntTuple. Test data only: the text is trusted.
inline IntTuple parseTuple(std::string_view& s) {
  if (s.front() == '(') {
    std::vector<IntTuple> elems;
    char sep = '(';
    while (sep != ')') {
      s.remove_prefix(1);
      elems.push_back(parseTuple(s));
      sep = s.front();
    }
    s.remove_prefix(1);
    return IntTuple::tuple(std::move(elems));
  }
  size_t n = 0;
  while (n < s.size() && (s[n] == '-' || (s[n] >= '0' && s[n] <= '9'))) ++n;
  int64_t v = std::stoll(std::string(s.substr(0, n)));
  s.remove_prefix(n);
  return IntTuple(v);
}

inline IntTuple tup(std::string_view s) { return parseTuple(s); }

// "shape:stride", or a shape alone for its compact column-major layout.
inline Layout lay(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) return compactColMajor(tup(text));
  return {tup(text.substr(0, colon)), tup(text.substr(colon + 1))};
}

// A by-mode tiler: "_" keeps a mode.
inline Tiler byMode(std::initializer_list<std::string_view> entries) {
  Tiler t;
  t.kind = Tiler::ByMode;
  for (std::string_view e : entries) {
    Tiler m;
    if (e == "_")
      m.kind = Tiler::Keep;
    else
      m = tilerOf(lay(e));
    t.modes.push_back(m);
  }
  return t;
}

// The strides of size-1 modes do not matter: set them to 0.
inline Layout normalized(const Layout& l) {
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == 1) d[i] = 0;
  return {l.shape, replaceLeaves(l.stride, d)};
}

// Same size and the same offsets (the first 2^16 of them).
inline bool sameFunction(const Layout& a, const Layout& b) {
  return size(a) == size(b) && offsets(a, 1 << 16) == offsets(b, 1 << 16);
}

// The flat modes without size-1 modes, for results the reference prints with
// extra size-1 modes or a different nesting of them.
inline std::vector<std::pair<int64_t, int64_t>> essentialModes(const Layout& l) {
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  std::vector<std::pair<int64_t, int64_t>> out;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] != 1) out.emplace_back(s[i], d[i]);
  return out;
}

// The same function, and equal text once size-1 strides are normalised (or,
// with dropUnitModes, the same flat modes once size-1 modes are dropped).
inline ::testing::AssertionResult matches(const Expected<Layout>& got, std::string_view want, bool dropUnitModes) {
  if (!got) return ::testing::AssertionFailure() << "error: " << got.error().text() << " (wanted " << want << ")";
  Layout w = lay(want);
  bool same = dropUnitModes ? essentialModes(*got) == essentialModes(w) : normalized(*got) == normalized(w);
  if (!same || !sameFunction(*got, w))
    return ::testing::AssertionFailure() << "got " << toString(*got) << ", wanted " << want;
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult sameLayout(const Expected<Layout>& got, std::string_view want) {
  return matches(got, want, false);
}

inline ::testing::AssertionResult sameModuloUnitModes(const Expected<Layout>& got, std::string_view want) {
  return matches(got, want, true);
}

inline ::testing::AssertionResult failsWith(const Expected<Layout>& got, std::string_view rule) {
  if (got) return ::testing::AssertionFailure() << "got " << toString(*got) << ", wanted the error " << rule;
  if (got.error().rule.find(rule) == std::string::npos)
    return ::testing::AssertionFailure() << "error " << got.error().text() << ", wanted " << rule;
  return ::testing::AssertionSuccess();
}

}  // namespace tilesight::layout::test
