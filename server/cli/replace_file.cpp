#include "server/cli/replace_file.h"

#include <unistd.h>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace tilesight::cli {

namespace fs = llvm::sys::fs;

namespace {

// Writes `text` to the open file `fd` and closes it; the first error.
std::error_code writeAndClose(int fd, const std::string& text) {
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << text;
  os.flush();
  std::error_code ec = os.error();
  // On disk before the rename, so that a crash cannot leave an empty file under the user's name.
  if (!ec && ::fsync(fd) != 0) ec = std::error_code(errno, std::generic_category());
  os.close();
  if (!ec) ec = os.error();
  os.clear_error();  // reported by the caller (an uncleared error would abort)
  return ec;
}

}  // namespace

bool replaceFileText(const std::string& path, const std::string& text, std::string& why) {
  llvm::SmallString<256> target;
  fs::file_status st;
  std::error_code ec = fs::real_path(path, target);
  if (!ec) ec = fs::status(target, st);
  if (ec) {
    why = ec.message();
    return false;
  }
  if (!fs::is_regular_file(st)) {
    why = "not a regular file";
    return false;
  }
  int fd = -1;
  llvm::SmallString<256> temp;
  if ((ec = fs::createUniqueFile(target + ".tilesight-%%%%%%", fd, temp))) {
    why = "cannot create a temporary file beside it: " + ec.message();
    return false;
  }
  // The owner first: giving a file away clears its set-id bits. Only root
  // may give a file away, so a failure there is no reason to stop.
  (void)fs::changeFileOwnership(fd, st.getUser(), st.getGroup());
  ec = fs::setPermissions(fd, st.permissions());  // on the descriptor: the umask does not narrow them
  std::error_code written = writeAndClose(fd, text);
  if (!ec) ec = written;
  if (!ec) ec = fs::rename(temp, target);
  if (ec) {
    fs::remove(temp);
    why = ec.message();
    return false;
  }
  return true;
}

}  // namespace tilesight::cli
