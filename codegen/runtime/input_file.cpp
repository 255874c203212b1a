#include "codegen/runtime/input_file.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

namespace tilesight::runtime {

namespace {

namespace fs = llvm::sys::fs;

const char* kindOf(fs::file_type t) {
  switch (t) {
    case fs::file_type::directory_file: return "a folder";
    case fs::file_type::fifo_file: return "a FIFO (named pipe)";
    case fs::file_type::character_file: return "a character device";
    case fs::file_type::block_file: return "a block device";
    case fs::file_type::socket_file: return "a socket";
    default: return "something";
  }
}

}  // namespace

std::optional<std::string> readRegularFile(const std::string& path, std::string& why) {
  // The kind is asked before opening: opening a FIFO blocks until a writer comes.
  fs::file_status st;
  if (std::error_code ec = fs::status(path, st)) {
    why = ec.message();
    return std::nullopt;
  }
  if (!fs::is_regular_file(st)) {
    why = std::string(kindOf(st.type())) + ", not a regular file";
    return std::nullopt;
  }
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buf) {
    why = buf.getError().message();
    return std::nullopt;
  }
  return (*buf)->getBuffer().str();
}

}  // namespace tilesight::runtime
