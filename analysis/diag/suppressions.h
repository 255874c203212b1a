#pragma once
// Inline suppressions (DESIGN §3): `// tilesight: ignore CODE[, CODE...]` at
// the end of a line silences those codes on that line; on a line of its own,
// on the next line. No code: every code. A suppression (or one code of it)
// that silences nothing is reported as `suppression.unused`. In a cuTile
// Python file (docs/cutile.md) the comment is `# tilesight: ignore ...`.
#include <functional>
#include <string_view>
#include <vector>

#include "analysis/diag/diagnostic.h"

namespace tilesight {

// Removes from `diags` (sorted by position) what the text's suppressions
// silence and adds a `suppression.unused` warning for each that silenced
// nothing, in position order. `enabled` says whether a code is turned on: a
// suppression of a turned-off code is not called unused, and no warning is
// added when `suppression.unused` itself is off, nor when `judgeUse` is false
// (the analysis did not see the whole program: `check --fix` must not remove
// a suppression that may be needed).
enum class CommentSyntax { TileIR, Python };  // `//` or `#` comments
void applySuppressions(std::string_view text, std::vector<Diagnostic>& diags,
                       const std::function<bool(std::string_view)>& enabled, bool judgeUse = true,
                       CommentSyntax syntax = CommentSyntax::TileIR);

}  // namespace tilesight
