// `tilesight translate FILE --to=text [-o PATH] [--locations]`: CUDA Tile IR
// bytecode to the text form (docs/bytecode.md).
#include <fstream>
#include <sstream>

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>

#include "analysis/analysis.h"
#include "analysis/bytecode/reader.h"
#include "server/cli/commands.h"
#include "server/cli/options.h"

namespace tilesight::cli {

namespace cl = llvm::cl;

cl::OptionCategory& translateCategory() {
  static cl::OptionCategory c("tilesight translate options");
  return c;
}

cl::SubCommand& translateSubcommand() {
  static cl::SubCommand s("translate", "Print CUDA Tile IR bytecode (13.1-13.4) in the text form");
  return s;
}

bool translateCommand() { return static_cast<bool>(translateSubcommand()); }

namespace {

cl::opt<std::string> translateFile(cl::Positional, cl::desc("FILE"), cl::sub(translateSubcommand()),
                                   cl::cat(translateCategory()));
cl::opt<std::string> translateTo("to", cl::desc("The output form: text (the only one so far)"), cl::init("text"),
                                 cl::value_desc("FORM"), cl::sub(translateSubcommand()), cl::cat(translateCategory()));
cl::opt<std::string> translateOut("o", cl::desc("Write the text to PATH instead of standard output"),
                                  cl::value_desc("PATH"), cl::sub(translateSubcommand()), cl::cat(translateCategory()));
cl::opt<bool> translateLocations("locations",
                                 cl::desc("End each op's line with a comment giving its source location"),
                                 cl::sub(translateSubcommand()), cl::cat(translateCategory()));

int usage(const std::string& problem) {
  llvm::errs() << "tilesight translate: " << problem << "\n";
  return 2;
}

std::string locText(const bytecode::SourceLoc& l) {
  return "\"" + l.file + "\":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

// `// loc("file":line:col) inlined at "file":line:col` after the first line of each located op.
std::string withLocations(const bytecode::Decoded& d) {
  Analysis a = analyze(d.text);
  const Program& parsed = a.chunks.at(0).parsed.program;
  std::vector<OpId> order = bytecode::preorder(parsed);
  std::vector<std::string> comment(1 + static_cast<size_t>(std::count(d.text.begin(), d.text.end(), '\n')));
  for (size_t i = 0; i < order.size() && i < d.locations.size(); ++i) {
    const bytecode::OpLocation& l = d.locations[i];
    if (!l.at.known()) continue;
    uint32_t begin = parsed.op(order[i]).range.begin;
    size_t line = static_cast<size_t>(std::count(d.text.begin(), d.text.begin() + begin, '\n'));
    if (line >= comment.size() || !comment[line].empty()) continue;
    comment[line] = "  // loc(" + locText(l.at) + ")";
    for (const bytecode::SourceLoc& c : l.callers) comment[line] += " inlined at " + locText(c);
  }
  std::string out;
  std::istringstream in(d.text);
  size_t n = 0;
  for (std::string line; std::getline(in, line); ++n) out += line + comment[n] + "\n";
  return out;
}

}  // namespace

int runTranslate() {
  if (translateFile.empty()) return usage("no FILE to translate (tilesight translate FILE [--to=text] [-o PATH] [--locations])");
  if (translateTo != "text") return usage("--to=" + translateTo + " is not supported; the one form is text");
  std::ifstream in(translateFile, std::ios::binary);
  if (!in) return usage("cannot read '" + translateFile + "'");
  std::stringstream buf;
  buf << in.rdbuf();
  std::string bytes = buf.str();
  if (!bytecode::isTileIRBytecode(bytes))
    return usage("'" + translateFile + "' is not CUDA Tile IR bytecode (it does not start with \\x7fTileIR\\0)");
  bytecode::Decoded d = bytecode::readBytecode(bytes);
  if (!d.ok()) {
    llvm::errs() << translateFile << ": error at byte " << d.errorOffset << ": " << d.diagnostics[0].message << "\n";
    return 1;
  }
  std::string text = translateLocations ? withLocations(d) : d.text;
  if (translateOut.empty()) {
    llvm::outs() << text;
    return 0;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(translateOut, ec);
  if (ec) return usage("cannot write '" + translateOut + "': " + ec.message());
  os << text;
  return 0;
}

}  // namespace tilesight::cli
