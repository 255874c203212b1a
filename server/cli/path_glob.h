#pragma once
// The `exclude` globs of .tilesight.toml (docs/ci.md), matched against a path
// relative to the config file's folder, segment by segment:
//   *       any run of characters within one segment (never '/')
//   ?       one character, not '/'
//   [ab] [a-z] [!a-z] [^a-z]   one character of (or not of) a set
//   \c      the character c itself
//   **      as a whole segment: any number of segments, none included
//   a trailing '/': the pattern matches folders only
// Matching is two-pointer backtracking, within a segment over characters and
// across segments over segments: time at most the product of the lengths,
// never exponential, however many stars a pattern holds.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilesight::cli {

class PathGlob {
public:
  // nullopt with `problem` when the pattern is malformed (an unclosed '[', a
  // trailing '\', no segment at all).
  static std::optional<PathGlob> parse(std::string_view pattern, std::string& problem);

  // Whether the relative, '/'-separated `path` matches, ignoring the
  // folders-only mark (the caller knows what the path names).
  bool matches(std::string_view path) const;
  bool foldersOnly() const { return foldersOnly_; }

private:
  std::vector<std::string> segments_;  // "**": any number of segments
  bool foldersOnly_ = false;
};

}  // namespace tilesight::cli
