#include "server/cli/lint_inputs.h"

#include <algorithm>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include "server/cli/bytecode_input.h"
#include "server/lsp/cutile_compile.h"

namespace tilesight::cli {

namespace fs = llvm::sys::fs;

namespace {

// An `.mlir` file is a tile program when it holds a cuda_tile module; other
// MLIR (another dialect's tests) is not ours to check.
bool holdsTileModule(const std::string& path) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  return buf && (*buf)->getBuffer().contains("cuda_tile.module");
}

// A `.py` file is a cuTile kernel file of ours when it imports cuda.tile and
// has a comment naming tilesight: a launch directive (docs/cutile.md), or a
// misspelt one, which its check reports; other Python is not checked.
bool isDirectedKernelFile(const std::string& path) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buf) return false;
  llvm::StringRef text = (*buf)->getBuffer();
  return text.contains("cuda.tile") && lsp::mentionsTilesight(text);
}

bool isTileFile(const std::string& path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  return ext == ".tile" || (ext == ".mlir" && holdsTileModule(path)) || (ext == ".py" && isDirectedKernelFile(path)) ||
         isBytecodeFile(path);
}

// Folder by folder, so that a sub-folder that cannot be listed is reported
// as unread (LLVM's recursive iterator skips it silently).
void walkFolder(const std::string& folder, const std::function<bool(const std::string&)>& excluded, Inputs& out) {
  std::vector<std::string> found, pending{folder};
  size_t unreadBefore = out.unreadable.size();
  while (!pending.empty()) {
    std::string dir = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    // Symbolic links are followed to files but not into folders, so no cycle
    // can keep the walk going.
    for (fs::directory_iterator it(dir, ec, /*follow_symlinks=*/false), end; it != end && !ec; it.increment(ec)) {
      const std::string& path = it->path();
      fs::file_status st;
      if (std::error_code why = fs::status(path, st)) {
        if (it->type() == fs::file_type::directory_file) out.unreadable.push_back({path, why.message()});
        continue;  // else a link that leads nowhere: no file of ours
      }
      if (fs::is_directory(st)) {
        bool hidden = llvm::sys::path::filename(path).startswith(".");
        if (!hidden && it->type() != fs::file_type::symlink_file && !excluded(path)) pending.push_back(path);
        continue;
      }
      if (fs::is_regular_file(st) && !excluded(path) && isTileFile(path)) found.push_back(path);
    }
    if (ec) out.unreadable.push_back({dir, ec.message()});
  }
  std::sort(found.begin(), found.end());
  if (found.empty() && out.unreadable.size() == unreadBefore) out.emptyFolders.push_back(folder);
  out.files.insert(out.files.end(), found.begin(), found.end());
}

}  // namespace

Inputs expandInputs(const std::vector<std::string>& args, const std::function<bool(const std::string&)>& excluded) {
  Inputs out;
  for (const std::string& a : args) {
    if (a != "-" && fs::is_directory(a))
      walkFolder(a, excluded, out);
    else
      out.files.push_back(a);  // read (or found unreadable) when it is checked
  }
  return out;
}

}  // namespace tilesight::cli
