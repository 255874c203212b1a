#pragma once
// Building blocks of the fixes attached to diagnostics: the one known word a
// misspelling most likely meant, and the edits that replace, insert or
// delete text.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/diag/diagnostic.h"

namespace tilesight {

// The candidate `word` most likely meant: one equal to it but for case, else
// the single closest by edit distance when it is close enough to be a typo
// (about a third of the word, at most 3 edits). nullopt when none is, or two tie.
std::optional<std::string_view> closestWord(std::string_view word, const std::vector<std::string_view>& candidates);

Fix replaceFix(Range r, std::string text, std::string title);
Fix insertFix(uint32_t at, std::string text, std::string title);
// `replace with 'text'`.
Fix replaceWithFix(Range r, std::string text);

// The start of the blanks before `offset` on its line, so deleting from there
// removes a word together with the space that separated it.
uint32_t blanksBefore(std::string_view text, uint32_t offset);

// `check --fix`: the text with the fix of every diagnostic that carries
// exactly one (several are alternatives for the author to choose from),
// skipping a fix whose edits overlap one taken before. `applied` counts
// the fixes taken.
std::string applyUnambiguousFixes(std::string_view text, const std::vector<Diagnostic>& diags, size_t& applied);

}  // namespace tilesight
