#include "server/lsp/folding.h"

#include <algorithm>
#include <set>

namespace tilesight::lsp {

namespace {

class Folder {
public:
  explicit Folder(const Snapshot &snap)
      : src_(*snap.source), chunks_(snap.analysis.chunks) {}

  std::vector<Fold> folds() {
    for (const ChunkAnalysis &c : chunks_) {
      regions(c);
      labels(c);
    }
    comments();
    if (chunks_.size() > 1)
      for (const ChunkAnalysis &c : chunks_)
        if (c.chunk.end > c.chunk.begin)
          add(line(c.chunk.begin), line(c.chunk.end - 1), "region");
    return uniqueStarts();
  }

private:
  uint32_t line(uint32_t offset) const { return src_.lineCol(offset).line; }

  void add(uint32_t start, uint32_t end, const char *kind = nullptr) {
    if (end > start)
      out_.push_back({start, end, kind});
  }

  // The last line to fold before the text at `offset` (a `}` or the next
  // label): the line before, unless something precedes it on its line.
  uint32_t lastLineBefore(uint32_t offset) const {
    LineCol lc = src_.lineCol(offset);
    std::string_view before = src_.lineText(lc.line).substr(0, lc.col);
    bool alone = before.find_first_not_of(" \t") == std::string_view::npos;
    return alone && lc.line > 0 ? lc.line - 1 : lc.line;
  }

  // Where a region's closing brace is (its end, when the brace is missing).
  uint32_t closing(Range region) const {
    uint32_t last = region.end - 1;
    return src_.text()[last] == '}' ? last : region.end;
  }

  void regions(const ChunkAnalysis &c) {
    for (const Operation &op : c.parsed.program.ops)
      for (const Region &r : op.regions)
        if (r.range.end > r.range.begin)
          add(line(r.range.begin), lastLineBefore(closing(r.range)));
  }

  // A labelled block folds from its label to the next label or the `}`.
  void labels(const ChunkAnalysis &c) {
    const Program &p = c.parsed.program;
    std::vector<const Occurrence *> labels;
    for (const Occurrence &o : c.parsed.side.occurrences)
      if (o.kind == Occurrence::BlockLabel && o.op != kNoId)
        labels.push_back(&o);
    for (const Occurrence *l : labels)
      for (const Region &r : p.op(l->op).regions) {
        if (l->range.begin < r.range.begin || l->range.begin >= r.range.end)
          continue;
        uint32_t end = closing(r.range);
        for (const Occurrence *next : labels)
          if (next->op == l->op && next->range.begin > l->range.begin &&
              next->range.begin < end)
            end = next->range.begin;
        add(line(l->range.begin), lastLineBefore(end));
      }
  }

  // Runs of two or more `//` lines; chunk separators are not comments.
  void comments() {
    std::set<uint32_t> separators;
    for (size_t i = 1; i < chunks_.size(); ++i)
      separators.insert(line(chunks_[i].chunk.begin));
    uint32_t runStart = 0, runLength = 0;
    for (uint32_t l = 0; l <= src_.lineCount(); ++l) {
      bool comment = false;
      if (l < src_.lineCount() && !separators.contains(l)) {
        std::string_view t = src_.lineText(l);
        size_t first = t.find_first_not_of(" \t");
        comment = first != std::string_view::npos &&
                  t.substr(first).starts_with("//");
      }
      if (comment) {
        runStart = runLength == 0 ? l : runStart;
        ++runLength;
        continue;
      }
      if (runLength >= 2)
        add(runStart, l - 1, "comment");
      runLength = 0;
    }
  }

  // Clients keep one range per start line: keep the outermost.
  std::vector<Fold> uniqueStarts() {
    std::stable_sort(
        out_.begin(), out_.end(), [](const Fold &a, const Fold &b) {
          return a.start != b.start ? a.start < b.start : a.end > b.end;
        });
    std::vector<Fold> kept;
    for (const Fold &f : out_)
      if (kept.empty() || kept.back().start != f.start)
        kept.push_back(f);
    return kept;
  }

  const SourceText &src_;
  const std::vector<ChunkAnalysis> &chunks_;
  std::vector<Fold> out_;
};

} // namespace

std::vector<Fold> foldsOf(const Snapshot &snap) { return Folder(snap).folds(); }

json foldingRanges(const FeatureContext &cx, const json &) {
  json out = json::array();
  for (const Fold &f : foldsOf(cx.snap)) {
    json j = {{"startLine", f.start}, {"endLine", f.end}};
    if (f.kind)
      j["kind"] = f.kind;
    out.push_back(std::move(j));
  }
  return out;
}

} // namespace tilesight::lsp
