#pragma once
// `.tilesight.toml`: a project's settings for `check`, found as ruff and
// clang-tidy find theirs, by walking up from each checked file's folder.
//
//   [check]
//   disable = ["race.scope"]   # codes or prefixes turned off
//   grid = [8, 4, 1]           # the launch grid, as --grid
//   werror = true              # as --Werror
//   exclude = ["third_party", "gen/*.tile"]  # globs, relative to this file's folder (path_glob.h)
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/cli/path_glob.h"

namespace tilesight::cli {

constexpr const char* kConfigName = ".tilesight.toml";

struct LintConfig {
  std::string path;  // the file
  std::string root;  // its folder (absolute): exclude globs are relative to it
  std::vector<std::string> disable;
  std::optional<std::array<int64_t, 3>> grid;
  bool werror = false;
  std::vector<PathGlob> exclude;

  // Whether `absPath` (a file or folder under `root`, or not) is excluded: a
  // glob matches its path relative to `root` or a folder on the way there.
  bool excludes(const std::string& absPath) const;
};

// Reads a config file; nullopt with `problem` (FILE:LINE:COL: why) when it is
// malformed, names an unknown key or code, or has a value of the wrong kind.
std::optional<LintConfig> readConfig(const std::string& path, std::string& problem);

// The config governing each file, each folder looked up once.
class ConfigFinder {
public:
  // nullptr: no config at or above the file's folder, or (with `problem` set)
  // the nearest one is malformed.
  const LintConfig* forFile(const std::string& file, std::string& problem);

private:
  const LintConfig* forFolder(const std::string& absFolder, std::string& problem);
  std::map<std::string, std::shared_ptr<const LintConfig>> byFolder_;  // null: none at or above
};

// `path` made absolute and without `.`/`..` parts.
std::string absolutePath(const std::string& path);

}  // namespace tilesight::cli
