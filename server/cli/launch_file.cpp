#include "server/cli/launch_file.h"

#include <algorithm>
#include <cctype>

#include <llvm/ADT/StringRef.h>

#include "codegen/runtime/input_file.h"

namespace tilesight::cli {

namespace {

// The Tile IR element type of a launch dtype: Tile IR integers have no sign
// (cuTile's u8 array is a pointer to i8, its bool array one to i1).
std::string elementOf(const std::string& dtype) {
  if (dtype == "bool") return "i1";
  if (dtype.size() > 1 && dtype[0] == 'u' && std::isdigit(static_cast<unsigned char>(dtype[1]))) return "i" + dtype.substr(1);
  return dtype;
}

// The buffer `run` makes for an array no --arg names: zeros (or random
// values) holding every element the launch's shape and strides reach.
// Random values go only into floating-point arrays: integer and boolean
// arrays are indices, counters, locks and flags, which random values make
// meaningless (a lock that starts held spins for ever).
// Each array gets a seed of its own (`seed`), so that two arrays do not start
// equal and a kernel that swaps them still shows it.
std::string bufferFor(const bytecode::LaunchArg& a, bool random, size_t seed) {
  llvm::StringRef dtype(a.dtype);
  random = random && (dtype.startswith("f") || dtype.startswith("bf"));
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
  return random ? "rand:" + shape + ":" + elementOf(a.dtype) + ":" + std::to_string(seed)
                : "zeros:" + shape + ":" + elementOf(a.dtype);
}

}  // namespace

std::optional<bytecode::Launch> findLaunch(const std::string& given, const std::string& bytecodePath,
                                           std::string& problem) {
  std::string file = given.empty() ? bytecode::launchFileBeside(bytecodePath) : given;
  std::string why;
  std::optional<std::string> text = runtime::readRegularFile(file, why);
  if (!text) {
    if (!given.empty()) problem = "cannot read the launch file '" + file + "': " + why;
    return std::nullopt;
  }
  return bytecode::parseLaunch(*text, file, problem);
}

std::vector<std::string> runArgs(const bytecode::Launch& launch, const std::vector<std::string>& params,
                                 const std::vector<std::string>& named,
                                 std::vector<std::pair<std::string, std::string>>& outs, std::string& problem,
                                 bool random) {
  auto byName = [&](const std::string& name) -> const bytecode::LaunchArg* {
    for (const bytecode::LaunchArg& a : launch.args)
      if (a.param == name && a.kind != bytecode::LaunchArg::Constant) return &a;
    return nullptr;
  };
  auto param = [&](size_t pos) { return pos < params.size() ? params[pos] : std::to_string(pos); };
  // What the command line names, as parameter names.
  std::vector<std::string> args, given;
  for (const std::string& n : named) {
    auto [name, value] = llvm::StringRef(n).split('=');
    std::string key = name.ltrim('%').str();
    const bytecode::LaunchArg* a = byName(key);
    bool digits = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) { return std::isdigit(c); });
    if (a) key = param(a->position);
    else if (digits) key = param(std::stoul(key));
    else if (std::find(params.begin(), params.end(), key) == params.end()) {
      problem = "--arg " + n + ": the launch file '" + launch.file + "' has no argument '" + key + "'";
      return {};
    }
    args.push_back(key + "=" + value.str());
    given.push_back(key);
  }
  auto add = [&](size_t pos, const std::string& value) {
    std::string key = param(pos);
    if (std::find(given.begin(), given.end(), key) == given.end()) args.push_back(key + "=" + value);
  };
  for (const bytecode::LaunchArg& a : launch.args) {
    if (a.kind == bytecode::LaunchArg::Scalar) add(a.position, a.value);
    if (a.kind == bytecode::LaunchArg::List) {
      std::string items;
      for (size_t k = 0; k < a.items.size(); ++k)
        items += (items.empty() ? "" : ",") + bufferFor(a.items[k], random, 1000 * (a.position + 1) + k);
      add(a.position, "list:" + items);
      add(a.position + 1, std::to_string(a.items.size()));
    }
    if (a.kind != bytecode::LaunchArg::Array) continue;
    add(a.position, bufferFor(a, random, a.position));
    for (size_t d = 0; d < a.shape.size(); ++d) {
      add(a.position + 1 + d, std::to_string(a.shape[d]));
      add(a.position + 1 + a.shape.size() + d, std::to_string(a.strides[d]));
    }
  }
  for (auto& [name, path] : outs) {
    // NAME[K], an array of a list, keeps its [K] after the list's parameter.
    auto [base, index] = llvm::StringRef(name).split('[');
    const bytecode::LaunchArg* a = byName(base.str());
    if (a && a->kind == bytecode::LaunchArg::Array && index.empty()) name = param(a->position);
    if (a && a->kind == bytecode::LaunchArg::List && !index.empty()) name = param(a->position) + "[" + index.str();
  }
  return args;
}

}  // namespace tilesight::cli
