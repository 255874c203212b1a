#include "analysis/bytecode/launch.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>
#include <nlohmann/json.hpp>

namespace tilesight::bytecode {

namespace {

bool intList(const nlohmann::json& j, std::vector<int64_t>& out) {
  if (!j.is_array()) return false;
  for (const auto& v : j) {
    if (!v.is_number_integer()) return false;
    out.push_back(v.get<int64_t>());
  }
  return true;
}

std::optional<LaunchArg> argOf(const nlohmann::json& a, std::string& why);

// A list's "items", each an array (cuTile's List[Array]: its arrays share dtype and rank).
bool listItems(const nlohmann::json& a, LaunchArg& out, std::string& why) {
  const nlohmann::json& items = a.contains("items") ? a["items"] : nlohmann::json();
  if (!items.is_array() || items.empty()) {
    why = "list '" + out.param + "' wants \"items\", a non-empty list of arrays";
    return false;
  }
  for (const auto& item : items) {
    nlohmann::json named = item;
    if (named.is_object()) named["param"] = out.param + "[" + std::to_string(out.items.size()) + "]";
    std::optional<LaunchArg> array = argOf(named, why);
    if (!array) return false;
    if (array->kind != LaunchArg::Array) {
      why = "an item of list '" + out.param + "' is not an array";
      return false;
    }
    out.items.push_back(std::move(*array));
  }
  return true;
}

std::optional<LaunchArg> argOf(const nlohmann::json& a, std::string& why) {
  LaunchArg out;
  if (!a.is_object()) {
    why = "an argument is not an object";
    return std::nullopt;
  }
  out.param = a.value("param", "");
  out.mayAlias = a.contains("may_alias") && a["may_alias"].is_boolean() && a["may_alias"].get<bool>();
  std::string kind = a.value("kind", "");
  out.dtype = a.value("dtype", "");
  if (kind == "array") {
    out.kind = LaunchArg::Array;
    if (!intList(a.value("shape", nlohmann::json()), out.shape) ||
        !intList(a.value("strides", nlohmann::json()), out.strides) || out.shape.size() != out.strides.size()) {
      why = "array '" + out.param + "' wants \"shape\" and \"strides\", two lists of integers of one length";
      return std::nullopt;
    }
  } else if (kind == "scalar") {
    out.kind = LaunchArg::Scalar;
    const nlohmann::json& v = a.contains("value") ? a["value"] : nlohmann::json();
    if (!v.is_number()) {
      why = "scalar '" + out.param + "' wants a number \"value\"";
      return std::nullopt;
    }
    if (v.is_number_integer()) out.intValue = v.get<int64_t>();
    out.value = v.dump();
  } else if (kind == "list") {
    out.kind = LaunchArg::List;
    if (!listItems(a, out, why)) return std::nullopt;
  } else if (kind != "constant") {
    why = "argument kind '" + kind + "' is not one of array, scalar, constant, list";
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::string launchFileBeside(const std::string& bytecodePath) {
  llvm::SmallString<256> stem(bytecodePath);
  llvm::sys::path::replace_extension(stem, "");
  llvm::StringRef ext = llvm::sys::path::extension(stem);
  if (ext.size() > 1 &&
      std::all_of(ext.begin() + 1, ext.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '_'; }))
    llvm::sys::path::replace_extension(stem, "");
  return (stem + ".launch.json").str();
}

std::optional<Launch> parseLaunch(std::string_view text, const std::string& file, std::string& problem) {
  Launch out;
  out.file = file;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("args") || !j["args"].is_array()) {
    problem = "'" + file + "' is not a launch file (a JSON object with \"grid\" and \"args\")";
    return std::nullopt;
  }
  if (j.contains("grid")) {
    std::vector<int64_t> grid;
    bool axes = intList(j["grid"], grid) && !grid.empty() && grid.size() <= 3 &&
                std::all_of(grid.begin(), grid.end(), [](int64_t g) { return g >= 1 && g <= (1 << 24) - 1; });
    if (!axes) {
      problem = "'" + file + "': \"grid\" wants one to three integers from 1 to 2^24 - 1";
      return std::nullopt;
    }
    out.grid = std::array<int64_t, 3>{1, 1, 1};
    std::copy(grid.begin(), grid.end(), out.grid->begin());
  }
  size_t position = 0;
  std::string why;
  for (const auto& a : j["args"]) {
    std::optional<LaunchArg> arg = argOf(a, why);
    if (!arg) {
      problem = "'" + file + "': " + why;
      return std::nullopt;
    }
    arg->position = position;
    position += arg->kind == LaunchArg::Array    ? 1 + 2 * arg->shape.size()
                : arg->kind == LaunchArg::Scalar ? 1
                : arg->kind == LaunchArg::List   ? 2
                                                 : 0;
    out.args.push_back(std::move(*arg));
  }
  return out;
}

void applyLaunch(const Launch& launch, CheckOptions& checks, bool gridGiven) {
  if (!gridGiven && launch.grid) {
    checks.grid = *launch.grid;
    checks.gridFrom = llvm::sys::path::filename(launch.file).str();
  }
  std::vector<std::pair<std::string, int64_t>> found;
  for (const LaunchArg& a : launch.args) {
    if (a.mayAlias && (a.kind == LaunchArg::Array || a.kind == LaunchArg::List)) checks.aliasGroup.push_back(a.position);
    if (a.kind == LaunchArg::Scalar && a.intValue) found.push_back({std::to_string(a.position), *a.intValue});
    // A list's arrays are in memory the kernel reads; its length is an argument.
    if (a.kind == LaunchArg::List) found.push_back({std::to_string(a.position + 1), int64_t(a.items.size())});
    if (a.kind != LaunchArg::Array) continue;
    for (size_t d = 0; d < a.shape.size(); ++d) {
      found.push_back({std::to_string(a.position + 1 + d), a.shape[d]});
      found.push_back({std::to_string(a.position + 1 + a.shape.size() + d), a.strides[d]});
    }
  }
  if (checks.args.empty() && !found.empty()) checks.argsFrom = llvm::sys::path::filename(launch.file).str();
  for (auto& f : found)  // the command line's --arg wins
    if (std::none_of(checks.args.begin(), checks.args.end(), [&](const auto& a) { return a.first == f.first; }))
      checks.args.push_back(std::move(f));
}

std::vector<std::string> parameterNames(const Launch& launch) {
  std::vector<std::string> out;
  auto put = [&](size_t position, std::string name) {
    if (out.size() <= position) out.resize(position + 1);
    out[position] = std::move(name);
  };
  for (const LaunchArg& a : launch.args) {
    if (a.kind == LaunchArg::Scalar) put(a.position, a.param);
    if (a.kind != LaunchArg::Array) continue;
    put(a.position, a.param);
    for (size_t d = 0; d < a.shape.size(); ++d) {
      put(a.position + 1 + d, a.param + ".shape." + std::to_string(d));
      put(a.position + 1 + a.shape.size() + d, a.param + ".strides." + std::to_string(d));
    }
  }
  return out;
}

std::vector<std::string> parameterNames(std::string_view text, const std::string& file) {
  std::string problem;
  std::optional<Launch> launch = parseLaunch(text, file, problem);
  return launch ? parameterNames(*launch) : std::vector<std::string>{};
}

std::string applyLaunch(std::string_view text, const std::string& file, CheckOptions& checks, bool gridGiven) {
  std::string problem;
  if (std::optional<Launch> launch = parseLaunch(text, file, problem)) applyLaunch(*launch, checks, gridGiven);
  return problem;
}

}  // namespace tilesight::bytecode
