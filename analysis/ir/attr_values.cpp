#include "analysis/ir/attr_values.h"

#include "analysis/ir/ir.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/op_table.h"

namespace tilesight {

template <>
llvm::ArrayRef<std::string_view> keywordNames<Signedness>() {
  static constexpr std::string_view k[] = {"signed", "unsigned"};
  return k;
}
template <>
llvm::ArrayRef<std::string_view> keywordNames<Rounding>() {
  static constexpr std::string_view k[] = {"nearest_even", "zero", "negative_inf",       "positive_inf",
                                           "approx",       "full", "nearest_int_to_zero"};
  return k;
}
template <>
llvm::ArrayRef<std::string_view> keywordNames<Predicate>() {
  static constexpr std::string_view k[] = {"equal",        "not_equal",
                                           "less_than",    "less_than_or_equal",
                                           "greater_than", "greater_than_or_equal"};
  return k;
}
template <>
llvm::ArrayRef<std::string_view> keywordNames<CmpOrdering>() {
  static constexpr std::string_view k[] = {"ordered", "unordered"};
  return k;
}
template <>
llvm::ArrayRef<std::string_view> keywordNames<MemoryOrdering>() {
  static constexpr std::string_view k[] = {"weak", "relaxed", "acquire", "release", "acq_rel"};
  return k;
}
template <>
llvm::ArrayRef<std::string_view> keywordNames<MemoryScope>() {
  static constexpr std::string_view k[] = {"tl_blk", "device", "sys"};
  return k;
}
template <>
llvm::ArrayRef<std::string_view> keywordNames<Overflow>() {
  static constexpr std::string_view k[] = {"none", "no_signed_wrap", "no_unsigned_wrap", "no_wrap"};
  return k;
}
template <>
llvm::ArrayRef<std::string_view> keywordNames<AtomicMode>() {
  static constexpr std::string_view k[] = {"and", "or", "xor", "add", "addf", "max", "min", "umax", "umin", "xchg"};
  return k;
}

template <class E>
std::optional<E> attrValue(const Operation& op, std::string_view name) {
  if (const Attr* a = op.attr(name)) return a->kind == AttrKind::Keyword ? keywordValue<E>(a->s) : std::nullopt;
  std::string_view d = op.info ? op.info->attrDefault(name) : std::string_view();
  return d.empty() ? std::nullopt : keywordValue<E>(d);
}

template std::optional<Signedness> attrValue(const Operation&, std::string_view);
template std::optional<Rounding> attrValue(const Operation&, std::string_view);
template std::optional<Predicate> attrValue(const Operation&, std::string_view);
template std::optional<CmpOrdering> attrValue(const Operation&, std::string_view);
template std::optional<MemoryOrdering> attrValue(const Operation&, std::string_view);
template std::optional<MemoryScope> attrValue(const Operation&, std::string_view);
template std::optional<Overflow> attrValue(const Operation&, std::string_view);
template std::optional<AtomicMode> attrValue(const Operation&, std::string_view);

std::optional<Signedness> signednessOf(const Operation& op) { return attrValue<Signedness>(op, attr_names::signedness); }

std::optional<Rounding> roundingOf(const Operation& op) {
  bool divi = op.info && op.info->kind == OpKind::Divi;
  return attrValue<Rounding>(op, divi ? attr_names::rounding : attr_names::roundingMode);
}

std::optional<Predicate> predicateOf(const Operation& op) {
  return attrValue<Predicate>(op, attr_names::comparisonPredicate);
}

std::optional<MemoryOrdering> orderingOf(const Operation& op) {
  return attrValue<MemoryOrdering>(op, attr_names::memoryOrderingSemantics);
}

std::optional<MemoryScope> scopeOf(const Operation& op) { return attrValue<MemoryScope>(op, attr_names::memoryScope); }

Overflow overflowOf(const Operation& op) { return attrValue<Overflow>(op, attr_names::overflow).value_or(Overflow::None); }


}  // namespace tilesight
