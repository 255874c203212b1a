#pragma once
// CUDA Tile IR bytecode in the editor (docs/bytecode.md "In the editor"). A
// client cannot send a binary file as a document, so it asks the server for
// the text form (tilesight.translate) and opens that, read-only, under the
// file's own URI (Neovim) or a `tilesight-bytecode:` URI with the file's
// path (VS Code). The server recognises such a document by the file its URI
// names (it starts with the magic), analyzes the text as any other document,
// with the launch file beside the bytecode, and while the text is the file's
// text form gives each diagnostic the Python location of its op.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analysis/bytecode/reader.h"
#include "analysis/checks/checks.h"
#include "server/lsp/protocol.h"

namespace tilesight::lsp {

struct Snapshot;  // documents.h

inline constexpr std::string_view kBytecodeScheme = "tilesight-bytecode";

// The local path a file: or tilesight-bytecode: URI names (percent-decoded);
// nothing for other schemes.
std::optional<std::string> localPathOfUri(std::string_view uri);

// A bytecode file as the server read it.
struct BytecodeSource {
  std::string path;
  bytecode::Decoded decoded;
  // The launch file beside it (bytecode::launchFileBeside) and its text;
  // empty when there is none.
  std::string launchFile, launchText;
  // Each source file the debug info names, as an absolute path (relative
  // names are looked up from the bytecode's folder and the folders above).
  std::map<std::string, std::string> sourcePaths;
};

// The bytecode file `uri` names, decoded; null when it names none (another
// scheme, a text file, a file that cannot be read or decoded).
std::shared_ptr<const BytecodeSource> loadBytecode(std::string_view uri);

// The checks for a bytecode document: its launch file's grid and arguments,
// which win over the settings' (those are for every document), and the
// settings' for what the launch lacks. `problem` says why the launch file is
// unusable (the settings' are used then).
CheckOptions bytecodeChecks(const BytecodeSource &bc, CheckOptions checks, std::string &problem);

// Whether the snapshot's text is its bytecode file's text form (so its ops
// have the debug info's locations).
bool showsBytecode(const Snapshot &snap);

// The related information that locates diagnostic `d` of a bytecode
// document in its source: the op's Python line, then the call sites of an
// inlined helper. Empty when the op has no location.
nlohmann::json sourceLocations(const Snapshot &snap, const Diagnostic &d);

// workspace/executeCommand tilesight.translate {"uri"}: the text form of the
// bytecode file the URI names, {"text", "version", "hasDebugInfo"}. Throws
// RpcError with what is wrong (not a local file, unreadable, not bytecode,
// malformed at byte N).
nlohmann::json translateCommand(const nlohmann::json &arg);

}  // namespace tilesight::lsp
