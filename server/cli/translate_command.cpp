// `tilesight translate FILE [--to=text|bytecode] [-o PATH] [--locations]`:
// CUDA Tile IR bytecode to the text form, and a program (text or bytecode)
// to bytecode 13.3 (docs/bytecode.md).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>

#include "analysis/analysis.h"
#include "analysis/bytecode/launch.h"
#include "analysis/bytecode/reader.h"
#include "analysis/bytecode/writer.h"
#include "analysis/verified.h"
#include "codegen/runtime/input_file.h"
#include "server/cli/commands.h"
#include "server/cli/options.h"

namespace tilesight::cli {

namespace cl = llvm::cl;

cl::OptionCategory& translateCategory() {
  static cl::OptionCategory c("tilesight translate options");
  return c;
}

cl::SubCommand& translateSubcommand() {
  static cl::SubCommand s("translate",
                          "Print CUDA Tile IR bytecode (13.1-13.4) in the text form, or write a program as bytecode 13.3");
  return s;
}

bool translateCommand() { return static_cast<bool>(translateSubcommand()); }

namespace {

cl::opt<std::string> translateFile(cl::Positional, cl::desc("FILE"), cl::sub(translateSubcommand()),
                                   cl::cat(translateCategory()));
cl::opt<std::string> translateTo("to", cl::desc("The output form: text (from bytecode) or bytecode (13.3)"), cl::init("text"),
                                 cl::value_desc("FORM"), cl::sub(translateSubcommand()), cl::cat(translateCategory()));
cl::opt<std::string> translateOut("o", cl::desc("Write to PATH instead of standard output (-: standard output)"),
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

bool samePath(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec);
}

// The program of FILE as bytecode 13.3: a text program must have no error;
// bytecode keeps its tables and debug info (writer.h).
int toBytecode(const std::string& input) {
  bool toStdout = translateOut.empty() || translateOut == "-";
  if (toStdout && isatty(STDOUT_FILENO))
    return usage("will not write binary bytecode to a terminal; give -o PATH, or redirect standard output");
  if (!toStdout && samePath(translateOut, translateFile))
    return usage("-o " + translateOut + " is the input file; give another path");
  bytecode::Written w;
  if (bytecode::isTileIRBytecode(input)) {
    bytecode::Decoded d = bytecode::readBytecode(input);
    if (!d.ok()) {
      llvm::errs() << translateFile << ": error at byte " << d.errorOffset << ": " << d.diagnostics[0].message << "\n";
      return 1;
    }
    w = bytecode::writeBytecode(d.program, {.like = input});
  } else {
    Analysis a = analyze(input);
    if (a.chunks.size() != 1) return usage("'" + translateFile + "' holds " + std::to_string(a.chunks.size()) + " programs; bytecode holds one");
    VerifiedProgram::Result v = VerifiedProgram::of(a, a.chunks[0]);
    if (!v.program) {
      for (const std::string& why : v.reasons) llvm::errs() << translateFile << ": " << why << "\n";
      llvm::errs() << translateFile << ": not written: a program with errors cannot go to bytecode\n";
      return 1;
    }
    w = bytecode::writeBytecode(v.program->program());
  }
  if (!w.ok()) {
    for (const std::string& e : w.errors)
      llvm::errs() << translateFile << ": cannot write bytecode " << bytecode::kWriteVersion.str() << ": " << e << "\n";
    return 1;
  }
  if (toStdout) {
    llvm::outs() << w.bytes;
    llvm::outs().flush();
    return 0;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(translateOut, ec);
  if (ec) return usage("cannot write '" + translateOut + "': " + ec.message());
  os << w.bytes;
  return 0;
}

}  // namespace

int runTranslate() {
  if (translateFile.empty())
    return usage("no FILE to translate (tilesight translate FILE [--to=text|bytecode] [-o PATH] [--locations])");
  if (translateTo != "text" && translateTo != "bytecode")
    return usage("--to=" + translateTo + " is not a form; give --to=text or --to=bytecode");
  std::ifstream in(translateFile, std::ios::binary);
  if (!in) return usage("cannot read '" + translateFile + "'");
  std::stringstream buf;
  buf << in.rdbuf();
  std::string bytes = buf.str();
  if (translateTo == "bytecode") return toBytecode(bytes);
  if (!bytecode::isTileIRBytecode(bytes))
    return usage("'" + translateFile + "' is not CUDA Tile IR bytecode (it does not start with \\x7fTileIR\\0)");
  // The entry's parameters by the Python names of the launch beside, as `check` and `run` name them.
  std::string launch = bytecode::launchFileBeside(translateFile);
  std::string why;
  std::optional<std::string> launchText = runtime::readRegularFile(launch, why);
  bytecode::Decoded d =
      bytecode::readBytecode(bytes, true, launchText ? bytecode::parameterNames(*launchText, launch) : std::vector<std::string>{});
  if (!d.ok()) {
    llvm::errs() << translateFile << ": error at byte " << d.errorOffset << ": " << d.diagnostics[0].message << "\n";
    return 1;
  }
  std::string text = translateLocations ? withLocations(d) : d.text;
  if (translateOut.empty() || translateOut == "-") {
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
