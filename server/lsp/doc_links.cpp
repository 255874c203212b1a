#include "server/lsp/doc_links.h"

#include <cctype>
#include <string>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#ifndef TILESIGHT_SOURCE_DOCS
#error "TILESIGHT_SOURCE_DOCS must be defined by the build"
#endif

namespace tilesight::lsp {

namespace {

std::string findDocs() {
  // getMainExecutable reads /proc/self/exe on Linux; the arguments only
  // matter elsewhere.
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::SmallString<256> installed(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(installed, "..", "share", "doc");
  llvm::sys::path::append(installed, "tilesight", "checks.md");
  llvm::SmallString<256> source(TILESIGHT_SOURCE_DOCS);
  llvm::sys::path::append(source, "checks.md");
  for (llvm::SmallString<256> *candidate : {&installed, &source}) {
    llvm::SmallString<256> real;
    if (!llvm::sys::fs::real_path(*candidate, real))
      return std::string(llvm::sys::path::parent_path(real.str()));
  }
  return "";
}

const std::string &docsFolder() {
  static const std::string folder = findDocs();
  return folder;
}

} // namespace

// RFC 3986: everything but unreserved characters and '/' is escaped.
std::string percentEncodePath(std::string_view path) {
  static const char hex[] = "0123456789ABCDEF";
  std::string uri;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' ||
        c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri;
}

std::string percentDecode(std::string_view path) {
  std::string decoded;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 2 < path.size() && std::isxdigit(static_cast<unsigned char>(path[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(path[i + 2]))) {
      decoded += static_cast<char>(std::stoi(std::string(path.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      decoded += path[i];
    }
  }
  return decoded;
}

std::string fileUri(std::string_view path) {
  return "file://" + percentEncodePath(path);
}

std::optional<std::string> docUrl(std::string_view file) {
  if (docsFolder().empty())
    return std::nullopt;
  return fileUri(docsFolder() + "/" + std::string(file));
}

std::optional<std::string> checkDocUrl(std::string_view code) {
  if (code.empty())
    return std::nullopt;
  std::optional<std::string> doc = docUrl("checks.md");
  return doc ? std::optional(*doc + "#" + std::string(code)) : std::nullopt;
}

} // namespace tilesight::lsp
