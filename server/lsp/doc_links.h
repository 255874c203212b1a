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
// A file of the docs (`user-guide.md`), nothing when the docs are not found.
std::optional<std::string> docUrl(std::string_view file);
// A file:// URI of an absolute path, every byte but RFC 3986's unreserved
// characters and '/' percent-encoded.
std::string fileUri(std::string_view path);
// The same encoding of a relative path (a URI reference).
std::string percentEncodePath(std::string_view path);
// A URI's path with its %XX escapes decoded.
std::string percentDecode(std::string_view path);

} // namespace tilesight::lsp
