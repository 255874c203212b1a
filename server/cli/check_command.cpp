// `tilesight check` (DESIGN §3).
#include <iostream>
#include <iterator>
#include <map>
#include <memory>

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "analysis/analysis.h"
#include "analysis/diag/expectations.h"
#include "server/cli/commands.h"
#include "server/cli/options.h"
#include "server/cli/report.h"

namespace tilesight::cli {

namespace {

bool readInput(const std::string& path, std::string& out) {
  auto buf = path == "-" ? llvm::MemoryBuffer::getSTDIN() : llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buf) {
    llvm::errs() << "tilesight: cannot read '" << path << "': " << buf.getError().message() << "\n";
    return false;
  }
  out = (*buf)->getBuffer().str();
  return true;
}

// --verify-diagnostics: the report lists only the mismatches.
std::vector<Diagnostic> mismatches(const SourceText& src, const std::vector<Diagnostic>& produced) {
  std::vector<Diagnostic> out;
  std::vector<Expectation> expected = parseExpectations(src, out);
  ExpectationReport rep = matchExpectations(src, expected, produced);
  for (const Expectation& e : rep.missing)
    out.push_back({e.comment, Severity::Error, "verify",
                   std::string("expected ") + severityName(e.severity) + " \"" + e.substring + "\" on line " +
                       std::to_string(e.line + 1) + " was not produced",
                   {}, {}});
  for (const Diagnostic& d : rep.unexpected) {
    Diagnostic u = d;
    u.message = std::string("unexpected ") + severityName(d.severity) + ": " + d.message;
    u.severity = Severity::Error;
    u.notes.clear();
    out.push_back(std::move(u));
  }
  return out;
}

// An --arg that sets no argument of any function of the file is most likely
// a typo: say so (a script may pass one set of --args to many files, so this
// is not a usage error).
void warnUnusedArgs(const std::string& path, const Analysis& a, const tilesight::CheckOptions& opts) {
  std::map<std::string, size_t> unused;
  for (const ChunkAnalysis& c : a.chunks)
    for (const std::string& arg : unusedArgs(c.parsed.program, opts)) ++unused[arg];
  for (const auto& [arg, chunks] : unused)
    if (chunks == a.chunks.size())
      llvm::errs() << "tilesight check: warning: --arg " << arg << " sets no integer scalar argument of a function in "
                   << (path == "-" ? "<stdin>" : path) << " (no argument by that name or position, or the value does "
                   << "not fit its type)\n";
}

}  // namespace

int runCheck() {
  CheckOptions opts = checkOptions();
  if (opts.files.empty()) {
    llvm::errs() << "usage: tilesight check [--format=text|json|sarif] [--split-input-file] "
                    "[--verify-diagnostics] [--grid=X,Y,Z] [--arg NAME=VALUE]... [--assume-aliasing] "
                    "[--disable=CODE,...] [--layout-budget=N] FILE... | -\n";
    return 2;
  }
  if (!opts.problem.empty()) {
    llvm::errs() << "tilesight check: " << opts.problem << "\n";
    return 2;
  }
  std::vector<std::unique_ptr<SourceText>> sources;
  std::vector<FileReport> reports;
  bool failed = false;
  for (const std::string& path : opts.files) {
    std::string text;
    if (!readInput(path, text)) return 2;
    sources.push_back(std::make_unique<SourceText>(std::move(text)));
    const SourceText& src = *sources.back();
    AnalyzeOptions analyzeOptions;
    analyzeOptions.splitInputFile = opts.splitInputFile;
    analyzeOptions.checks = opts.checks;
    analyzeOptions.layoutWorkBudget = analyzeOptions.layoutTotalBudget = opts.layoutBudget;
    Analysis a = analyze(src.text(), analyzeOptions);
    warnUnusedArgs(path, a, opts.checks);
    FileReport r{path == "-" ? "<stdin>" : path, &src, std::move(a.diagnostics)};
    if (opts.verifyDiagnostics) r.diagnostics = mismatches(src, r.diagnostics);
    for (const Diagnostic& d : r.diagnostics) failed |= d.severity == Severity::Error;
    reports.push_back(std::move(r));
  }
  llvm::raw_ostream& os = llvm::outs();
  switch (opts.format) {
    case Format::Text:
      for (const FileReport& r : reports) printText(os, r, os.has_colors());
      break;
    case Format::Json: printJson(os, reports); break;
    case Format::Sarif: printSarif(os, reports); break;
  }
  os.flush();
  return failed ? 1 : 0;
}

}  // namespace tilesight::cli
