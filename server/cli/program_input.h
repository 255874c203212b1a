#pragma once
// The front half `run` and `emit` share: read a file, analyze it, stop at
// the language's errors (printed as `check` prints them), and gate the
// first chunk through VerifiedProgram.
#include <memory>
#include <optional>
#include <string>

#include "analysis/analysis.h"
#include "analysis/bytecode/launch.h"
#include "analysis/bytecode/reader.h"
#include "analysis/source/source_text.h"
#include "analysis/verified.h"
#include "server/cli/report.h"
#include "server/lsp/bytecode_reports.h"

namespace tilesight::cli {

struct ProgramInput {
  std::unique_ptr<SourceText> source;
  Analysis analysis;
  FileReport diags;  // the language errors found (the run's report adds to it)
  std::optional<VerifiedProgram> program;
  bool bytecode = false;  // read from CUDA Tile IR bytecode: `source` is its printed text form
  std::optional<bytecode::Decoded> decoded;  // then: its debug info, for reports at Python lines
  lsp::OpenTexts openTexts;  // Python sources as given (an editor's buffer), not as on disk
};

// The file's reports of `diags` (on `in`'s text): as they are for a text
// program, at the ops' Python lines for bytecode (pythonReports); the texts
// they show are kept in `sources`.
std::vector<FileReport> reportsOf(const std::string& file, const ProgramInput& in, std::vector<Diagnostic> diags,
                                  std::vector<std::unique_ptr<SourceText>>& sources);

// Fills `in` from `file` (`-`: standard input), or from `bytes` when given (bytecode compiled
// from `file`); returns 0, or the exit status when the program cannot run (2: unreadable, 1:
// errors, printed). Bytecode's entry parameters are named by `launch` when given
// (bytecode::parameterNames).
int loadProgram(const std::string& command, const std::string& file, ProgramInput& in,
                const bytecode::Launch* launch = nullptr, const std::string* bytes = nullptr);

// Whether paths `a` and `b` name one file (an output that would overwrite
// the program, two outputs to one file); `-` names none.
bool sameFile(const std::string& a, const std::string& b);

}  // namespace tilesight::cli
