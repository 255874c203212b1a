#include "analysis/ir/keywords.h"

#include <cctype>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/types.h"

namespace tilesight {

namespace {
template <class E>
std::vector<std::string_view> wordsOf() {
  llvm::ArrayRef<std::string_view> names = keywordNames<E>();
  return {names.begin(), names.end()};
}
}  // namespace

const KeywordSet* keywordSet(std::string_view kind) {
  static const KeywordSet ord{"a memory ordering", "", wordsOf<MemoryOrdering>()};
  static const KeywordSet scope{"a memory scope", "", wordsOf<MemoryScope>()};
  static const KeywordSet sign{"signedness", "", wordsOf<Signedness>()};
  static const KeywordSet pred{"a comparison predicate", "", wordsOf<Predicate>()};
  static const KeywordSet cmpord{"a comparison ordering", "", wordsOf<CmpOrdering>()};
  static const KeywordSet atomic{"an atomic mode", "", wordsOf<AtomicMode>()};
  static const KeywordSet rounding{"rounding", "rounding", wordsOf<Rounding>()};
  static const KeywordSet overflow{"overflow", "overflow", wordsOf<Overflow>()};
  if (kind == "ord") return &ord;
  if (kind == "scope" || kind == "scope?") return &scope;
  if (kind == "sign") return &sign;
  if (kind == "pred") return &pred;
  if (kind == "cmpord") return &cmpord;
  if (kind == "atomic") return &atomic;
  if (kind.starts_with("rnd")) return &rounding;
  if (kind == "ovf") return &overflow;
  return nullptr;
}

const std::vector<std::string_view>& cudaTileTypeNames() {
  static const std::vector<std::string_view> names{"tile", "ptr", "token", "tensor_view", "partition_view",
                                                   "strided_view", "gather_scatter_view"};
  return names;
}

const std::vector<std::string_view>& elementTypeNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    // Every element of the spec; `index` is builtin only.
    for (auto e = static_cast<unsigned>(Elem::I1); e < static_cast<unsigned>(Elem::Index); ++e)
      out.push_back(elemName(static_cast<Elem>(e)));
    return out;
  }();
  return names;
}

bool isTypeKeyword(std::string_view w) {
  for (std::string_view t : cudaTileTypeNames())
    if (w == t) return true;
  return elemFromName(w).has_value() || w == "none" || w == "tensor" || w == "vector" || w == "memref" ||
         (w.size() > 1 && w[0] == 'i' && std::isdigit(static_cast<unsigned char>(w[1])));
}

const KeywordSet& paddingValues() {
  static const KeywordSet set = [] {
    KeywordSet s{"a padding value", "", {}};
    for (auto p = static_cast<unsigned>(Padding::Zero); p <= static_cast<unsigned>(Padding::NegInf); ++p)
      s.words.push_back(paddingName(static_cast<Padding>(p)));
    return s;
  }();
  return set;
}

const KeywordSet& assumePredicates() {
  static const KeywordSet set{"an assume predicate", "", {"div_by", "same_elements", "bounded"}};
  return set;
}

namespace {
struct IdentTable {
  bool ident[256] = {};
  constexpr IdentTable() {
    for (int c = '0'; c <= '9'; ++c) ident[c] = true;
    for (int c = 'a'; c <= 'z'; ++c) ident[c] = true;
    for (int c = 'A'; c <= 'Z'; ++c) ident[c] = true;
    ident[static_cast<unsigned char>('_')] = ident[static_cast<unsigned char>('$')] = ident[static_cast<unsigned char>('.')] = true;
  }
};
constexpr IdentTable kIdent;
}  // namespace

bool isIdentChar(char c) { return kIdent.ident[static_cast<unsigned char>(c)]; }

}  // namespace tilesight
