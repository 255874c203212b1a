// `tilesight record [--out DIR] -- PROGRAM [ARG]...` (docs/cutile.md): runs a
// program with its cuTile launches recorded. The program runs with the
// tilesight_cutile package's recorder on its Python path (a sitecustomize
// that wraps cuda.tile.launch); each launch's bytecode and launch file land
// in DIR, which `tilesight check DIR` reads. The program's own input, output
// and exit status pass through unchanged.
#include <cstdlib>

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

#include "server/cli/commands.h"
#include "server/cli/options.h"
#include "server/lsp/cutile_compile.h"

extern char** environ;

namespace tilesight::cli {

namespace cl = llvm::cl;

cl::OptionCategory& recordCategory() {
  static cl::OptionCategory c("tilesight record options");
  return c;
}

namespace {

cl::SubCommand& recordSubcommand() {
  static cl::SubCommand s("record", "Run a Python program and record its cuTile launches for `tilesight check`");
  return s;
}

cl::opt<std::string> outOpt("out", cl::desc("The folder the launches are written to (new or empty; default tilesight-record)"),
                            cl::value_desc("DIR"), cl::init("tilesight-record"), cl::sub(recordSubcommand()),
                            cl::cat(recordCategory()));
cl::list<std::string> programOpt(cl::Positional, cl::desc("-- PROGRAM [ARG]..."), cl::sub(recordSubcommand()),
                                 cl::cat(recordCategory()));

// A new folder, or an empty one: a recording never mixes with another's or
// overwrites the user's files.
bool prepareFolder(const std::string& dir, std::string& why) {
  std::error_code ec;
  if (llvm::sys::fs::is_directory(dir)) {
    llvm::sys::fs::directory_iterator it(dir, ec), end;
    if (!ec && it != end) {
      why = "'" + dir + "' is not empty: name a new folder with --out, or remove it";
      return false;
    }
  } else if (llvm::sys::fs::exists(dir)) {
    why = "'" + dir + "' exists and is not a folder";
    return false;
  }
  if ((ec = llvm::sys::fs::create_directories(dir))) {
    why = "cannot create '" + dir + "': " + ec.message();
    return false;
  }
  return true;
}

// The environment of the program: the server's, with the recorder on
// PYTHONPATH and the folder in TILESIGHT_RECORD_DIR.
std::vector<std::string> programEnvironment(const std::string& package, const std::string& dir) {
  std::vector<std::string> env;
  std::string path;
  for (char** e = environ; *e; ++e) {
    llvm::StringRef kv(*e);
    if (kv.startswith("PYTHONPATH="))
      path = kv.drop_front(11).str();
    else if (!kv.startswith("TILESIGHT_RECORD_DIR="))
      env.push_back(kv.str());
  }
  std::string site = package + "/tilesight_cutile/record_site";
  env.push_back("PYTHONPATH=" + site + ":" + package + (path.empty() ? "" : ":" + path));
  env.push_back("TILESIGHT_RECORD_DIR=" + dir);
  return env;
}

// What the recorder says it recorded (DIR/record.json), on stderr.
void summarize(const std::string& dir) {
  auto buf = llvm::MemoryBuffer::getFile(dir + "/record.json");
  nlohmann::json j = buf ? nlohmann::json::parse((*buf)->getBuffer(), nullptr, false) : nlohmann::json();
  if (!j.is_object()) {
    llvm::errs() << "tilesight record: the program made no cuTile launch (nothing recorded in '" << dir << "')\n";
    return;
  }
  size_t launches = j.value("launches", nlohmann::json::array()).size();
  llvm::errs() << "tilesight record: " << launches << (launches == 1 ? " launch" : " launches") << " recorded in '"
               << dir << "'";
  const nlohmann::json& skipped = j.contains("skipped") ? j["skipped"] : nlohmann::json();
  if (skipped.is_object() && skipped.value("count", 0) > 0)
    llvm::errs() << " (" << skipped.value("count", 0) << " more not recorded: " << skipped.value("why", "see record.json")
                 << ")";
  llvm::errs() << "; check them with: tilesight check " << dir << "\n";
  for (const auto& e : j.value("errors", nlohmann::json::array())) {
    if (!e.is_object()) continue;
    llvm::errs() << "tilesight record: a launch of " << e.value("kernel", "a kernel") << " not recorded";
    if (e.value("count", 1) > 1) llvm::errs() << " (" << e.value("count", 1) << " times)";
    llvm::errs() << ": " << e.value("message", "") << "\n";
  }
}

}  // namespace

bool recordCommand() { return static_cast<bool>(recordSubcommand()); }

int runRecord() {
  if (programOpt.empty()) {
    llvm::errs() << "usage: tilesight record [--out DIR] -- PROGRAM [ARG]...   (e.g. tilesight record -- python3 app.py)\n";
    return 2;
  }
  lsp::CutileTools tools = lsp::cutileTools("");
  if (tools.package.empty()) {
    llvm::errs() << "tilesight record: the tilesight_cutile Python package is not installed beside this tilesight "
                    "(share/tilesight/python): reinstall tilesight\n";
    return 2;
  }
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName(programOpt[0]);
  if (!program) {
    llvm::errs() << "tilesight record: no program '" << programOpt[0] << "': " << program.getError().message() << "\n";
    return 2;
  }
  llvm::SmallString<256> dir(outOpt.getValue());
  llvm::sys::fs::make_absolute(dir);
  std::string why;
  if (!prepareFolder(dir.str().str(), why)) {
    llvm::errs() << "tilesight record: " << why << "\n";
    return 2;
  }
  std::vector<std::string> env = programEnvironment(tools.package, dir.str().str());
  std::vector<llvm::StringRef> args(programOpt.begin(), programOpt.end()), envRefs(env.begin(), env.end());
  std::string error;
  bool failed = false;
  int status = llvm::sys::ExecuteAndWait(*program, args, llvm::ArrayRef<llvm::StringRef>(envRefs), {}, 0, 0, &error, &failed);
  if (failed) {
    llvm::errs() << "tilesight record: cannot run '" << *program << "': " << error << "\n";
    return 2;
  }
  summarize(dir.str().str());
  if (status < 0) {  // it crashed: say so, as a shell would
    llvm::errs() << "tilesight record: '" << programOpt[0] << "' " << error << "\n";
    return 1;
  }
  return status;
}

}  // namespace tilesight::cli
