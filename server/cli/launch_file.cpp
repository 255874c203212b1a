#include "server/cli/launch_file.h"

#include <algorithm>
#include <cctype>

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Path.h>
#include <nlohmann/json.hpp>

#include "codegen/runtime/input_file.h"

namespace tilesight::cli {

namespace {

// NAME.launch.json for NAME.tilebc and NAME.13_3.tilebc.
std::string launchBeside(const std::string& path) {
  llvm::SmallString<256> stem(path);
  llvm::sys::path::replace_extension(stem, "");
  llvm::StringRef ext = llvm::sys::path::extension(stem);
  if (ext.size() > 1 && std::all_of(ext.begin() + 1, ext.end(), [](char c) { return std::isdigit(c) || c == '_'; }))
    llvm::sys::path::replace_extension(stem, "");
  return (stem + ".launch.json").str();
}

bool intList(const nlohmann::json& j, std::vector<int64_t>& out) {
  if (!j.is_array()) return false;
  for (const auto& v : j) {
    if (!v.is_number_integer()) return false;
    out.push_back(v.get<int64_t>());
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
  } else if (kind != "constant") {
    why = "argument kind '" + kind + "' is not one of array, scalar, constant";
    return std::nullopt;
  }
  return out;
}

// The buffer `run` makes for an array no --arg names: zeros holding every
// element the launch's shape and strides reach.
std::string zerosFor(const LaunchArg& a) {
  bool cOrder = true;
  int64_t expect = 1, span = 1;
  for (size_t d = a.shape.size(); d-- > 0;) {
    cOrder = cOrder && (a.shape[d] <= 1 || a.strides[d] == expect);
    expect *= a.shape[d];
    span += (a.shape[d] - 1) * a.strides[d];
  }
  std::string shape;
  if (cOrder && !a.shape.empty())
    for (int64_t s : a.shape) shape += (shape.empty() ? "" : "x") + std::to_string(s);
  else
    shape = std::to_string(std::max<int64_t>(span, 1));
  return "zeros:" + shape + ":" + a.dtype;
}

}  // namespace

std::optional<LaunchFile> findLaunch(const std::string& given, const std::string& bytecodePath, std::string& problem) {
  LaunchFile out;
  out.path = given.empty() ? launchBeside(bytecodePath) : given;
  std::string why;
  std::optional<std::string> text = runtime::readRegularFile(out.path, why);
  if (!text) {
    if (!given.empty()) problem = "cannot read the launch file '" + out.path + "': " + why;
    return std::nullopt;
  }
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("args") || !j["args"].is_array()) {
    problem = "'" + out.path + "' is not a launch file (a JSON object with \"grid\" and \"args\")";
    return std::nullopt;
  }
  std::vector<int64_t> grid;
  if (j.contains("grid")) {
    bool axes = intList(j["grid"], grid) && !grid.empty() && grid.size() <= 3 &&
                std::all_of(grid.begin(), grid.end(), [](int64_t g) { return g >= 1 && g <= (1 << 24) - 1; });
    if (!axes) {
      problem = "'" + out.path + "': \"grid\" wants one to three integers from 1 to 2^24 - 1";
      return std::nullopt;
    }
    out.grid = std::array<int64_t, 3>{1, 1, 1};
    std::copy(grid.begin(), grid.end(), out.grid->begin());
  }
  size_t position = 0;
  for (const auto& a : j["args"]) {
    std::optional<LaunchArg> arg = argOf(a, why);
    if (!arg) {
      problem = "'" + out.path + "': " + why;
      return std::nullopt;
    }
    arg->position = position;
    position += arg->kind == LaunchArg::Array ? 1 + 2 * arg->shape.size() : arg->kind == LaunchArg::Scalar ? 1 : 0;
    out.args.push_back(std::move(*arg));
  }
  return out;
}

std::vector<std::string> runArgs(const LaunchFile& launch, const std::vector<std::string>& params,
                                 const std::vector<std::string>& named,
                                 std::vector<std::pair<std::string, std::string>>& outs, std::string& problem) {
  auto byName = [&](const std::string& name) -> const LaunchArg* {
    for (const LaunchArg& a : launch.args)
      if (a.param == name && a.kind != LaunchArg::Constant) return &a;
    return nullptr;
  };
  auto param = [&](size_t pos) { return pos < params.size() ? params[pos] : std::to_string(pos); };
  // What the command line names, as parameter names.
  std::vector<std::string> args, given;
  for (const std::string& n : named) {
    auto [name, value] = llvm::StringRef(n).split('=');
    std::string key = name.ltrim('%').str();
    const LaunchArg* a = byName(key);
    bool digits = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) { return std::isdigit(c); });
    if (a) key = param(a->position);
    else if (digits) key = param(std::stoul(key));
    else if (std::find(params.begin(), params.end(), key) == params.end()) {
      problem = "--arg " + n + ": the launch file '" + launch.path + "' has no argument '" + key + "'";
      return {};
    }
    args.push_back(key + "=" + value.str());
    given.push_back(key);
  }
  auto add = [&](size_t pos, const std::string& value) {
    std::string key = param(pos);
    if (std::find(given.begin(), given.end(), key) == given.end()) args.push_back(key + "=" + value);
  };
  for (const LaunchArg& a : launch.args) {
    if (a.kind == LaunchArg::Scalar) add(a.position, a.value);
    if (a.kind != LaunchArg::Array) continue;
    add(a.position, zerosFor(a));
    for (size_t d = 0; d < a.shape.size(); ++d) {
      add(a.position + 1 + d, std::to_string(a.shape[d]));
      add(a.position + 1 + a.shape.size() + d, std::to_string(a.strides[d]));
    }
  }
  for (auto& [name, path] : outs)
    if (const LaunchArg* a = byName(name); a && a->kind == LaunchArg::Array) name = param(a->position);
  return args;
}

}  // namespace tilesight::cli
