#include "analysis/layout/int_tuple.h"

#include <algorithm>
#include <cstdint>

namespace tilesight::layout {

IntTuple IntTuple::tuple(std::vector<IntTuple> elems) {
  IntTuple t;
  t.leaf_ = false;
  t.elems_ = std::move(elems);
  return t;
}

bool IntTuple::operator==(const IntTuple& o) const {
  if (leaf_ != o.leaf_) return false;
  return leaf_ ? v_ == o.v_ : elems_ == o.elems_;
}

int64_t satMul(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_mul_overflow(a, b, &r)) return r;
  return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
}

int64_t satAdd(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return a < 0 ? INT64_MIN : INT64_MAX;
}

int64_t product(const IntTuple& t) {
  if (t.isLeaf()) return t.value();
  int64_t p = 1;
  for (const auto& e : t.elems()) p = satMul(p, product(e));
  return p;
}

int depth(const IntTuple& t) {
  if (t.isLeaf()) return 0;
  int d = 0;
  for (const auto& e : t.elems()) d = std::max(d, depth(e));
  return 1 + d;
}

static void collect(const IntTuple& t, std::vector<int64_t>& out) {
  if (t.isLeaf()) {
    out.push_back(t.value());
    return;
  }
  for (const auto& e : t.elems()) collect(e, out);
}

std::vector<int64_t> leaves(const IntTuple& t) {
  std::vector<int64_t> out;
  collect(t, out);
  return out;
}

IntTuple flatten(const IntTuple& t) {
  if (t.isLeaf()) return t;
  std::vector<IntTuple> out;
  for (int64_t v : leaves(t)) out.emplace_back(v);
  return IntTuple::tuple(std::move(out));
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.isLeaf() || b.isLeaf()) return a.isLeaf() && b.isLeaf();
  if (a.rank() != b.rank()) return false;
  for (size_t i = 0; i < a.rank(); ++i)
    if (!congruent(a[i], b[i])) return false;
  return true;
}

bool weaklyCongruent(const IntTuple& a, const IntTuple& b) {
  if (a.isLeaf()) return true;
  if (b.isLeaf() || a.rank() != b.rank()) return false;
  for (size_t i = 0; i < a.rank(); ++i)
    if (!weaklyCongruent(a[i], b[i])) return false;
  return true;
}

static IntTuple prefixImpl(const IntTuple& t, int64_t& acc) {
  if (t.isLeaf()) {
    IntTuple r(acc);
    acc = satMul(acc, t.value());
    return r;
  }
  std::vector<IntTuple> out;
  for (const auto& e : t.elems()) out.push_back(prefixImpl(e, acc));
  return IntTuple::tuple(std::move(out));
}

IntTuple prefixProduct(const IntTuple& t, int64_t init) {
  int64_t acc = init;
  return prefixImpl(t, acc);
}

static IntTuple replaceImpl(const IntTuple& p, const std::vector<int64_t>& v, size_t& i) {
  if (p.isLeaf()) return IntTuple(i < v.size() ? v[i++] : 0);
  std::vector<IntTuple> out;
  for (const auto& e : p.elems()) out.push_back(replaceImpl(e, v, i));
  return IntTuple::tuple(std::move(out));
}

IntTuple replaceLeaves(const IntTuple& profile, const std::vector<int64_t>& values) {
  size_t i = 0;
  return replaceImpl(profile, values, i);
}

std::string toString(const IntTuple& t) {
  if (t.isLeaf()) return std::to_string(t.value());
  std::string s = "(";
  for (size_t i = 0; i < t.rank(); ++i) s += (i ? "," : "") + toString(t[i]);
  return s + ")";
}

// Without the usual (a + b - 1) / b, which overflows for a near INT64_MAX.
int64_t ceilDiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return a == INT64_MIN ? INT64_MAX : -a;  // INT64_MIN / -1 overflows; saturate
  int64_t q = a / b;
  return q + (a % b != 0 && (a > 0) == (b > 0));
}

int64_t innerProduct(const IntTuple& a, const IntTuple& b) {
  if (a.isLeaf()) return satMul(a.value(), b.isLeaf() ? b.value() : product(b));
  int64_t r = 0;
  for (size_t i = 0; i < a.rank() && i < b.rank(); ++i) r = satAdd(r, innerProduct(a[i], b[i]));
  return r;
}

std::optional<IntTuple> shapeDiv(const IntTuple& a, const IntTuple& b) {
  if (a.isLeaf() && b.isLeaf()) {
    if (b.value() == 0 || (a.value() % b.value() != 0 && b.value() % a.value() != 0)) return std::nullopt;
    return IntTuple(ceilDiv(a.value(), b.value()));
  }
  if (a.isLeaf()) return shapeDiv(a, IntTuple(product(b)));
  std::vector<IntTuple> out;
  if (b.isLeaf()) {  // fold left: each mode consumes what it can of b
    int64_t rest = b.value();
    for (const auto& m : a.elems()) {
      auto r = shapeDiv(m, IntTuple(rest));
      if (!r) return std::nullopt;
      out.push_back(*r);
      auto next = shapeDiv(IntTuple(rest), IntTuple(product(m)));
      if (!next) return std::nullopt;
      rest = next->value();
    }
    return IntTuple::tuple(std::move(out));
  }
  if (a.rank() != b.rank()) return std::nullopt;
  for (size_t i = 0; i < a.rank(); ++i) {
    auto r = shapeDiv(a[i], b[i]);
    if (!r) return std::nullopt;
    out.push_back(*r);
  }
  return IntTuple::tuple(std::move(out));
}

}  // namespace tilesight::layout
