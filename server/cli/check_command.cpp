// `tilesight check` (DESIGN §3).
#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <optional>

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "analysis/analysis.h"
#include "analysis/diag/expectations.h"
#include "analysis/diag/fixes.h"
#include "codegen/runtime/input_file.h"
#include "server/cli/commands.h"
#include "server/cli/lint_config.h"
#include "server/cli/bytecode_input.h"
#include "server/cli/cutile_input.h"
#include "server/cli/lint_inputs.h"
#include "server/cli/options.h"
#include "server/cli/replace_file.h"
#include "server/cli/report.h"

namespace tilesight::cli {

namespace {

// The file's text, or why it cannot be read (what is not a regular file is
// refused, not read: a FIFO could block, a device never end).
std::optional<std::string> readInput(const std::string& path, std::string& why) {
  if (path != "-") return runtime::readRegularFile(path, why);
  auto buf = llvm::MemoryBuffer::getSTDIN();
  if (!buf) {
    why = buf.getError().message();
    return std::nullopt;
  }
  return (*buf)->getBuffer().str();
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

// The options of one file: the command line's over its config file's.
tilesight::CheckOptions effectiveChecks(const CheckOptions& opts, const LintConfig* config) {
  tilesight::CheckOptions c = opts.checks;
  if (!config) return c;
  c.disabled.insert(c.disabled.end(), config->disable.begin(), config->disable.end());
  if (!opts.gridGiven && config->grid) c.grid = config->grid;
  return c;
}

AnalyzeOptions analyzeOptionsFor(const CheckOptions& opts, const tilesight::CheckOptions& checks) {
  AnalyzeOptions a;
  a.splitInputFile = opts.splitInputFile;
  a.checks = checks;
  a.layoutWorkBudget = a.layoutTotalBudget = opts.layoutBudget;
  return a;
}

// --Werror (or a config file's werror): warnings become errors.
FileReport promoted(FileReport r, bool werror) {
  if (werror)
    for (Diagnostic& d : r.diagnostics)
      if (d.severity == Severity::Warning) d.severity = Severity::Error;
  return r;
}

// --fix: writes the fixed text in place; false (with a message) when it cannot.
bool writeFixed(const std::string& path, const std::string& text) {
  std::string why;
  if (replaceFileText(path, text, why)) return true;
  llvm::errs() << "tilesight check: cannot write the fixes to '" << path << "': " << why
               << " (the file is unchanged)\n";
  return false;
}

// `1 fix`, `2 fixes`.
std::string plural(size_t n, std::string_view word) {
  bool es = word.ends_with('x') || word.ends_with('s');
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : es ? "es" : "s");
}

// `3 errors, 1 warning in 2 files`, on stderr, only when there is something to say.
void printSummary(const std::vector<FileReport>& reports, const std::vector<Unreadable>& unreadable, size_t fixed) {
  size_t errors = 0, warnings = 0, files = 0;
  for (const FileReport& r : reports) {
    files += !r.diagnostics.empty();
    for (const Diagnostic& d : r.diagnostics) {
      errors += d.severity == Severity::Error;
      warnings += d.severity == Severity::Warning;
    }
  }
  std::string line;
  if (errors) line = plural(errors, "error");
  if (warnings) line += (line.empty() ? "" : ", ") + plural(warnings, "warning");
  if (!line.empty()) line += " in " + plural(files, "file");
  if (!unreadable.empty()) line += (line.empty() ? "" : "; ") + plural(unreadable.size(), "file") + " not read";
  if (fixed) line += (line.empty() ? "" : "; ") + plural(fixed, "fix") + " applied";
  if (!line.empty()) llvm::errs() << line << "\n";
}

// A string stream that takes colours: the text report is printed through it,
// so --color=always colours a pipe (LLVM asks the stream whether it has colours,
// and a pipe says no).
class ColorStringStream : public llvm::raw_string_ostream {
public:
  using llvm::raw_string_ostream::raw_string_ostream;
  bool has_colors() const override { return true; }
};

bool useColors(ColorMode mode) {
  if (mode != ColorMode::Auto) return mode == ColorMode::Always;
  const char* noColor = std::getenv("NO_COLOR");  // no-color.org: set and not empty
  return llvm::outs().has_colors() && !(noColor && *noColor);
}

}  // namespace

int runCheck() {
  CheckOptions opts = checkOptions();
  if (opts.files.empty()) {
    llvm::errs() << "usage: tilesight check [--format=text|json|sarif] [--Werror] [--fix] [--color=auto|always|never] "
                    "[--split-input-file] [--verify-diagnostics] [--grid=X,Y,Z] [--arg NAME=VALUE]... "
                    "[--assume-aliasing] [--prove] [--disable=CODE,...] [--layout-budget=N] [--no-config] FILE... | FOLDER... | -\n";
    return 2;
  }
  if (opts.fix && std::count(opts.files.begin(), opts.files.end(), "-"))
    opts.problem = "--fix writes fixes into the files it checks; it cannot write standard input";
  if (!opts.problem.empty()) {
    llvm::errs() << "tilesight check: " << opts.problem << "\n";
    return 2;
  }
  ConfigFinder configs;
  std::string configProblem;
  auto configOf = [&](const std::string& path) -> const LintConfig* {
    if (!opts.readConfig || !configProblem.empty()) return nullptr;
    return configs.forFile(path, configProblem);
  };
  Inputs inputs = expandInputs(opts.files, [&](const std::string& p) {
    const LintConfig* c = configOf(p);
    return c && c->excludes(absolutePath(p));
  });
  std::vector<std::unique_ptr<SourceText>> sources;
  std::vector<FileReport> reports;
  size_t fixed = 0;
  bool writeFailed = false;
  for (const std::string& path : inputs.files) {
    const LintConfig* config = configOf(path);
    if (!configProblem.empty()) break;
    bool werror = opts.werror || (config && config->werror);
    std::string why;
    if (lsp::isPythonPath(path)) {  // a cuTile kernel file: its directed launches, at its lines
      std::vector<FileReport> rs =
          checkCutileFile(path, analyzeOptionsFor(opts, effectiveChecks(opts, config)), opts.gridGiven, sources, why);
      if (!why.empty()) inputs.unreadable.push_back({path, why});
      for (FileReport& r : rs) reports.push_back(promoted(std::move(r), werror));
      continue;
    }
    std::optional<std::string> text = readInput(path, why);
    if (!text) {
      inputs.unreadable.push_back({path, why});
      continue;
    }
    tilesight::CheckOptions checks = effectiveChecks(opts, config);
    std::optional<bytecode::Launch> launch;
    if (isBytecodeInput(*text)) launch = addLaunch(path, checks, opts.gridGiven, configProblem);
    AnalyzeOptions analyzeOptions = analyzeOptionsFor(opts, checks);
    if (isBytecodeInput(*text)) {  // reported at the Python lines of its debug info
      for (FileReport& r : checkBytecode(path, *text, analyzeOptions, sources, launch ? &*launch : nullptr))
        reports.push_back(promoted(std::move(r), werror));
      continue;
    }
    sources.push_back(std::make_unique<SourceText>(std::move(*text)));
    Analysis a = analyze(sources.back()->text(), analyzeOptions);
    if (opts.fix) {  // the report is of the fixed text: analysed again only when a fix was written
      size_t applied = 0;
      std::string out = applyUnambiguousFixes(sources.back()->text(), a.diagnostics, applied);
      if (applied && !writeFixed(path, out)) {
        writeFailed = true;
      } else if (applied) {
        fixed += applied;
        sources.back() = std::make_unique<SourceText>(std::move(out));
        a = analyze(sources.back()->text(), analyzeOptions);
      }
    }
    const SourceText& src = *sources.back();
    warnUnusedArgs(path, a, checks);
    FileReport r{path == "-" ? "<stdin>" : path, &src, std::move(a.diagnostics)};
    if (opts.verifyDiagnostics) r.diagnostics = mismatches(src, r.diagnostics);
    reports.push_back(promoted(std::move(r), werror));
  }
  if (!configProblem.empty()) {
    llvm::errs() << "tilesight check: " << configProblem << "\n";
    return 2;
  }
  for (const std::string& f : inputs.emptyFolders)
    llvm::errs() << "tilesight check: warning: no tile program (.tile, .mlir holding a cuda_tile.module, bytecode, or a cuTile "
                    ".py with a launch directive) under '"
                 << f << "'\n";
  for (const Unreadable& u : inputs.unreadable)
    llvm::errs() << "tilesight check: cannot " << (lsp::isPythonPath(u.path) ? "check" : "read") << " '" << u.path
                 << "': " << u.why << "\n";
  llvm::raw_ostream& os = llvm::outs();
  switch (opts.format) {
    case Format::Text: {
      bool colors = useColors(opts.color);
      for (const FileReport& r : reports) {
        std::string text;
        ColorStringStream buf(text);
        buf.enable_colors(colors);
        printText(buf, r, colors);
        os << buf.str();
      }
      os.flush();
      printSummary(reports, inputs.unreadable, fixed);
      break;
    }
    case Format::Json: printJson(os, reports); break;
    case Format::Sarif: printSarif(os, reports, inputs.unreadable); break;
  }
  os.flush();
  if (!inputs.unreadable.empty() || writeFailed) return 2;
  for (const FileReport& r : reports)
    for (const Diagnostic& d : r.diagnostics)
      if (d.severity == Severity::Error) return 1;
  return 0;
}

}  // namespace tilesight::cli
