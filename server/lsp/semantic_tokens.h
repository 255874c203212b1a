#pragma once
// Semantic tokens (the full document, a range, or the change since the last
// full result), from the side table and op name ranges.
// Token types: keyword (op names), function (@symbols), variable (SSA
// values), parameter (block arguments), type (the head word of a written
// type), macro (#/! aliases); the modifier `declaration` marks definitions.
// Block labels (no standard token type in LSP 3.17), comments and numbers
// are left to the editor's grammar.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/lsp/feature.h"

namespace tilesight::lsp {

// --- the feature: typed results ---------------------------------------------

// LSP's relative encoding: per token line delta, start delta, length, type,
// modifiers; columns in the negotiated encoding.
struct SemanticTokens {
  std::string resultId; // names this result for a later delta (full only)
  std::vector<uint32_t> data;
};

// The tokens of [begin, end) of a snapshot (only the chunks it overlaps are
// read).
SemanticTokens semanticTokens(const Snapshot &snap, PositionEncoding e,
                              uint32_t begin, uint32_t end);

// One edit turning `before` into `after`: the integers between their common
// prefix and common suffix (none when they are equal).
struct SemanticTokensEdit {
  uint32_t start = 0, deleteCount = 0;
  std::vector<uint32_t> data;
};
std::optional<SemanticTokensEdit> tokensEdit(const std::vector<uint32_t> &before,
                                             const std::vector<uint32_t> &after);

// The last full (or delta) result sent for each open document: the base the
// client names in its next delta request; forgotten when the document
// closes. Locked: any thread may use it.
class SemanticTokensHistory {
public:
  void remember(const std::string &uri, SemanticTokens t);
  // The result `resultId` if it is the last one sent for `uri`.
  std::shared_ptr<const SemanticTokens> find(const std::string &uri,
                                             const std::string &resultId) const;
  void forget(const std::string &uri);

private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const SemanticTokens>> last_;
};

// --- the protocol: JSON text written directly (a json tree would cost ~16
// bytes per integer) ----------------------------------------------------------

// The legend announced in the server's capabilities.
json semanticTokensLegend();
FeatureResult semanticTokensFull(const FeatureContext &cx, const json &params);
FeatureResult semanticTokensDelta(const FeatureContext &cx, const json &params);
FeatureResult semanticTokensRange(const FeatureContext &cx, const json &params);

} // namespace tilesight::lsp
