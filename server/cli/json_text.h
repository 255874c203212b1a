#pragma once
// JSON text for the command line's reports. Source text, file names and
// arguments may hold bytes that are not UTF-8; nlohmann_json throws on them
// by default, which would abort a CI run with an empty report. Each bad byte
// becomes U+FFFD instead, as llvm::json and clangd do.
#include <string>

#include <nlohmann/json.hpp>

namespace tilesight::cli {

inline std::string jsonText(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tilesight::cli
