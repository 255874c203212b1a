#include "server/cli/cutile_input.h"

#include <atomic>

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include "analysis/bytecode/launch.h"
#include "codegen/runtime/input_file.h"
#include "server/cli/bytecode_input.h"
#include "server/cli/lint_config.h"
#include "server/cli/options.h"

namespace tilesight::cli {

namespace {

llvm::cl::opt<std::string> pythonOpt("python",
                                     llvm::cl::desc("cuTile .py files: the Python interpreter that has cuTile "
                                                    "(default: $TILESIGHT_PYTHON, else python3)"),
                                     llvm::cl::value_desc("PATH"), llvm::cl::sub(checkSubcommand()),
                                     llvm::cl::sub(runSubcommand()),
                                     llvm::cl::cat(checkCategory()), llvm::cl::cat(runCategory()));

// The diagnostics of one launch's bytecode, moved into the file's report
// (`into`: same text, so the same offsets) with a note on its directive;
// what lands in other files (an imported helper) is kept apart in `others`.
void addLaunchReports(const std::string& abs, const lsp::CutileLaunch& l, std::vector<FileReport> reports,
                      FileReport& into, std::vector<FileReport>& others) {
  uint32_t directive = into.source->offsetOf({l.line ? l.line - 1 : 0, 0});
  for (FileReport& r : reports) {
    if (absolutePath(r.path) != abs) {
      others.push_back(std::move(r));
      continue;
    }
    for (Diagnostic& d : r.diagnostics) {
      d.notes.push_back({Range{directive, directive}, "for " + lsp::launchTitle(l)});
      into.diagnostics.push_back(std::move(d));
    }
  }
}

}  // namespace

lsp::CutileTools cutileToolsFromOptions() {
  lsp::CutileTools tools = lsp::cutileTools(pythonOpt);
  llvm::SmallString<256> cwd;
  if (!llvm::sys::fs::current_path(cwd)) tools.workingFolder = cwd.str().str();  // as `python3 app.py` here would
  return tools;
}

std::vector<FileReport> checkCutileFile(const std::string& path, const AnalyzeOptions& options, bool gridGiven,
                                        std::vector<std::unique_ptr<SourceText>>& sources, std::string& problem) {
  std::string why;
  std::optional<std::string> text = runtime::readRegularFile(path, why);
  if (!text) {
    problem = why;
    return {};
  }
  std::string abs = absolutePath(path);
  // A file named on the command line that asks for nothing: said, since a
  // CI job that checks it would otherwise pass without checking anything.
  auto nothingChecked = [&] {
    llvm::errs() << "tilesight check: warning: " << path
                 << " has no `# tilesight: launch` directive: none of its kernels was checked (docs/cutile.md)\n";
  };
  if (!lsp::mentionsTilesight(*text)) {
    nothingChecked();  // not even a misspelt directive: no need to start Python
    return {};
  }
  std::atomic<bool> never{false};
  lsp::CutileCompiled c = lsp::compileCutile(cutileToolsFromOptions(), abs, std::nullopt, "", never);
  if (!c.problem.empty()) {
    problem = c.problem;
    return {};
  }
  if (c.launches.empty() && c.messages.empty()) nothingChecked();
  sources.push_back(std::make_unique<SourceText>(std::move(*text)));
  FileReport file{path, sources.back().get(), {}};
  std::vector<FileReport> others;
  for (const lsp::CutileMessage& m : c.messages) {
    if (m.file.empty() || absolutePath(m.file) == abs) {
      file.diagnostics.push_back(lsp::cutileDiagnostic(*file.source, m));
      continue;
    }
    std::optional<std::string> other = runtime::readRegularFile(m.file, why);
    sources.push_back(std::make_unique<SourceText>(other.value_or("")));
    others.push_back({m.file, sources.back().get(), {lsp::cutileDiagnostic(*sources.back(), m)}});
  }
  for (const lsp::CutileLaunch& l : c.launches) {
    AnalyzeOptions launchOptions = options;
    bytecode::applyLaunch(l.launch, launchOptions.checks, gridGiven);
    addLaunchReports(abs, l, checkBytecode(path, l.bytecode, launchOptions, sources, &l.launch), file, others);
  }
  lsp::finishCutileDiagnostics(file.source->text(), file.diagnostics, options.checks);
  std::vector<FileReport> out{std::move(file)};
  for (FileReport& r : others) out.push_back(std::move(r));
  return out;
}

int compileForRun(const std::string& path, unsigned line, bool sourceOnStdin, lsp::CutileLaunch& out,
                  lsp::OpenTexts& open) {
  std::string why, abs = absolutePath(path);
  std::optional<std::string> text;
  if (sourceOnStdin) {
    auto buf = llvm::MemoryBuffer::getSTDIN();
    if (buf) text = (*buf)->getBuffer().str();
    else why = buf.getError().message();
  } else {
    text = runtime::readRegularFile(path, why);
  }
  if (!text) {
    llvm::errs() << "tilesight run: cannot read '" << path << "': " << why << "\n";
    return 2;
  }
  std::atomic<bool> never{false};
  lsp::CutileCompiled c =
      lsp::compileCutile(cutileToolsFromOptions(), abs, sourceOnStdin ? text : std::nullopt, "", never);
  if (!c.problem.empty()) {
    llvm::errs() << "tilesight run: cannot compile '" << path << "': " << c.problem << "\n";
    return 2;
  }
  SourceText src(*text);
  FileReport errors{path, &src, {}};
  for (const lsp::CutileMessage& m : c.messages)
    if (m.severity == Severity::Error && (m.code == "cutile.import" || !line || m.line == line))
      errors.diagnostics.push_back(lsp::cutileDiagnostic(src, m));
  if (!errors.diagnostics.empty()) {
    printText(llvm::outs(), errors, false);
    return 1;
  }
  std::string lines;
  for (const lsp::CutileLaunch& l : c.launches) {
    lines += (lines.empty() ? "" : ", ") + std::to_string(l.line);
    if (l.line == line || (!line && c.launches.size() == 1)) out = l;
  }
  if (out.bytecode.empty()) {
    llvm::errs() << "tilesight run: " << path
                 << (c.launches.empty() ? std::string(" has no `# tilesight: launch` directive to run")
                     : line ? " has no launch directive on line " + std::to_string(line) + " (its launches: line " + lines + ")"
                            : " has launches at lines " + lines + ": choose one with --line N")
                 << "\n";
    return 2;
  }
  if (sourceOnStdin) open[abs] = *text;
  return 0;
}

}  // namespace tilesight::cli
