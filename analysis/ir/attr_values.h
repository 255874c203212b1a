#pragma once
// Typed values of the keyword attributes that change what an op computes,
// one enum per keyword set. The names, in enum order, are the single list the
// parser accepts (syntax/keywords.cpp builds its sets from them), so a value
// read here is always one the parser let through.
#include <cstdint>
#include <optional>
#include <string_view>

#include <llvm/ADT/ArrayRef.h>

namespace tilesight {

struct Operation;

enum class Signedness : uint8_t { Signed, Unsigned };
enum class Rounding : uint8_t { NearestEven, Zero, NegativeInf, PositiveInf, Approx, Full, NearestIntToZero };
enum class Predicate : uint8_t { Equal, NotEqual, LessThan, LessThanOrEqual, GreaterThan, GreaterThanOrEqual };
enum class CmpOrdering : uint8_t { Ordered, Unordered };
enum class MemoryOrdering : uint8_t { Weak, Relaxed, Acquire, Release, AcqRel };
enum class MemoryScope : uint8_t { TlBlk, Device, Sys };
enum class Overflow : uint8_t { None, NoSignedWrap, NoUnsignedWrap, NoWrap };
enum class AtomicMode : uint8_t { And, Or, Xor, Add, AddF, Max, Min, UMax, UMin, Xchg };

// The spellings of E's values, in enum order.
template <class E>
llvm::ArrayRef<std::string_view> keywordNames();

template <class E>
std::optional<E> keywordValue(std::string_view word) {
  llvm::ArrayRef<std::string_view> names = keywordNames<E>();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == word) return static_cast<E>(i);
  return std::nullopt;
}

template <class E>
std::string_view keywordName(E e) {
  return keywordNames<E>()[static_cast<size_t>(e)];
}

// Attribute `name` of `op` as a value of E: as written, else the default the
// op table's format gives it (`@rounding:rnd_divi=zero`); nullopt when neither
// (absent and without a default, or not a keyword of E).
template <class E>
std::optional<E> attrValue(const Operation& op, std::string_view name);

// The attributes the interpreter and the checks ask for, by their op table names.
std::optional<Signedness> signednessOf(const Operation& op);       // signedness
std::optional<Rounding> roundingOf(const Operation& op);           // rounding (divi), rounding_mode
std::optional<Predicate> predicateOf(const Operation& op);         // comparison_predicate
std::optional<MemoryOrdering> orderingOf(const Operation& op);     // memory_ordering_semantics
std::optional<MemoryScope> scopeOf(const Operation& op);           // memory_scope (absent on weak ops)
Overflow overflowOf(const Operation& op);                          // overflow, none when absent

}  // namespace tilesight
