#include "server/lsp/bytecode_reports.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include "analysis/bytecode/source_map.h"

namespace tilesight::lsp {

namespace {

using bytecode::Decoded;
using bytecode::locationAt;
using bytecode::OpLocation;
using bytecode::SourceLoc;

// A Python source the debug info names, for the report's lines: the
// editor's text when it has the file open (`open`), else the file's; what is
// not a regular file (a FIFO would block) is not read.
std::optional<std::string> readSource(const std::string& path, const OpenTexts* open) {
  if (open)
    if (auto it = open->find(path); it != open->end()) return it->second;
  if (!llvm::sys::fs::is_regular_file(path)) return std::nullopt;
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buf) return std::nullopt;
  return (*buf)->getBuffer().str();
}

std::string where(const SourceLoc& l) {
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

// The files the diagnostics land in, each with the text its reports show.
class Destinations {
 public:
  Destinations(const std::string& path, const Decoded& d, std::vector<std::unique_ptr<SourceText>>& sources,
               const OpenTexts* open)
      : path_(path), decoded_(d), sources_(sources), open_(open) {}

  // The report of Python file `file`; where the file cannot be read, a
  // stand-in text of blank lines long enough for every location in it, so
  // that lines and columns still come out right.
  FileReport& python(const std::string& file) {
    auto it = index_.find(file);
    if (it != index_.end()) return reports_[it->second];
    std::optional<std::string> text = readSource(file, open_);
    sources_.push_back(std::make_unique<SourceText>(text ? std::move(*text) : standIn(file)));
    return add(file, file);
  }
  FileReport& textForm() {
    std::string key = path_ + " (Tile IR text)";
    if (index_.count(key)) return reports_[index_[key]];
    sources_.push_back(std::make_unique<SourceText>(decoded_.text));
    return add(key, key);
  }
  uint32_t offsetOf(const SourceLoc& l) { return python(l.file).source->offsetOf({l.line - 1, l.column - 1}); }
  std::vector<FileReport> take() { return std::move(reports_); }

 private:
  FileReport& add(const std::string& key, const std::string& shown) {
    index_[key] = reports_.size();
    reports_.push_back({shown, sources_.back().get(), {}});
    return reports_.back();
  }
  std::string standIn(const std::string& file) const {
    std::vector<uint32_t> width;
    auto note = [&](const SourceLoc& l) {
      if (l.file != file || !l.known()) return;
      width.resize(std::max<size_t>(width.size(), l.line));
      width[l.line - 1] = std::max(width[l.line - 1], l.column);
    };
    for (const OpLocation& o : decoded_.locations) {
      note(o.at);
      for (const SourceLoc& c : o.callers) note(c);
    }
    std::string text;
    for (uint32_t w : width) text += std::string(w, ' ') + "\n";
    return text;
  }

  const std::string& path_;
  const Decoded& decoded_;
  std::vector<std::unique_ptr<SourceText>>& sources_;
  const OpenTexts* open_;
  std::map<std::string, size_t> index_;
  std::vector<FileReport> reports_;
};

// Where the dotted name that starts at `at` ends (`ct.store` of
// `ct.store(...)`): the range a diagnostic at a Python location covers, so
// that an editor underlines the call rather than a point.
uint32_t nameEnd(std::string_view text, uint32_t at) {
  uint32_t end = at;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' ||
                               text[end] == '.'))
    ++end;
  return end;
}

// The line of the text form at `offset` (1-based) and its text, trimmed.
std::pair<uint32_t, std::string> textLine(std::string_view text, uint32_t offset) {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  uint32_t line = 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  size_t b = text.rfind('\n', offset ? offset - 1 : 0);
  b = (b == std::string_view::npos || offset == 0) ? 0 : b + 1;
  size_t e = text.find('\n', offset);
  std::string s(text.substr(b, (e == std::string_view::npos ? text.size() : e) - b));
  s.erase(0, s.find_first_not_of(' '));
  return {line, s};
}

}  // namespace

tilesight::CheckOptions namedPlaces(const bytecode::Decoded& d, tilesight::CheckOptions checks) {
  // Other places a message names are the ops' Python lines too: "line N" in
  // the kernel's own file (where its diagnostics are), "helper.py:N" elsewhere.
  std::string kernelFile;
  for (const OpLocation& l : d.locations)
    if (l.at.known()) {
      kernelFile = l.at.file;
      break;
    }
  checks.placeName = [&d, kernelFile](const Program& program, uint32_t offset) {
    const OpLocation* loc = locationAt(d, program, offset);
    if (!loc) return "line " + std::to_string(textLine(d.text, offset).first) + " of the Tile IR text";
    return (loc->at.file == kernelFile ? "line " : loc->at.file + ":") + std::to_string(loc->at.line);
  };
  return checks;
}

std::vector<FileReport> pythonReports(const std::string& path, const bytecode::Decoded& d, const Program& parsed,
                                      std::vector<Diagnostic> diags, std::vector<std::unique_ptr<SourceText>>& sources,
                                      const OpenTexts* open) {
  Destinations dest(path, d, sources, open);
  bool saidTextForm = false;
  for (Diagnostic& diag : diags) {
    const OpLocation* loc = locationAt(d, parsed, diag.range.begin);
    auto [line, opText] = textLine(d.text, diag.range.begin);
    diag.fixes.clear();  // they edit the text form
    if (!loc) {
      if (!saidTextForm)
        diag.notes.push_back({diag.range, "no debug info for this op: lines are those of the text form, which "
                                          "`tilesight translate " + path + "` prints"});
      saidTextForm = true;
      dest.textForm().diagnostics.push_back(std::move(diag));
      continue;
    }
    uint32_t at = dest.offsetOf(loc->at);
    Diagnostic out = diag;
    out.range = {at, nameEnd(dest.python(loc->at.file).source->text(), at)};
    out.notes.clear();
    for (const RelatedNote& n : diag.notes) {  // related places: at their own Python line when in this file
      const OpLocation* nl = locationAt(d, parsed, n.range.begin);
      if (nl && nl->at.file == loc->at.file) out.notes.push_back({Range{dest.offsetOf(nl->at), dest.offsetOf(nl->at)}, n.message});
      else if (nl) out.notes.push_back({out.range, n.message + " (at " + where(nl->at) + ")"});
      else out.notes.push_back({out.range, n.message + " (line " + std::to_string(textLine(d.text, n.range.begin).first) +
                                               " of the Tile IR text)"});
    }
    out.notes.push_back({out.range, "Tile IR (line " + std::to_string(line) + " of the text form): " + opText});
    for (const SourceLoc& caller : loc->callers) {
      if (caller.file == loc->at.file) out.notes.push_back({Range{dest.offsetOf(caller), dest.offsetOf(caller)}, "inlined from here"});
      else out.notes.push_back({out.range, "inlined from " + where(caller)});
    }
    dest.python(loc->at.file).diagnostics.push_back(std::move(out));
  }
  return dest.take();
}

std::vector<FileReport> checkBytecode(const std::string& path, std::string_view bytes, const AnalyzeOptions& options,
                                      std::vector<std::unique_ptr<SourceText>>& sources,
                                      const bytecode::Launch* launch, const OpenTexts* open) {
  Decoded d = bytecode::readBytecode(bytes, true, launch ? bytecode::parameterNames(*launch) : std::vector<std::string>{});
  if (!d.ok()) {
    sources.push_back(std::make_unique<SourceText>(std::string()));
    return {{path, sources.back().get(), d.diagnostics}};
  }
  AnalyzeOptions named = options;
  named.checks = namedPlaces(d, options.checks);
  Analysis a = analyze(d.text, named);
  return pythonReports(path, d, a.chunks.at(0).parsed.program, std::move(a.diagnostics), sources, open);
}

}  // namespace tilesight::lsp
