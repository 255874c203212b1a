#pragma once
// Links from a diagnostic code to its section of docs/checks.md (LSP
// Diagnostic.codeDescription), as a file:// URI of the installed docs
// (<prefix>/share/doc/tilesight) or, in a build tree, of the source docs.
#include <optional>
#include <string>
#include <string_view>

namespace tilesight::lsp {

// Nothing when no checks.md can be found.
std::optional<std::string> checkDocUrl(std::string_view code);

} // namespace tilesight::lsp
