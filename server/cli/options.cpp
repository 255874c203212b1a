#include "server/cli/options.h"

#include "analysis/diag/codes.h"

namespace tilesight::cli {

namespace cl = llvm::cl;

cl::OptionCategory& checkCategory() {
  static cl::OptionCategory c("tilesight check options");
  return c;
}

cl::SubCommand& checkSubcommand() {
  static cl::SubCommand s("check", "Parse, verify and analyze tile programs; print diagnostics");
  return s;
}

namespace {
cl::opt<Format> formatOpt("format", cl::desc("Output format"), cl::init(Format::Text),
                          cl::values(clEnumValN(Format::Text, "text", "clang-style text with the source line"),
                                     clEnumValN(Format::Json, "json", "one JSON object with all diagnostics"),
                                     clEnumValN(Format::Sarif, "sarif", "SARIF 2.1.0 for code scanning")),
                          cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<bool> splitOpt("split-input-file", cl::desc("Check each `// -----` chunk on its own"),
                       cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<bool> verifyOpt("verify-diagnostics",
                        cl::desc("Match diagnostics against expected-* comments (MLIR's convention)"),
                        cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<std::string> gridOpt("grid", cl::desc("The launch grid, for the checks that need it (e.g. 8,4,1)"),
                             cl::value_desc("X[,Y[,Z]]"), cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::list<std::string> argOpt("arg",
                             cl::desc("An integer scalar argument of the launch, by name (without %) or position: "
                                      "dynamic shapes and loop bounds that follow from it become known"),
                             cl::value_desc("NAME=VALUE"), cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<bool> aliasingOpt("assume-aliasing", cl::desc("Distinct pointer arguments of an entry may alias"),
                          cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<bool> proveOpt("prove",
                       cl::desc("Remarks on each entry's launch contract and on each view access: proved in range "
                                "for every launch, for every launch keeping the contract, for the launch given, or "
                                "undecided (prove.contract, prove.access)"),
                       cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::list<std::string> disableOpt("disable", cl::desc("Turn off a diagnostic code or prefix (race, bounds.index, ...)"),
                                 cl::value_desc("CODE"), cl::CommaSeparated, cl::sub(checkSubcommand()),
                                 cl::cat(checkCategory()));
// Per file, so that no file can keep a CI run busy for long: 8 units of 2^30
// operations decide the hardest claims of the layout tests in seconds.
cl::opt<unsigned> layoutBudgetOpt(
    "layout-budget",
    cl::desc("Work budget of the exact layout decisions (#layout claims, tensor_view injectivity) of one "
             "file, in units of 2^30 operations; past it they say 'undecided'"),
    cl::value_desc("N"), cl::init(8), cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<bool> werrorOpt("Werror", cl::desc("Warnings count as errors (reported as errors, exit status 1)"),
                        cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<bool> fixOpt("fix",
                     cl::desc("Apply, in place, the fix of every diagnostic that carries exactly one, then report "
                              "what is left"),
                     cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<ColorMode> colorOpt("color", cl::desc("Colours in the text report (auto: on a terminal, unless NO_COLOR is set)"),
                            cl::init(ColorMode::Auto),
                            cl::values(clEnumValN(ColorMode::Auto, "auto", "on a terminal without NO_COLOR"),
                                       clEnumValN(ColorMode::Always, "always", "always"),
                                       clEnumValN(ColorMode::Never, "never", "never")),
                            cl::sub(checkSubcommand()), cl::cat(checkCategory()));
cl::opt<bool> noConfigOpt("no-config", cl::desc("Read no .tilesight.toml"), cl::sub(checkSubcommand()),
                          cl::cat(checkCategory()));
cl::list<std::string> filesOpt(cl::Positional, cl::desc("FILE... | FOLDER... | -"), cl::sub(checkSubcommand()),
                               cl::cat(checkCategory()));
}  // namespace

cl::OptionCategory& layoutCategory() {
  static cl::OptionCategory c("tilesight layout options");
  return c;
}

cl::SubCommand& layoutSubcommand() {
  static cl::SubCommand s("layout", "Evaluate a layout expression; print it, its table, picture or facts");
  return s;
}

namespace {
cl::opt<LayoutFormat> layoutFormatOpt(
    "format", cl::desc("Output format"), cl::init(LayoutFormat::Text),
    cl::values(clEnumValN(LayoutFormat::Text, "text", "the canonical layout string"),
               clEnumValN(LayoutFormat::Table, "table", "CuTe print_layout grid"),
               clEnumValN(LayoutFormat::Markdown, "markdown", "the grid as a markdown table"),
               clEnumValN(LayoutFormat::Json, "json", "the layout, its properties and offsets"),
               clEnumValN(LayoutFormat::Svg, "svg", "a picture (TV layouts coloured by thread)"),
               clEnumValN(LayoutFormat::Latex, "latex", "the picture as a TikZ document (CuTe print_latex)"),
               clEnumValN(LayoutFormat::Png, "png", "the picture as a PNG image (drawn by librsvg)")),
    cl::sub(layoutSubcommand()), cl::cat(layoutCategory()));
cl::opt<int64_t> maxCellsOpt("max-cells", cl::desc("Rows and columns a picture draws (1 to 256; default 32)"),
                             cl::init(32), cl::value_desc("N"), cl::sub(layoutSubcommand()), cl::cat(layoutCategory()));
cl::opt<int64_t> banksOpt("banks", cl::desc("Colour a picture by shared-memory bank (N banks of 4-byte words)"),
                          cl::value_desc("N"), cl::sub(layoutSubcommand()), cl::cat(layoutCategory()));
cl::opt<int64_t> elementBytesOpt("element-bytes", cl::desc("Bytes per element for --banks (default 4)"), cl::init(4),
                                 cl::value_desc("B"), cl::sub(layoutSubcommand()), cl::cat(layoutCategory()));
cl::opt<std::string> atOpt("at", cl::desc("Print the offset of one coordinate (integer, hierarchical or congruent)"),
                           cl::value_desc("COORD"), cl::sub(layoutSubcommand()), cl::cat(layoutCategory()));
cl::list<std::string> exprOpt(cl::Positional, cl::desc("EXPR"), cl::sub(layoutSubcommand()),
                              cl::cat(layoutCategory()));
}  // namespace

bool layoutCommand() { return static_cast<bool>(layoutSubcommand()); }

LayoutOptions layoutOptions() {
  LayoutOptions o;
  o.format = layoutFormatOpt;
  if (atOpt.getNumOccurrences()) o.at = atOpt;
  o.maxCells = maxCellsOpt;
  if (banksOpt.getNumOccurrences()) o.banks = banksOpt;
  o.elementBytes = elementBytesOpt;
  // An unquoted expression with spaces arrives as several words.
  for (const std::string& w : exprOpt) o.expr += (o.expr.empty() ? "" : " ") + w;
  return o;
}

cl::OptionCategory& lspCategory() {
  static cl::OptionCategory c("tilesight lsp options");
  return c;
}

cl::SubCommand& lspSubcommand() {
  static cl::SubCommand s("lsp", "Run the language server (stdio, or TCP with --listen)");
  return s;
}

namespace {
cl::opt<std::string> listenOpt("listen", cl::desc("Serve one client over TCP instead of stdio (PORT alone: 127.0.0.1)"),
                               cl::value_desc("HOST:PORT"), cl::sub(lspSubcommand()), cl::cat(lspCategory()));
// vscode-languageclient appends --stdio to a server's arguments when its
// transport is stdio, as do other clients' generic configurations.
cl::opt<bool> stdioOpt("stdio", cl::desc("Serve over stdin and stdout (the default)"), cl::sub(lspSubcommand()),
                       cl::cat(lspCategory()));
cl::opt<LogLevel> logOpt("log", cl::desc("What the server logs on stderr"), cl::init(LogLevel::Info),
                         cl::values(clEnumValN(LogLevel::Error, "error", "errors only"),
                                    clEnumValN(LogLevel::Info, "info", "each message and request duration"),
                                    clEnumValN(LogLevel::Verbose, "verbose", "also notification durations")),
                         cl::sub(lspSubcommand()), cl::cat(lspCategory()));
}  // namespace

bool lspCommand() { return static_cast<bool>(lspSubcommand()); }

LspOptions lspOptions() {
  LspOptions o;
  if (listenOpt.getNumOccurrences()) o.listen = listenOpt;
  if (o.listen && stdioOpt) o.problem = "--stdio and --listen name two transports; give one";
  o.log = logOpt;
  return o;
}

std::optional<std::array<int64_t, 3>> parseGrid(llvm::StringRef text, std::string& problem) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  text.split(parts, ',');
  std::array<int64_t, 3> grid{1, 1, 1};
  bool ok = !parts.empty() && parts.size() <= 3;
  for (size_t i = 0; ok && i < parts.size(); ++i) ok = !parts[i].trim().getAsInteger(10, grid[i]);
  if (!ok) {
    problem = "--grid wants 1 to 3 positive integers separated by commas, not '" + text.str() + "'";
    return std::nullopt;
  }
  problem = gridProblem(grid);
  if (!problem.empty()) {
    problem = "--grid=" + text.str() + ": " + problem;
    return std::nullopt;
  }
  return grid;
}

bool checkCommand() { return static_cast<bool>(checkSubcommand()); }

CheckOptions checkOptions() {
  CheckOptions o;
  o.format = formatOpt;
  o.splitInputFile = splitOpt;
  o.verifyDiagnostics = verifyOpt;
  o.werror = werrorOpt;
  o.fix = fixOpt;
  o.color = colorOpt;
  o.readConfig = !noConfigOpt;
  o.gridGiven = gridOpt.getNumOccurrences() > 0;
  o.files.assign(filesOpt.begin(), filesOpt.end());
  o.checks.assumeAliasing = aliasingOpt;
  o.checks.prove = proveOpt;
  for (const std::string& a : argOpt) {
    llvm::StringRef name, value;
    std::tie(name, value) = llvm::StringRef(a).split('=');
    int64_t v;
    if (name.empty() || value.empty() || value.trim().getAsInteger(10, v))
      o.problem = "--arg wants NAME=INTEGER (an argument's name without % or its position), not '" + a + "'";
    else
      o.checks.args.push_back({name.ltrim('%').str(), v});
  }
  // Beyond 2^14 units (hours) a budget is no budget.
  if (layoutBudgetOpt < 1 || layoutBudgetOpt > (1u << 14))
    o.problem = "--layout-budget wants a number of units from 1 to 16384, not " + std::to_string(layoutBudgetOpt);
  o.layoutBudget = layoutBudgetOpt * layout::kWorkUnit;
  o.checks.disabled.assign(disableOpt.begin(), disableOpt.end());
  for (const std::string& code : o.checks.disabled)
    if (!isCodeOrPrefix(code)) o.problem = "--disable: '" + code + "' is not a diagnostic code (docs/checks.md lists them)";
  if (gridOpt.getNumOccurrences()) {
    std::string problem;
    o.checks.grid = parseGrid(gridOpt, problem);
    if (!o.checks.grid) o.problem = problem;
  }
  return o;
}

}  // namespace tilesight::cli
