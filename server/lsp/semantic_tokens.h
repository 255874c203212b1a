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
// modifiers; columns in the negotiated encoding. A result is a list of
// pieces: a full result shares the pieces of the entries whose text an
// edit left alone with the previous version's result.
struct TokenPiece {
  // Whole tokens, five integers each; the first token's line and start
  // deltas are `line` and `start` here, not data[0] and data[1] (they
  // depend on the token before the piece).
  std::shared_ptr<const std::vector<uint32_t>> data;
  uint32_t line = 0, start = 0;
  size_t size() const { return data->size(); }
  uint32_t operator[](size_t i) const { return i == 0 ? line : i == 1 ? start : (*data)[i]; }
};

struct SemanticTokens {
  std::string resultId; // names this result for a later delta (full only)
  std::vector<TokenPiece> pieces; // none empty
  size_t size() const;
  std::vector<uint32_t> flat() const; // the integers of all pieces
  static SemanticTokens of(std::vector<uint32_t> data);
};

// One module item's (entry's) tokens, encoded as if the item began the
// file, with where its first and last token begin (offsets from the
// item's start): it is the same wherever the item moves.
struct TokenSegment {
  std::shared_ptr<const std::vector<uint32_t>> data; // null: no tokens
  uint32_t firstAt = 0, lastAt = 0;
};

// The tokens of [begin, end) of a snapshot (only the chunks it overlaps are
// read).
SemanticTokens semanticTokens(const Snapshot &snap, PositionEncoding e,
                              uint32_t begin, uint32_t end);
// The whole document's tokens, equal to semanticTokens(snap, e, 0, size):
// each isolated module item from its segment (built once, handed on to
// later versions), the rest from a share of the index built here.
SemanticTokens fullSemanticTokens(const Snapshot &snap, PositionEncoding e);

// One edit turning `before` into `after`: the integers between their common
// prefix and common suffix (none when they are equal). Pieces shared by
// both are compared without reading them.
struct SemanticTokensEdit {
  uint32_t start = 0, deleteCount = 0;
  std::vector<uint32_t> data;
};
std::optional<SemanticTokensEdit> tokensEdit(const SemanticTokens &before, const SemanticTokens &after);

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
