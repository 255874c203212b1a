#include "server/cli/lint_config.h"

#include <toml++/toml.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include "analysis/diag/codes.h"
#include "codegen/runtime/input_file.h"
#include "server/cli/options.h"

namespace tilesight::cli {

namespace {

std::string where(const std::string& path, const toml::source_region& r) {
  return path + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column) + ": ";
}

// What a value of the wrong kind is, for the message that refuses it.
std::string kindOf(const toml::node& v) {
  switch (v.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "a list";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

// A list of strings; false with `problem` set when the value is something else.
bool strings(const std::string& path, const toml::node& v, std::string_view key, std::vector<std::string>& out,
             std::string& problem) {
  const toml::array* a = v.as_array();
  if (!a) {
    problem = where(path, v.source()) + "`" + std::string(key) + "` wants a list of strings, not " + kindOf(v);
    return false;
  }
  for (const toml::node& e : *a) {
    const toml::value<std::string>* s = e.as_string();
    if (!s) {
      problem = where(path, e.source()) + "`" + std::string(key) + "` wants a list of strings; this item is " + kindOf(e);
      return false;
    }
    out.push_back(s->get());
  }
  return true;
}

bool readGrid(const std::string& path, const toml::node& v, LintConfig& c, std::string& problem) {
  std::string text;
  if (const toml::array* a = v.as_array()) {
    for (const toml::node& e : *a) {
      const toml::value<int64_t>* n = e.as_integer();
      if (!n) {
        problem = where(path, e.source()) + "`grid` wants 1 to 3 positive integers, e.g. [8, 4, 1]; this item is " +
                  kindOf(e);
        return false;
      }
      text += (text.empty() ? "" : ",") + std::to_string(n->get());
    }
  } else if (const toml::value<std::string>* s = v.as_string()) {
    text = s->get();
  } else {
    problem = where(path, v.source()) + "`grid` wants a list of 1 to 3 positive integers, e.g. [8, 4, 1], or a string " +
              "\"8,4,1\", not " + kindOf(v);
    return false;
  }
  std::string why;
  c.grid = parseGrid(text, why);
  if (!c.grid) problem = where(path, v.source()) + "`grid`: " + (why.empty() ? "wants [X, Y, Z]" : why);
  return c.grid.has_value();
}

bool readCheckTable(const std::string& path, const toml::table& t, LintConfig& c, std::string& problem) {
  for (auto&& [key, v] : t) {
    std::string_view k = key.str();
    if (k == "disable") {
      if (!strings(path, v, k, c.disable, problem)) return false;
      for (const std::string& code : c.disable)
        if (!isCodeOrPrefix(code)) {
          problem = where(path, v.source()) + "`disable`: '" + code + "' is not a diagnostic code (tilesight explain lists them)";
          return false;
        }
    } else if (k == "grid") {
      if (!readGrid(path, v, c, problem)) return false;
    } else if (k == "werror") {
      const toml::value<bool>* b = v.as_boolean();
      if (!b) {
        problem = where(path, v.source()) + "`werror` wants true or false, not " + kindOf(v);
        return false;
      }
      c.werror = b->get();
    } else if (k == "exclude") {
      std::vector<std::string> globs;
      if (!strings(path, v, k, globs, problem)) return false;
      for (const std::string& g : globs) {
        std::string why;
        std::optional<PathGlob> p = PathGlob::parse(g, why);
        if (!p) {
          problem = where(path, v.source()) + "`exclude`: '" + g + "': " + why;
          return false;
        }
        c.exclude.push_back(std::move(*p));
      }
    } else {
      problem = where(path, key.source()) + "unknown key `check." + std::string(k) +
                "` (known: disable, grid, werror, exclude)";
      return false;
    }
  }
  return true;
}

}  // namespace

std::string absolutePath(const std::string& path) {
  llvm::SmallString<256> p(path);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p.str());
}

bool LintConfig::excludes(const std::string& absPath) const {
  llvm::StringRef rel(absPath);
  if (!rel.consume_front(root) || !(rel.empty() || rel.front() == '/')) return false;
  rel = rel.ltrim('/');
  // The path itself, then each folder on the way to it.
  for (llvm::StringRef p = rel; !p.empty(); p = llvm::sys::path::parent_path(p))
    for (const PathGlob& g : exclude)
      if (g.matches(p) && (!g.foldersOnly() || p != rel || llvm::sys::fs::is_directory(absPath))) return true;
  return false;
}

std::optional<LintConfig> readConfig(const std::string& path, std::string& problem) {
  // Read here rather than by toml++, which would wait for ever on a FIFO.
  std::string why;
  std::optional<std::string> text = runtime::readRegularFile(path, why);
  if (!text) {
    problem = "cannot read the config file '" + path + "': " + why + " (--no-config reads no config file)";
    return std::nullopt;
  }
  toml::table doc;
  try {
    doc = toml::parse(*text, std::string_view(path));
  } catch (const toml::parse_error& e) {
    problem = where(path, e.source()) + std::string(e.description());
    return std::nullopt;
  }
  LintConfig c;
  c.path = path;
  c.root = std::string(llvm::sys::path::parent_path(absolutePath(path)));
  for (auto&& [key, v] : doc) {
    const toml::table* t = v.as_table();
    if (key.str() != "check" || !t) {
      problem = where(path, key.source()) + "unknown " + (t ? "table [" : "key `") + std::string(key.str()) +
                (t ? "]" : "`") + " (the settings of `check` go in a [check] table)";
      return std::nullopt;
    }
    if (!readCheckTable(path, *t, c, problem)) return std::nullopt;
  }
  return c;
}

const LintConfig* ConfigFinder::forFile(const std::string& file, std::string& problem) {
  std::string abs = absolutePath(file == "-" ? "./-" : file);
  return forFolder(std::string(llvm::sys::path::parent_path(abs)), problem);
}

const LintConfig* ConfigFinder::forFolder(const std::string& folder, std::string& problem) {
  auto it = byFolder_.find(folder);
  if (it != byFolder_.end()) return it->second.get();
  std::shared_ptr<const LintConfig> found;
  llvm::SmallString<256> candidate(folder);
  llvm::sys::path::append(candidate, kConfigName);
  if (llvm::sys::fs::exists(candidate)) {
    std::optional<LintConfig> c = readConfig(std::string(candidate.str()), problem);
    if (!c) return nullptr;
    found = std::make_shared<const LintConfig>(std::move(*c));
  } else if (llvm::StringRef parent = llvm::sys::path::parent_path(folder); !parent.empty() && parent != folder) {
    const LintConfig* up = forFolder(parent.str(), problem);
    if (!problem.empty()) return nullptr;
    if (up) found = byFolder_[parent.str()];
  }
  byFolder_[folder] = found;
  return found.get();
}

}  // namespace tilesight::cli
