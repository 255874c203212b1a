#include "analysis/syntax/keywords.h"

#include "analysis/ir/types.h"

namespace tilesight {

const KeywordSet* keywordSet(std::string_view kind) {
  static const KeywordSet ord{"a memory ordering", "", {"weak", "relaxed", "acquire", "release", "acq_rel"}};
  static const KeywordSet scope{"a memory scope", "", {"tl_blk", "device", "sys"}};
  static const KeywordSet sign{"signedness", "", {"signed", "unsigned"}};
  static const KeywordSet pred{"a comparison predicate", "",
                               {"equal", "not_equal", "less_than", "less_than_or_equal", "greater_than",
                                "greater_than_or_equal"}};
  static const KeywordSet cmpord{"a comparison ordering", "", {"ordered", "unordered"}};
  static const KeywordSet atomic{"an atomic mode", "",
                                 {"and", "or", "xor", "add", "addf", "max", "min", "umax", "umin", "xchg"}};
  static const KeywordSet rounding{"rounding", "rounding",
                                   {"nearest_even", "zero", "negative_inf", "positive_inf", "approx", "full",
                                    "nearest_int_to_zero"}};
  static const KeywordSet overflow{"overflow", "overflow", {"none", "no_signed_wrap", "no_unsigned_wrap", "no_wrap"}};
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

}  // namespace tilesight
