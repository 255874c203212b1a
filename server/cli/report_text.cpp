// clang-style text: FILE:LINE:COL: severity: MESSAGE [CODE], the line, a caret.
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>

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

}  // namespace

void printText(llvm::raw_ostream& os, const FileReport& r, bool colors) {
  llvm::SourceMgr sm;
  llvm::StringRef text = r.source->text();
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, r.path, false), llvm::SMLoc());
  const char* base = text.data();
  auto loc = [&](uint32_t off) { return llvm::SMLoc::getFromPointer(base + std::min<uint32_t>(off, r.source->size())); };
  auto range = [&](Range rg) -> std::vector<llvm::SMRange> {
    // SourceMgr underlines within one line only.
    if (rg.empty() || r.source->lineCol(rg.begin).line != r.source->lineCol(rg.end).line) return {};
    return {llvm::SMRange(loc(rg.begin), loc(rg.end))};
  };
  for (const Diagnostic& d : r.diagnostics) {
    std::string msg = d.message + (d.code.empty() ? "" : " [" + d.code + "]");
    sm.PrintMessage(os, loc(d.range.begin), kindOf(d.severity), msg, range(d.range), {}, colors);
    for (const RelatedNote& n : d.notes)
      sm.PrintMessage(os, loc(n.range.begin), llvm::SourceMgr::DK_Note, n.message, range(n.range), {}, colors);
    for (const Fix& f : d.fixes)
      sm.PrintMessage(os, loc(d.range.begin), llvm::SourceMgr::DK_Note, "fix: " + f.title, {}, {}, colors);
  }
}

}  // namespace tilesight::cli
