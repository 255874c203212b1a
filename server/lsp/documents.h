#pragma once
// Open documents: their text and version, and how a version is analyzed.
// Incremental changes are applied in order with positions in the negotiated
// encoding.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "analysis/run_directive.h"
#include "analysis/source/source_text.h"
#include "server/lsp/protocol.h"

namespace tilesight::lsp {

struct MentionIndex;     // mentions.h
struct IsolatedMentions; // mentions.cpp
struct TokenSegment;     // semantic_tokens.h
struct BytecodeSource;   // bytecode_documents.h
struct CutileAnalysis;   // cutile_documents.h

// One analyzed version of a document. The analysis points into `source`,
// which the snapshot keeps alive; feature code reads only snapshots.
struct Snapshot {
  std::string uri;
  int64_t version = 0;
  // Which analysis of the document this is (the server counts them): a
  // version analyzed again under new settings gets a new one (pull
  // diagnostics' resultId).
  uint64_t analysisId = 0;
  std::shared_ptr<const SourceText> source;
  CheckOptions checks;  // what the analysis ran with
  Analysis analysis;
  // Every chunk's mentions, indexed by entity: built by the first feature
  // that needs them (mentions.h), then shared by every request on this
  // version.
  mutable std::once_flag mentionsBuilt;
  mutable std::shared_ptr<const MentionIndex> mentionIndex;
  mutable std::atomic<bool> mentionsReady{false}; // mentionIndex is built
  // The mentions of single isolated ops (entries) that navigation read
  // before the whole index was built (mentions.cpp); dropped then.
  mutable std::mutex isolatedMu;
  mutable std::shared_ptr<IsolatedMentions> isolated;
  // The semantic tokens of module items (entries) by (chunk, item index),
  // encoded in `tokenEncoding` (semantic_tokens.h): built by the first full
  // request, handed on to the next version for every item an edit left
  // alone (analyzeDocument).
  mutable std::mutex tokensMu;
  mutable std::map<std::pair<size_t, size_t>, std::shared_ptr<const TokenSegment>> tokenSegments;
  mutable PositionEncoding tokenEncoding = PositionEncoding::Utf16;
  // The `// tilesight-run:` directives and their diagnostics (run.directive),
  // published with the analysis's (run_config.h).
  std::vector<RunDirective> runDirectives;
  std::vector<Diagnostic> runDirectiveDiagnostics;
  // Set when this version's text is an earlier version's, whose analysis
  // this snapshot took over (nothing was analysed): that version.
  std::optional<int64_t> keptFrom;
  // The bytecode file the document's URI names, whose text form the client
  // shows (bytecode_documents.h); null for text documents.
  std::shared_ptr<const BytecodeSource> bytecode;
  // A cuTile Python document (cutile_documents.h) has no Tile IR analysis:
  // `analysis` holds only the diagnostics of `cutile`, the compile of this
  // version of its launches (null until that compile is done).
  bool python = false;
  std::shared_ptr<const CutileAnalysis> cutile;
};

// Analyzes one document version (MLIR's rule: a .mlir file with a `// -----`
// line is analyzed chunk by chunk). The one place analysis is started, so a
// worker thread or debounce can take it over. `previous`, the document's
// last snapshot, is reused when nothing else holds it and it ran with the
// same checks: the same text (the same SourceText: the document store keeps
// it through a change that leaves the text as it was) is not analysed again,
// an edit inside one entry re-analyses that entry alone (reanalyze(),
// analysis.h). `bytecode`: the bytecode file the document shows.
std::shared_ptr<const Snapshot>
analyzeDocument(const std::string &uri, int64_t version,
                std::shared_ptr<const SourceText> source,
                const CheckOptions &checks = {}, uint64_t analysisId = 0,
                LayoutAliasCache *layoutCache = nullptr,
                std::shared_ptr<const Snapshot> previous = nullptr,
                std::shared_ptr<const BytecodeSource> bytecode = nullptr);

// The newest text of an open document (the I/O thread's view).
struct Document {
  std::string uri;
  int64_t version = 0;
  std::shared_ptr<const SourceText> text;
  // When the text last changed (or was opened): the typing rate.
  std::chrono::steady_clock::time_point lastChange =
      std::chrono::steady_clock::now();
};

// Applies one TextDocumentContentChangeEvent: `{range, text}` replaces the
// range, `{text}` replaces everything. Throws RpcError(InvalidParams) on a
// malformed change (start after end, wrong types).
std::string applyChange(const SourceText &current, const json &change,
                        PositionEncoding e);

class DocumentStore {
public:
  Document &open(const std::string &uri, int64_t version, std::string text);
  Document *find(const std::string &uri);
  bool close(const std::string &uri); // false when it was not open
  std::vector<Document> all() const;

private:
  std::map<std::string, Document> docs_;
};

} // namespace tilesight::lsp
