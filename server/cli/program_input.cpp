#include "server/cli/program_input.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "analysis/bytecode/reader.h"
#include "analysis/diag/codes.h"
#include "codegen/runtime/input_file.h"
#include "server/cli/bytecode_input.h"
#include "server/cli/lint_config.h"

namespace tilesight::cli {

int loadProgram(const std::string& command, const std::string& file, ProgramInput& in,
                const bytecode::Launch* launch, const std::string* bytes) {
  // `-` reads standard input (the language server sends the editor's text).
  std::string why;
  std::optional<std::string> text;
  if (bytes) {
    text = *bytes;
  } else if (file != "-") {
    text = runtime::readRegularFile(file, why);
  } else if (auto buf = llvm::MemoryBuffer::getSTDIN()) {
    text = (*buf)->getBuffer().str();
  } else {
    why = buf.getError().message();
  }
  if (!text) {
    llvm::errs() << "tilesight " << command << ": cannot read '" << file << "': " << why << "\n";
    return 2;
  }
  // Bytecode runs as its text form (docs/bytecode.md); a decode error is the one diagnostic.
  if (bytecode::isTileIRBytecode(*text)) {
    bytecode::Decoded d =
        bytecode::readBytecode(*text, true, launch ? bytecode::parameterNames(*launch) : std::vector<std::string>{});
    if (!d.ok()) {
      in.source = std::make_unique<SourceText>(std::string());
      printText(llvm::outs(), FileReport{file, in.source.get(), d.diagnostics}, false);
      return 1;
    }
    text = d.text;
    in.bytecode = true;
    in.decoded = std::move(d);
  }
  in.source = std::make_unique<SourceText>(std::move(*text));
  in.analysis = analyze(in.source->text());
  in.diags = FileReport{file, in.source.get(), {}};
  // Errors of the language (syntax, type) stop the run; the static checks'
  // findings do not: running the program is how they are confirmed.
  for (const Diagnostic& d : in.analysis.diagnostics)
    if (isLanguageError(d)) in.diags.diagnostics.push_back(d);
  if (!in.diags.diagnostics.empty() || in.analysis.chunks.empty()) {
    std::vector<std::unique_ptr<SourceText>> sources;
    for (const FileReport& r : reportsOf(file, in, in.diags.diagnostics, sources)) printText(llvm::outs(), r, false);
    return 1;
  }
  VerifiedProgram::Result vp = VerifiedProgram::of(in.analysis, in.analysis.chunks[0]);
  if (!vp.program) {
    for (const std::string& reason : vp.reasons) llvm::errs() << file << ": " << reason << "\n";
    return 1;
  }
  in.program = vp.program;
  return 0;
}

std::vector<FileReport> reportsOf(const std::string& file, const ProgramInput& in, std::vector<Diagnostic> diags,
                                  std::vector<std::unique_ptr<SourceText>>& sources) {
  if (!in.decoded || in.analysis.chunks.empty()) return {FileReport{file, in.source.get(), std::move(diags)}};
  return pythonReports(file, *in.decoded, in.analysis.chunks[0].parsed.program, std::move(diags), sources,
                       &in.openTexts);
}

bool sameFile(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return false;
  bool same = false;
  // Both there: the same file under any name (a link, `./`); else the same path.
  if (!llvm::sys::fs::equivalent(a, b, same)) return same;
  return absolutePath(a) == absolutePath(b);
}

}  // namespace tilesight::cli
