#include "server/cli/bytecode_input.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include "analysis/bytecode/launch.h"
#include "analysis/bytecode/reader.h"
#include "analysis/bytecode/source_map.h"
#include "codegen/runtime/input_file.h"
#include "server/cli/launch_file.h"
#include "server/cli/options.h"

namespace tilesight::cli {

namespace {

llvm::cl::opt<std::string> launchOpt("launch",
                                     llvm::cl::desc("Bytecode files: the launch (grid, arguments) as cuTile's "
                                                    "compile.py --launch writes it (default: NAME.launch.json beside "
                                                    "NAME[.VERSION].tilebc)"),
                                     llvm::cl::value_desc("FILE.json"), llvm::cl::sub(checkSubcommand()),
                                     llvm::cl::cat(checkCategory()));

}  // namespace

std::optional<bytecode::Launch> addLaunch(const std::string& bytecodePath, tilesight::CheckOptions& checks,
                                          bool gridGiven, std::string& problem) {
  std::optional<bytecode::Launch> launch = findLaunch(launchOpt, bytecodePath, problem);
  if (launch) bytecode::applyLaunch(*launch, checks, gridGiven);
  return launch;
}

bool isBytecodeInput(std::string_view bytes) { return bytecode::isTileIRBytecode(bytes); }

bool isBytecodeFile(const std::string& path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  if (ext == ".tilebc" || ext == ".bytecode" || ext == ".cutile") return true;
  // Only a regular file's head is read: opening a FIFO met in a folder walk blocks.
  if (!llvm::sys::fs::is_regular_file(path)) return false;
  char head[8] = {};
  std::ifstream in(path, std::ios::binary);
  return in.read(head, sizeof head) && isBytecodeInput(std::string_view(head, sizeof head));
}

}  // namespace tilesight::cli
