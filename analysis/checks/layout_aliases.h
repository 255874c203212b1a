#pragma once
// `#name = #layout<EXPR [, expect = ...]>` aliases in tile programs (DESIGN §4):
// each is evaluated with the layout library; a broken rule is `layout.invalid`
// at the exact column, a false claim is `layout.claim` with the witness.
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/diag/diagnostic.h"
#include "analysis/layout/expr.h"
#include "analysis/layout/value.h"
#include "analysis/syntax/parser.h"

namespace tilesight {

struct LayoutAliasFact {
  std::string_view name;  // #name
  Range nameRange;
  Range bodyRange;        // the text between `#layout<` and `>`
  layout::Value value;
  layout::Properties properties;
};

// Evaluated #layout aliases by what decides their value: the expression's
// text and the values of the aliases it names. An editor gives one cache to
// every analysis of a document, so an edit elsewhere in the file does not
// evaluate and decide them again (a deep composition costs seconds). Only
// decided results are kept; thread-safe.
class LayoutAliasCache {
public:
  struct Entry {
    layout::LayoutAttr attr;
    layout::Properties properties;
  };
  std::optional<Entry> find(const std::string& key) const;
  void put(const std::string& key, Entry e);
  size_t hits() const;  // lookups that found an entry (tests)

private:
  static constexpr size_t kMaxEntries = 4096;  // past it, the cache starts over
  mutable std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;
  mutable size_t hits_ = 0;
};

// Evaluates every #layout alias of a chunk in definition order (later aliases
// may use earlier ones); appends the facts of the ones that evaluated. Their
// properties are decided within `budget`; a claim that could not be decided
// within it is a remark that says so, never an error. With a cache, an alias
// whose text and named aliases are unchanged is not evaluated again (its
// recorded work is still charged to `budget`, so later decisions get what
// they would have got).
void checkLayoutAliases(const ParseResult& parsed, DiagSink& diags, std::vector<LayoutAliasFact>& facts,
                        layout::WorkBudget& budget, LayoutAliasCache* cache = nullptr);

}  // namespace tilesight
