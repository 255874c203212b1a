#include "analysis/bytecode/launch.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>
#include <vector>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>
#include <nlohmann/json.hpp>

namespace tilesight::bytecode {

std::string launchFileBeside(const std::string& bytecodePath) {
  llvm::SmallString<256> stem(bytecodePath);
  llvm::sys::path::replace_extension(stem, "");
  llvm::StringRef ext = llvm::sys::path::extension(stem);
  if (ext.size() > 1 &&
      std::all_of(ext.begin() + 1, ext.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '_'; }))
    llvm::sys::path::replace_extension(stem, "");
  return (stem + ".launch.json").str();
}

std::string applyLaunch(std::string_view text, const std::string& file, CheckOptions& checks, bool gridGiven) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("args") || !j["args"].is_array())
    return "'" + file + "' is not a launch file (a JSON object with \"grid\" and \"args\")";
  if (!gridGiven && j.contains("grid") && j["grid"].is_array() && !j["grid"].empty() && j["grid"].size() <= 3) {
    std::array<int64_t, 3> g{1, 1, 1};
    for (size_t i = 0; i < j["grid"].size(); ++i) g[i] = j["grid"][i].is_number_integer() ? j["grid"][i].get<int64_t>() : 1;
    checks.grid = g;
  }
  std::vector<std::pair<std::string, int64_t>> found;
  int64_t pos = 0;
  for (const auto& a : j["args"]) {
    std::string kind = a.is_object() ? a.value("kind", "") : "";
    if (kind == "array" && a.contains("shape") && a.contains("strides")) {
      ++pos;  // the base pointer
      for (const char* key : {"shape", "strides"})
        for (const auto& v : a[key]) {
          if (v.is_number_integer()) found.push_back({std::to_string(pos), v.get<int64_t>()});
          ++pos;
        }
    } else if (kind == "scalar") {
      const auto& v = a.contains("value") ? a["value"] : nlohmann::json();
      if (v.is_number_integer()) found.push_back({std::to_string(pos), v.get<int64_t>()});
      ++pos;
    } else if (kind != "constant") {
      return "'" + file + "': argument kind '" + kind + "' is not supported (array, scalar, constant)";
    }
  }
  for (auto& f : found)  // the command line's --arg wins
    if (std::none_of(checks.args.begin(), checks.args.end(), [&](const auto& a) { return a.first == f.first; }))
      checks.args.push_back(std::move(f));
  return "";
}

}  // namespace tilesight::bytecode
