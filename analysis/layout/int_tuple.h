#pragma once
// IntTuple: an integer or a tuple of IntTuples (CuTe's int_tuple.hpp).
// Shapes, strides and coordinates are IntTuples; all functions are pure.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace tilesight::layout {

class IntTuple {
public:
  IntTuple(int64_t v = 0) : leaf_(true), v_(v) {}  // NOLINT: implicit from integers on purpose
  static IntTuple tuple(std::vector<IntTuple> elems);
  static IntTuple tuple(std::initializer_list<IntTuple> elems) { return tuple(std::vector<IntTuple>(elems)); }

  bool isLeaf() const { return leaf_; }
  int64_t value() const { return v_; }                     // leaves only
  const std::vector<IntTuple>& elems() const { return elems_; }  // tuples only
  size_t rank() const { return leaf_ ? 1 : elems_.size(); }
  const IntTuple& operator[](size_t i) const { return leaf_ ? *this : elems_[i]; }  // mode i
  bool operator==(const IntTuple& o) const;
  bool operator!=(const IntTuple& o) const { return !(*this == o); }

private:
  bool leaf_ = true;
  int64_t v_ = 0;
  std::vector<IntTuple> elems_;
};

int64_t product(const IntTuple& t);                      // size of a shape; product(()) = 1
int depth(const IntTuple& t);                            // leaf 0, tuple 1 + max depth
std::vector<int64_t> leaves(const IntTuple& t);          // flattened values, in order
IntTuple flatten(const IntTuple& t);                     // a rank-r tuple of leaves (a leaf stays a leaf)
bool congruent(const IntTuple& a, const IntTuple& b);    // same profile
bool weaklyCongruent(const IntTuple& a, const IntTuple& b);
IntTuple prefixProduct(const IntTuple& t, int64_t init = 1);  // exclusive, congruent to t
IntTuple replaceLeaves(const IntTuple& profile, const std::vector<int64_t>& values);  // same profile, new leaves
std::string toString(const IntTuple& t);                 // (4,(2,2)) — no spaces, as CuTe prints
int64_t ceilDiv(int64_t a, int64_t b);  // for positive b
// Saturating arithmetic: sizes and offsets that overflow become INT64_MAX (or
// INT64_MIN), which every bound check then rejects, instead of wrapping.
int64_t satMul(int64_t a, int64_t b);
int64_t satAdd(int64_t a, int64_t b);
int64_t innerProduct(const IntTuple& a, const IntTuple& b);  // congruent a and b
// CuTe's shape_div: divides a by b mode by mode, left to right; nullopt when
// neither of two integers divides the other.
std::optional<IntTuple> shapeDiv(const IntTuple& a, const IntTuple& b);

}  // namespace tilesight::layout
