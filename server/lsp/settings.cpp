#include "server/lsp/settings.h"

namespace tilesight::lsp {

using json = nlohmann::json;

namespace {

void applyGrid(Settings &s, const json &v, std::vector<std::string> &problems) {
  if (v.is_null()) {
    s.checks.grid.reset();
    return;
  }
  if (!v.is_array() || v.empty() || v.size() > 3) {
    problems.push_back("tilesight.grid must be an array of 1 to 3 positive "
                       "integers, e.g. [8, 4, 1]");
    return;
  }
  std::array<int64_t, 3> grid{1, 1, 1};
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number_integer() || v[i].get<int64_t>() < 1) {
      problems.push_back("tilesight.grid[" + std::to_string(i) +
                         "] must be a positive integer, not " + v[i].dump());
      return;
    }
    grid[i] = v[i].get<int64_t>();
  }
  if (std::string problem = gridProblem(grid); !problem.empty()) {
    problems.push_back("tilesight.grid: " + problem);
    return;
  }
  s.checks.grid = grid;
}

// `args`: {"n": 512, "1": 3}, the integer scalar arguments of the launch by
// name (without %) or position, as `check --arg`.
void applyArgs(Settings &s, const json &v, std::vector<std::string> &problems) {
  if (v.is_null()) {
    s.checks.args.clear();
    return;
  }
  if (!v.is_object()) {
    problems.push_back("tilesight.args must be an object of integers by "
                       "argument name or position, e.g. {\"n\": 512}");
    return;
  }
  std::vector<std::pair<std::string, int64_t>> args;
  for (const auto &[name, value] : v.items()) {
    if (name.empty() || !value.is_number_integer() ||
        (value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(INT64_MAX))) {
      problems.push_back("tilesight.args." + name + " must be an integer, not " + value.dump());
      return;
    }
    args.push_back({name[0] == '%' ? name.substr(1) : name, value.get<int64_t>()});
  }
  s.checks.args = std::move(args);
}

// `checks` is either a list of codes to turn off or an object
// {"code": false, ...}.
void applyChecks(Settings &s, const json &v,
                 std::vector<std::string> &problems) {
  std::vector<std::string> off;
  if (v.is_array()) {
    for (const json &c : v) {
      if (!c.is_string()) {
        problems.push_back("tilesight.checks: " + c.dump() + " is not a code");
        return;
      }
      off.push_back(c.get<std::string>());
    }
  } else if (v.is_object()) {
    for (const auto &[code, on] : v.items()) {
      if (!on.is_boolean()) {
        problems.push_back("tilesight.checks." + code +
                           " must be true or false");
        return;
      }
      if (!on.get<bool>())
        off.push_back(code);
    }
  } else {
    problems.push_back("tilesight.checks must be a list of codes to turn off "
                       "or an object {\"code\": false}");
    return;
  }
  s.checks.disabled = std::move(off);
}

} // namespace

std::vector<std::string> applySettings(Settings &s, const json &input) {
  std::vector<std::string> problems;
  const json *j = &input;
  if (j->is_object() && j->contains("tilesight"))
    j = &(*j)["tilesight"];
  if (j->is_null())
    return problems;
  if (!j->is_object()) {
    problems.push_back("settings must be an object, not " + j->dump());
    return problems;
  }
  if (auto it = j->find("grid"); it != j->end())
    applyGrid(s, *it, problems);
  if (auto it = j->find("args"); it != j->end())
    applyArgs(s, *it, problems);
  if (auto it = j->find("checks"); it != j->end())
    applyChecks(s, *it, problems);
  if (auto it = j->find("logLevel"); it != j->end()) {
    if (it->is_string() && (*it == "error" || *it == "info" || *it == "verbose"))
      s.logLevel = it->get<std::string>();
    else
      problems.push_back("tilesight.logLevel must be \"error\", \"info\" or "
                         "\"verbose\", not " + it->dump());
  }
  if (auto it = j->find("run"); it != j->end()) {
    if (it->is_null() || (it->is_string() && it->get<std::string>().empty())) {
      s.run.reset();
    } else if (!it->is_string()) {
      problems.push_back("tilesight.run must be a string of run options, not " + it->dump());
    } else {
      ParsedRunConfig parsed = parseRunConfig(it->get<std::string>());
      for (const RunConfigProblem &p : parsed.problems)
        problems.push_back("tilesight.run: " + p.message);
      if (parsed.ok())
        s.run = parsed.config;
    }
  }
  if (auto it = j->find("debounceMs"); it != j->end()) {
    if (it->is_number_integer() && *it >= 0 && *it <= 10000)
      s.debounceMs = it->get<int>();
    else
      problems.push_back("tilesight.debounceMs must be an integer from 0 to "
                         "10000, not " + it->dump());
  }
  if (auto it = j->find("python"); it != j->end()) {
    if (it->is_string())
      s.python = it->get<std::string>();
    else
      problems.push_back("tilesight.python must be the path of a Python interpreter (a string), not " + it->dump());
  }
  if (auto it = j->find("cutileIdleMs"); it != j->end()) {
    if (it->is_number_integer() && *it >= 100 && *it <= 60000)
      s.cutileIdleMs = it->get<int>();
    else
      problems.push_back("tilesight.cutileIdleMs must be an integer from 100 to 60000, not " + it->dump());
  }
  return problems;
}

} // namespace tilesight::lsp
