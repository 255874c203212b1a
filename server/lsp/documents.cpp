#include "server/lsp/documents.h"

#include "server/lsp/jsonrpc.h"
#include "server/lsp/run_config.h"

namespace tilesight::lsp {

namespace {
bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

bool sameChecks(const CheckOptions &a, const CheckOptions &b) {
  return a.grid == b.grid && a.assumeAliasing == b.assumeAliasing && a.aliasGroup == b.aliasGroup &&
         a.args == b.args && a.disabled == b.disabled && a.gridFrom == b.gridFrom &&
         a.argsFrom == b.argsFrom;
}
// The file's run directives, checked against its entries.
void addRunDirectives(Snapshot &snap) {
  snap.runDirectives = findRunDirectives(snap.source->text());
  if (snap.runDirectives.empty())
    return;
  std::vector<std::string> names;
  for (const EntryRef &e : entriesOf(snap.analysis))
    names.push_back(e.name);
  snap.runDirectiveDiagnostics = checkRunDirectives(snap.runDirectives, names);
}

// The new version's text is the old one's (an undo back to it, a client
// sending the text again): the old analysis, and all that features built on
// it, become the new version's.
void keepAnalysis(Snapshot &snap, Snapshot &old) {
  snap.analysisId = old.analysisId;
  snap.keptFrom = old.keptFrom.value_or(old.version);
  snap.analysis = std::move(old.analysis);
  snap.tokenSegments = std::move(old.tokenSegments);
  snap.tokenEncoding = old.tokenEncoding;
  if (old.mentionsReady) {
    snap.mentionIndex = std::move(old.mentionIndex);
    std::call_once(snap.mentionsBuilt, [] {});
    snap.mentionsReady = true;
  }
  snap.runDirectives = std::move(old.runDirectives);
  snap.runDirectiveDiagnostics = std::move(old.runDirectiveDiagnostics);
}
} // namespace

std::shared_ptr<const Snapshot>
analyzeDocument(const std::string &uri, int64_t version,
                std::shared_ptr<const SourceText> source,
                const CheckOptions &checks, uint64_t analysisId,
                LayoutAliasCache *layoutCache,
                std::shared_ptr<const Snapshot> previous,
                std::shared_ptr<const BytecodeSource> bytecode) {
  auto snap = std::make_shared<Snapshot>();
  snap->uri = uri;
  snap->bytecode = std::move(bytecode);
  snap->version = version;
  snap->analysisId = analysisId;
  snap->source = std::move(source);
  snap->checks = checks;
  // Nothing else holds the old snapshot (made non-const by make_shared): its
  // analysis moves into the new one.
  bool reusable = previous && previous.use_count() == 1 && sameChecks(previous->checks, checks);
  if (reusable && previous->source == snap->source) {
    keepAnalysis(*snap, const_cast<Snapshot &>(*previous));
    return snap;
  }
  bool split =
      endsWith(uri, ".mlir") && splitChunks(snap->source->text()).size() > 1;
  AnalyzeOptions options{split, layout::kInteractiveWorkBudget,
                         layout::kInteractiveTotalBudget, checks, layoutCache};
  if (reusable && !split) {
    auto &old = const_cast<Snapshot &>(*previous);
    std::optional<Analysis> reused =
        reanalyze(std::move(old.analysis), old.source->text(),
                  snap->source->text(), options);
    if (reused) {
      snap->analysis = std::move(*reused);
      // Every other item's text is unchanged (only moved): its encoded
      // tokens are too.
      snap->tokenSegments = std::move(old.tokenSegments);
      snap->tokenSegments.erase({0, *snap->analysis.reparsedItem});
      snap->tokenEncoding = old.tokenEncoding;
      addRunDirectives(*snap);
      return snap;
    }
  }
  snap->analysis = analyze(snap->source->text(), options);
  addRunDirectives(*snap);
  return snap;
}

std::string applyChange(const SourceText &current, const json &change,
                        PositionEncoding e) {
  std::string text = stringMember(change, "text");
  auto range = change.is_object() ? change.find("range") : change.end();
  if (range == change.end())
    return text;
  uint32_t begin = toOffset(current, parsePosition(member(*range, "start")), e);
  uint32_t end = toOffset(current, parsePosition(member(*range, "end")), e);
  if (begin > end)
    throw RpcError(error_code::InvalidParams,
                   "a change's range starts after its end");
  std::string_view old = current.text();
  std::string out;
  out.reserve(old.size() - (end - begin) + text.size());
  out.append(old.substr(0, begin)).append(text).append(old.substr(end));
  return out;
}

Document &DocumentStore::open(const std::string &uri, int64_t version,
                              std::string text) {
  Document &d = docs_[uri];
  d.uri = uri;
  d.version = version;
  d.text = std::make_shared<const SourceText>(std::move(text));
  d.lastChange = std::chrono::steady_clock::now();
  return d;
}

Document *DocumentStore::find(const std::string &uri) {
  auto it = docs_.find(uri);
  return it == docs_.end() ? nullptr : &it->second;
}

std::vector<Document> DocumentStore::all() const {
  std::vector<Document> out;
  for (const auto &[uri, doc] : docs_)
    out.push_back(doc);
  return out;
}

bool DocumentStore::close(const std::string &uri) {
  return docs_.erase(uri) > 0;
}

} // namespace tilesight::lsp
