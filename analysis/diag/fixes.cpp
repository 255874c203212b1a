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

std::string applyUnambiguousFixes(std::string_view text, const std::vector<Diagnostic>& diags, size_t& applied) {
  applied = 0;
  std::vector<TextEdit> taken;
  auto overlaps = [&](const TextEdit& e) {
    // Edits that merely touch count too: two insertions at one point would
    // be ordered arbitrarily. A skipped fix is left for the next run.
    return std::any_of(taken.begin(), taken.end(), [&](const TextEdit& t) {
      return e.range.begin <= t.range.end && t.range.begin <= e.range.end;
    });
  };
  for (const Diagnostic& d : diags) {
    if (d.fixes.size() != 1) continue;
    const std::vector<TextEdit>& edits = d.fixes[0].edits;
    bool fits = std::all_of(edits.begin(), edits.end(), [&](const TextEdit& e) {
      return e.range.begin <= e.range.end && e.range.end <= text.size() && !overlaps(e);
    });
    if (!fits || edits.empty()) continue;
    taken.insert(taken.end(), edits.begin(), edits.end());
    ++applied;
  }
  std::sort(taken.begin(), taken.end(), [](const TextEdit& a, const TextEdit& b) { return a.range.begin < b.range.begin; });
  std::string out;
  out.reserve(text.size());
  uint32_t at = 0;
  for (const TextEdit& e : taken) {
    out.append(text.substr(at, e.range.begin - at)).append(e.newText);
    at = e.range.end;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace tilesight
