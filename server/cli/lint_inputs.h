#pragma once
// The FILE arguments of `check` (DESIGN §3): a file as given, `-` for
// standard input, and a folder as every `.tile` file, every `.mlir` file
// holding a `cuda_tile.module`, every bytecode file and every cuTile `.py`
// file with a launch directive under it, recursively, in sorted order.
#include <functional>
#include <string>
#include <vector>

namespace tilesight::cli {

struct Unreadable {
  std::string path;
  std::string why;
};

struct Inputs {
  std::vector<std::string> files;  // in argument order, each folder's files sorted
  std::vector<Unreadable> unreadable;  // arguments or folders that could not be read
  std::vector<std::string> emptyFolders;  // folders that hold no tile program
};

// `excluded(path)`: a config file leaves the path out (asked of what a folder
// holds, not of files named on the command line). Hidden folders (`.git`,
// `.venv`) are not entered.
Inputs expandInputs(const std::vector<std::string>& args, const std::function<bool(const std::string&)>& excluded);

}  // namespace tilesight::cli
