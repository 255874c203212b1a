// Markdown as plain text for clients that take only plaintext (feature.h).
#include <cctype>

#include "server/lsp/feature.h"

namespace tilesight::lsp {

std::string plainText(const std::string &markdown) {
  std::string out;
  size_t at = 0;
  while (at < markdown.size()) {
    size_t nl = markdown.find('\n', at);
    std::string line = markdown.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? markdown.size() : nl + 1;
    if (line.rfind("```", 0) == 0)  // a fence: the code between stays, the fence goes
      continue;
    for (size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (c == '\\' && i + 1 < line.size() && std::ispunct(static_cast<unsigned char>(line[i + 1]))) {
        out += line[++i];
      } else if (c == '`' || (c == '*' && i + 1 < line.size() && line[i + 1] == '*')) {
        if (c == '*') ++i;  // ** around bold text
      } else {
        out += c;
      }
    }
    if (nl != std::string::npos) out += '\n';
  }
  return out;
}

}  // namespace tilesight::lsp
