#pragma once
// What every document feature (hover, navigation, symbols, tokens, hints,
// completion, code actions) gets: one analyzed version of the document, the
// negotiated position encoding and the settings. Features read the snapshot
// only; they never re-parse, never block, never write.
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "server/lsp/documents.h"
#include "server/lsp/protocol.h"
#include "server/lsp/settings.h"

namespace tilesight::lsp {

// What the client said it can take (initialize's capabilities); the LSP
// defaults when it said nothing: no snippets, markdown and plain text both.
struct ClientFeatures {
  bool snippets = false;         // textDocument.completion.completionItem.snippetSupport
  bool markdownHover = true;     // textDocument.hover.contentFormat lists markdown (or is absent)
  bool markdownDocs = true;      // ...completionItem.documentationFormat lists markdown (or is absent)
  bool pullsDiagnostics = false; // textDocument.diagnostic: it pulls, so nothing is pushed
  bool diagnosticRefresh = false; // workspace.diagnostics.refreshSupport
  bool workDoneProgress = false;  // window.workDoneProgress: the server may create progress tokens
};

// Markdown as plain text, for clients that take only that: code fences,
// emphasis and backquotes dropped, escapes resolved.
std::string plainText(const std::string &markdown);

class SemanticTokensHistory; // semantic_tokens.h

struct FeatureContext {
  const Snapshot &snap;
  PositionEncoding encoding;
  const Settings &settings;
  const ClientFeatures &client;
  // The server's per-document memory of semantic tokens (deltas); null
  // where none is kept.
  SemanticTokensHistory *tokenHistory = nullptr;
  // The findings of the document's last run (source "tilesight run"), kept
  // until its next edit, and which run they came from; null: none.
  const std::vector<Diagnostic> *runFindings = nullptr;
  uint64_t runId = 0;

  // {"kind": "markdown"|"plaintext", "value": ...} as the client takes it.
  json markup(const std::string &markdown, bool markdownOk) const {
    return markdownOk ? json{{"kind", "markdown"}, {"value", markdown}}
                      : json{{"kind", "plaintext"}, {"value", plainText(markdown)}};
  }

  uint32_t offsetOf(const json &position) const {
    return toOffset(*snap.source, parsePosition(position), encoding);
  }
  json range(Range r) const { return rangeJson(*snap.source, r, encoding); }
};

// A result already written as JSON text: for results of millions of
// integers (semantic tokens), where a json tree would cost ~16 bytes each.
struct RawJson {
  std::string text;
};
using FeatureResult = std::variant<json, RawJson>;

// A document request handler: LSP params in, LSP result out. Throws RpcError
// for malformed params.
using FeatureFn = FeatureResult (*)(const FeatureContext &, const json &params);

} // namespace tilesight::lsp
