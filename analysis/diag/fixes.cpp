#include "analysis/diag/fixes.h"

#include <algorithm>

#include <llvm/ADT/StringRef.h>

namespace tilesight {

std::optional<std::string_view> closestWord(std::string_view word, const std::vector<std::string_view>& candidates) {
  llvm::StringRef w(word.data(), word.size());
  for (std::string_view c : candidates)
    if (w.equals_insensitive(llvm::StringRef(c.data(), c.size()))) return c;
  // Short words are too close to too much: `%i` is not a typo of `%a`.
  if (word.size() < 3) return std::nullopt;
  unsigned limit = std::min<unsigned>(static_cast<unsigned>(word.size() + 2) / 3, 3);
  std::optional<std::string_view> best;
  unsigned bestDistance = limit + 1;
  bool tie = false;
  for (std::string_view c : candidates) {
    unsigned d = w.edit_distance(llvm::StringRef(c.data(), c.size()), true, limit);
    if (d > limit) continue;
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
      tie = false;
    } else if (d == bestDistance && c != *best) {
      tie = true;
    }
  }
  return tie ? std::nullopt : best;
}

Fix replaceFix(Range r, std::string text, std::string title) { return {std::move(title), {{r, std::move(text)}}}; }

Fix insertFix(uint32_t at, std::string text, std::string title) {
  return {std::move(title), {{{at, at}, std::move(text)}}};
}

Fix replaceWithFix(Range r, std::string text) {
  std::string title = "replace with '" + text + "'";
  return replaceFix(r, std::move(text), std::move(title));
}

uint32_t blanksBefore(std::string_view text, uint32_t offset) {
  while (offset > 0 && (text[offset - 1] == ' ' || text[offset - 1] == '\t')) --offset;
  return offset;
}

}  // namespace tilesight
