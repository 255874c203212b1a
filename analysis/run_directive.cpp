// `// tilesight-run:` directives and run options (run_directive.h).
#include "analysis/run_directive.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "analysis/ir/types.h"

namespace tilesight {

namespace {

constexpr std::string_view kMarker = "tilesight-run:";

// Options that take a value, and flags, as `tilesight run` spells them.
enum class Kind { Entry, Grid, Device, Arg, Out, Number, Word, Flag };
const std::map<std::string, Kind, std::less<>>& options() {
  static const std::map<std::string, Kind, std::less<>> table = {
      {"--entry", Kind::Entry},   {"--grid", Kind::Grid},
      {"--device", Kind::Device}, {"--arg", Kind::Arg},
      {"--out", Kind::Out},       {"--threads", Kind::Number},
      {"--repeat", Kind::Number}, {"--max-loop-iterations", Kind::Number},
      {"--arch", Kind::Word},     {"--check", Kind::Flag},
      {"--deterministic", Kind::Flag}, {"--no-tensor-cores", Kind::Flag},
  };
  return table;
}

std::vector<RunWord> splitWords(std::string_view text, uint32_t base) {
  std::vector<RunWord> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t b = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > b)
      words.push_back({std::string(text.substr(b, i - b)),
                       {base + static_cast<uint32_t>(b), base + static_cast<uint32_t>(i)}});
  }
  return words;
}

bool isNumber(std::string_view s, bool positive) {
  if (s.empty() || s.size() > 18) return false;
  if (!std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return false;
  return !positive || std::stoll(std::string(s)) > 0;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  for (size_t b = 0;;) {
    size_t e = s.find(sep, b);
    parts.push_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) return parts;
    b = e + 1;
  }
}

// A path the run may read or write: relative to the file's folder, inside
// it, a .npy file. Empty when it is one; else why not.
std::string pathProblem(std::string_view path) {
  if (path.empty()) return "a path is missing";
  if (path.front() == '/' || path.front() == '~')
    return "'" + std::string(path) + "' is not relative: paths are relative to the file's folder and stay inside it";
  for (std::string_view part : split(path, '/'))
    if (part == "..") return "'" + std::string(path) + "' leaves the file's folder ('..')";
  if (!path.ends_with(".npy")) return "'" + std::string(path) + "' is not a .npy file";
  return {};
}

// zeros:SHAPE:DTYPE or rand:SHAPE:DTYPE[:SEED].
std::string generatedProblem(std::string_view v) {
  std::vector<std::string_view> parts = split(v, ':');
  bool rand = parts[0] == "rand";
  std::string form = rand ? "rand:SHAPE:DTYPE[:SEED]" : "zeros:SHAPE:DTYPE";
  if (parts.size() < 3 || parts.size() > (rand ? 4u : 3u))
    return "'" + std::string(v) + "' is not " + form;
  for (std::string_view d : split(parts[1], 'x'))
    if (!isNumber(d, true)) return "'" + std::string(parts[1]) + "' is not a shape such as 1024x512";
  bool numpy = parts[2].size() >= 2 && (parts[2][0] == '<' || parts[2][0] == '|');
  if (!elemFromName(parts[2]) && !numpy)
    return "'" + std::string(parts[2]) + "' is not an element type (f32, f16, bf16, i32, ... or a NumPy descr)";
  if (parts.size() == 4 && !isNumber(parts[3], false)) return "the seed '" + std::string(parts[3]) + "' is not a number";
  return {};
}

std::string bufferProblem(std::string_view v) {
  if (v.starts_with("@")) return pathProblem(v.substr(1));
  if (v.starts_with("zeros:") || v.starts_with("rand:")) return generatedProblem(v);
  return "'" + std::string(v) + "' is not @PATH.npy, zeros:SHAPE:DTYPE or rand:SHAPE:DTYPE[:SEED]";
}

std::string argValueProblem(std::string_view v) {
  if (v.starts_with("list:")) {
    for (std::string_view item : split(v.substr(5), ','))
      if (std::string p = bufferProblem(item); !p.empty()) return "list item " + p;
    return {};
  }
  if (v.starts_with("@") || v.starts_with("zeros:") || v.starts_with("rand:")) return bufferProblem(v);
  std::string s(v);
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  if (!s.empty() && end == s.c_str() + s.size()) return {};
  return "'" + s + "' is not @PATH.npy, zeros:SHAPE:DTYPE, rand:SHAPE:DTYPE[:SEED], list:ITEM,... or a number";
}

// Applies one option with its value to `c`; the problem, if any.
std::string apply(RunConfig& c, Kind kind, const std::string& name, const std::string& value) {
  switch (kind) {
    case Kind::Entry:
      c.entry = value.starts_with("@") ? value.substr(1) : value;
      return c.entry.empty() ? "--entry needs an entry's name" : "";
    case Kind::Grid: {
      std::vector<std::string_view> dims = split(value, ',');
      if (dims.size() > 3) return "--grid takes X[,Y[,Z]], not '" + value + "'";
      for (size_t i = 0; i < dims.size(); ++i) {
        if (!isNumber(dims[i], true)) return "--grid takes positive X[,Y[,Z]], not '" + value + "'";
        c.grid[i] = std::stoll(std::string(dims[i]));
      }
      return {};
    }
    case Kind::Device:
      c.device = value;
      return runDeviceProblem(value);
    case Kind::Arg:
    case Kind::Out: {
      auto eq = value.find('=');
      if (eq == std::string::npos || eq == 0)
        return name + " takes NAME=" + (kind == Kind::Arg ? "VALUE" : "PATH.npy") + ", not '" + value + "'";
      std::string p = kind == Kind::Arg ? argValueProblem(std::string_view(value).substr(eq + 1))
                                        : pathProblem(std::string_view(value).substr(eq + 1));
      (kind == Kind::Arg ? c.args : c.outs).push_back(value);
      return p.empty() ? "" : name + " " + value.substr(0, eq) + ": " + p;
    }
    case Kind::Number:
      if (!isNumber(value, false)) return name + " takes a number, not '" + value + "'";
      c.flags.push_back(name + "=" + value);
      return {};
    case Kind::Word:
      c.flags.push_back(name + "=" + value);
      return {};
    case Kind::Flag: break;
  }
  return {};
}

std::string refused(const std::string& word) {
  if (word == "--sanitize")
    return "--sanitize is chosen when the run starts (the Sanitize lens or command), not in the options";
  if (word.starts_with("--format")) return "--format is the editor's: it reads the run's JSON";
  if (word.starts_with("--")) {
    std::string known;
    for (const auto& [name, kind] : options()) known += (known.empty() ? "" : ", ") + name;
    return "unknown option '" + word + "'; the run options are " + known;
  }
  return "'" + word + "' is not an option: the file to run is the one the options are in";
}

}  // namespace

std::string runDeviceProblem(std::string_view d) {
  if (d == "auto" || d == "cpu") return {};
  auto colon = d.find(':');
  std::string_view name = d.substr(0, colon);
  if ((name == "cuda" || name == "hip" || name == "opencl") &&
      (colon == std::string_view::npos || isNumber(d.substr(colon + 1), false)))
    return {};
  return "'" + std::string(d) + "' is not a device: auto, cpu, cuda[:N], hip[:N] or opencl[:N]";
}

ParsedRunConfig parseRunConfig(std::string_view text, uint32_t base) {
  ParsedRunConfig out;
  std::vector<RunWord> words = splitWords(text, base);
  for (size_t i = 0; i < words.size(); ++i) {
    const RunWord& w = words[i];
    std::string name = w.text, value;
    bool inlineValue = false;
    if (auto eq = name.find('='); name.starts_with("--") && eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inlineValue = true;
    }
    auto it = options().find(name);
    if (it == options().end()) {
      out.problems.push_back({w.range, refused(name)});
      continue;
    }
    if (it->second == Kind::Flag) {
      if (inlineValue) out.problems.push_back({w.range, name + " takes no value"});
      else out.config.flags.push_back(name);
      continue;
    }
    Range at = w.range;
    if (!inlineValue) {
      if (i + 1 >= words.size() || words[i + 1].text.starts_with("--")) {
        out.problems.push_back({w.range, name + " needs a value"});
        continue;
      }
      value = words[++i].text;
      at = {w.range.begin, words[i].range.end};
    }
    if (std::string p = apply(out.config, it->second, name, value); !p.empty()) out.problems.push_back({at, p});
  }
  return out;
}

std::vector<std::string> RunConfig::argv(const std::string& runDevice, bool sanitize) const {
  std::vector<std::string> v;
  if (!entry.empty()) v.push_back("--entry=" + entry);
  v.push_back("--grid=" + std::to_string(grid[0]) + "," + std::to_string(grid[1]) + "," + std::to_string(grid[2]));
  v.push_back("--device=" + runDevice);
  for (const std::string& a : args) v.push_back("--arg=" + a);
  for (const std::string& o : outs) v.push_back("--out=" + o);
  for (const std::string& f : flags)
    if (!(sanitize && f == "--check")) v.push_back(f);
  if (sanitize) v.push_back("--sanitize");
  return v;
}

std::vector<std::string> RunConfig::inputs() const {
  std::vector<std::string> files;
  for (const std::string& a : args) {
    std::string_view v = std::string_view(a).substr(a.find('=') + 1);
    if (v.starts_with("list:")) v.remove_prefix(5);
    for (std::string_view item : split(v, ','))
      if (item.starts_with("@")) files.emplace_back(item.substr(1));
  }
  return files;
}

std::vector<std::string> RunConfig::outputs() const {
  std::vector<std::string> files;
  for (const std::string& o : outs) files.push_back(o.substr(o.find('=') + 1));
  return files;
}

std::vector<RunDirective> findRunDirectives(std::string_view text) {
  std::vector<RunDirective> found;
  for (size_t at = text.find(kMarker); at != std::string_view::npos; at = text.find(kMarker, at + 1)) {
    // Only `// tilesight-run:` at the start of a line (after spaces).
    size_t slash = at;
    while (slash > 0 && text[slash - 1] == ' ') --slash;
    if (slash < 2 || text.substr(slash - 2, 2) != "//") continue;
    size_t lineStart = slash - 2;
    while (lineStart > 0 && (text[lineStart - 1] == ' ' || text[lineStart - 1] == '\t')) --lineStart;
    if (lineStart > 0 && text[lineStart - 1] != '\n') continue;
    size_t optionsAt = at + kMarker.size();
    size_t end = text.find('\n', optionsAt);
    if (end == std::string_view::npos) end = text.size();
    RunDirective d;
    d.range = {static_cast<uint32_t>(slash - 2), static_cast<uint32_t>(end)};
    d.parsed = parseRunConfig(text.substr(optionsAt, end - optionsAt), static_cast<uint32_t>(optionsAt));
    found.push_back(std::move(d));
  }
  return found;
}

std::vector<Diagnostic> checkRunDirectives(const std::vector<RunDirective>& directives,
                                           const std::vector<std::string>& entries) {
  std::vector<Diagnostic> out;
  auto report = [&](Range r, std::string message) {
    out.push_back(Diagnostic{r, Severity::Error, "run.directive", std::move(message), {}, {}});
  };
  std::map<std::string, const RunDirective*> byEntry;
  for (const RunDirective& d : directives) {
    for (const RunConfigProblem& p : d.parsed.problems) report(p.range, p.message);
    const std::string& entry = d.parsed.config.entry;
    if (entry.empty() && entries.size() > 1) {
      report(d.range, "name the entry to run (--entry NAME): the file has " + std::to_string(entries.size()) +
                          " entries");
      continue;
    }
    if (!entry.empty() && std::find(entries.begin(), entries.end(), entry) == entries.end()) {
      std::string list;
      for (const std::string& e : entries) list += (list.empty() ? "" : ", ") + e;
      report(d.range, "the file has no entry '" + entry + "'" + (list.empty() ? "" : "; its entries: " + list));
      continue;
    }
    std::string key = entry.empty() && !entries.empty() ? entries[0] : entry;
    if (auto [it, fresh] = byEntry.emplace(key, &d); !fresh)
      out.push_back(Diagnostic{d.range, Severity::Error, "run.directive",
                               "a second directive for entry '" + key + "'",
                               {{it->second->range, "the first is here"}}, {}});
  }
  return out;
}

const RunConfig* directiveFor(const std::vector<RunDirective>& directives, const std::string& entry,
                              size_t entryCount) {
  for (const RunDirective& d : directives) {
    const std::string& e = d.parsed.config.entry;
    if (d.parsed.ok() && (e == entry || (e.empty() && entryCount == 1))) return &d.parsed.config;
  }
  return nullptr;
}

}  // namespace tilesight
