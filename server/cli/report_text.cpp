// clang-style text: FILE:LINE:COL: severity: MESSAGE [CODE], the line, a caret.
#include <algorithm>

#include <llvm/Support/ConvertUTF.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/Unicode.h>

#include "server/cli/report.h"

namespace tilesight::cli {

namespace {

llvm::SourceMgr::DiagKind kindOf(Severity s) {
  switch (s) {
    case Severity::Error: return llvm::SourceMgr::DK_Error;
    case Severity::Warning: return llvm::SourceMgr::DK_Warning;
    case Severity::Note: return llvm::SourceMgr::DK_Note;
    case Severity::Remark: return llvm::SourceMgr::DK_Remark;
  }
  return llvm::SourceMgr::DK_Error;
}

// Terminal columns taken by `text` printed from column 0: SourceMgr's tab
// stops of 8, and each character's width from LLVM's Unicode tables (one
// column for a character the tables cannot measure).
size_t displayWidth(llvm::StringRef text) {
  size_t col = 0;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\t') {
      col += 8 - col % 8;
      ++i;
      continue;
    }
    size_t len = std::clamp<size_t>(llvm::getNumBytesForUTF8(static_cast<llvm::UTF8>(text[i])), 1, text.size() - i);
    int width = llvm::sys::unicode::columnWidthUTF8(text.substr(i, len));
    col += width < 0 ? 1 : static_cast<size_t>(width);
    i += len;
  }
  return col;
}

// SourceMgr prints a line with non-ASCII text but no caret under it, as it
// cannot tell how wide the characters are; this prints the caret it left out.
void printWideCaret(llvm::raw_ostream& os, const SourceText& src, Range rg, bool colors) {
  LineCol at = src.lineCol(std::min(rg.begin, src.size()));
  LineCol end = src.lineCol(std::min(rg.end, src.size()));
  std::string_view text = src.lineText(at.line);
  llvm::StringRef line = llvm::StringRef(text.data(), text.size()).rtrim("\r\n");
  if (llvm::all_of(line, [](char c) { return static_cast<unsigned char>(c) < 0x80; })) return;
  size_t beginByte = std::min<size_t>(at.col, line.size());
  size_t endByte = end.line == at.line ? std::min<size_t>(end.col, line.size()) : beginByte;
  size_t column = displayWidth(line.take_front(beginByte));
  size_t tildes = std::max(displayWidth(line.take_front(endByte)), column + 1) - column - 1;
  os.indent(static_cast<unsigned>(column));
  if (colors) os.changeColor(llvm::raw_ostream::GREEN, true);
  os << '^' << std::string(tildes, '~');
  if (colors) os.resetColor();
  os << '\n';
}

}  // namespace

void printText(llvm::raw_ostream& os, const FileReport& r, bool colors) {
  const SourceText& src = *r.source;
  // Lines and columns come from our line table (which, unlike SourceMgr's,
  // ends a line at a lone '\r' too, as the LSP positions do); SMDiagnostic
  // only prints them.
  llvm::SourceMgr sm;
  auto print = [&](uint32_t at, llvm::SourceMgr::DiagKind kind, const std::string& msg, Range underline) {
    at = std::min(at, src.size());
    LineCol lc = src.lineCol(at);
    std::string_view line = src.lineText(lc.line);
    std::vector<std::pair<unsigned, unsigned>> ranges;
    LineCol b = src.lineCol(std::min(underline.begin, src.size())), e = src.lineCol(std::min(underline.end, src.size()));
    if (!underline.empty() && b.line == lc.line && e.line == lc.line) ranges.push_back({b.col, e.col});
    llvm::SMDiagnostic d(sm, llvm::SMLoc(), r.path, static_cast<int>(lc.line + 1), static_cast<int>(lc.col), kind, msg,
                         llvm::StringRef(line.data(), line.size()), ranges);
    d.print(nullptr, os, colors);
    printWideCaret(os, src, underline.empty() ? Range{at, at} : underline, colors);
  };
  for (const Diagnostic& d : r.diagnostics) {
    print(d.range.begin, kindOf(d.severity), d.message + (d.code.empty() ? "" : " [" + d.code + "]"), d.range);
    for (const RelatedNote& n : d.notes) print(n.range.begin, llvm::SourceMgr::DK_Note, n.message, n.range);
    for (const Fix& f : d.fixes)
      print(d.range.begin, llvm::SourceMgr::DK_Note, "fix: " + f.title, {d.range.begin, d.range.begin});
  }
}

}  // namespace tilesight::cli
