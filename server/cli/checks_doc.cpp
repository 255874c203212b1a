#include "server/cli/checks_doc.h"

#include <string>

namespace tilesight::cli {

std::string_view checksDocText();  // checks_doc_text.cpp, generated

std::string_view checksDoc() { return checksDocText(); }

std::optional<std::string_view> checkSection(std::string_view code) {
  std::string_view doc = checksDoc();
  std::string heading = "\n## `" + std::string(code) + "`";
  size_t at = doc.find(heading);
  if (at == std::string_view::npos) return std::nullopt;
  size_t begin = at + 1;
  size_t end = doc.find("\n## ", begin);
  // The anchor line (`<a id=...>`) before the next heading belongs to that one.
  size_t anchor = doc.rfind("\n<a id=", end == std::string_view::npos ? doc.size() : end);
  if (end != std::string_view::npos && anchor != std::string_view::npos && anchor > begin) end = anchor;
  std::string_view section = doc.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
  while (!section.empty() && (section.back() == '\n' || section.back() == ' ')) section.remove_suffix(1);
  return section;
}

}  // namespace tilesight::cli
