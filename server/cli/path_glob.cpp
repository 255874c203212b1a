#include "server/cli/path_glob.h"

namespace tilesight::cli {

namespace {

constexpr size_t npos = std::string_view::npos;

// The end of the `[...]` set that starts at `at` (after its ']'), or npos
// when it is not closed. A ']' right after '[' or '[!' belongs to the set.
size_t setEnd(std::string_view pat, size_t at) {
  size_t i = at + 1;
  if (i < pat.size() && (pat[i] == '!' || pat[i] == '^')) ++i;
  if (i < pat.size() && pat[i] == ']') ++i;
  while (i < pat.size() && pat[i] != ']') i += pat[i] == '\\' ? 2 : 1;
  return i < pat.size() ? i + 1 : npos;
}

// Whether the set pat[at, end) (a well-formed `[...]`) holds `c`.
bool setHolds(std::string_view pat, size_t at, size_t end, char c) {
  size_t i = at + 1, last = end - 1;  // pat[last] is the closing ']'
  bool negated = pat[i] == '!' || pat[i] == '^';
  if (negated) ++i;
  bool in = false;
  while (i < last) {
    char lo = pat[i] == '\\' ? pat[++i] : pat[i];
    ++i;
    char hi = lo;
    if (i + 1 < last && pat[i] == '-') {
      hi = pat[i + 1] == '\\' ? pat[i + 2] : pat[i + 1];
      i += pat[i + 1] == '\\' ? 3 : 2;
    }
    in = in || (lo <= c && c <= hi);
  }
  return in != negated;
}

// Matches the element of `pat` at `p` (no '*') against `c`; the end of the
// element, or npos when it does not match.
size_t matchElement(std::string_view pat, size_t p, char c) {
  switch (pat[p]) {
    case '?': return p + 1;
    case '[': {
      size_t end = setEnd(pat, p);
      return setHolds(pat, p, end, c) ? end : npos;
    }
    case '\\': return pat[p + 1] == c ? p + 2 : npos;
    default: return pat[p] == c ? p + 1 : npos;
  }
}

// One segment: on a mismatch, the last '*' takes one more character and the
// match resumes after it (earlier stars never need to take more).
bool matchSegment(std::string_view pat, std::string_view name) {
  size_t p = 0, n = 0, afterStar = npos, starTook = 0;
  while (n < name.size()) {
    if (p < pat.size() && pat[p] == '*') {
      afterStar = ++p;
      starTook = n;
      continue;
    }
    size_t next = p < pat.size() ? matchElement(pat, p, name[n]) : npos;
    if (next != npos) {
      p = next;
      ++n;
    } else if (afterStar != npos) {
      p = afterStar;
      n = ++starTook;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

std::vector<std::string_view> segmentsOf(std::string_view path) {
  std::vector<std::string_view> out;
  for (size_t b = 0; b <= path.size();) {
    size_t e = std::min(path.find('/', b), path.size());
    if (e > b) out.push_back(path.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

}  // namespace

std::optional<PathGlob> PathGlob::parse(std::string_view pattern, std::string& problem) {
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      if (i + 1 == pattern.size() || pattern[i + 1] == '/') {
        problem = "the '\\' at " + std::to_string(i + 1) + " escapes no character of a name";
        return std::nullopt;
      }
      ++i;
      continue;
    }
    if (pattern[i] == '[') {
      size_t end = setEnd(pattern, i);
      if (end == npos || pattern.substr(i, end - i).find('/') != npos) {
        problem = "the '[' at " + std::to_string(i + 1) + " is not closed by a ']' in its segment";
        return std::nullopt;
      }
      i = end - 1;
    }
  }
  PathGlob g;
  for (std::string_view s : segmentsOf(pattern)) g.segments_.emplace_back(s);
  if (g.segments_.empty()) {
    problem = "an empty pattern matches nothing";
    return std::nullopt;
  }
  g.foldersOnly_ = pattern.ends_with('/');
  return g;
}

// The segments: the same backtracking as within one, '**' standing for '*'.
bool PathGlob::matches(std::string_view path) const {
  std::vector<std::string_view> names = segmentsOf(path);
  size_t p = 0, n = 0, afterStar = npos, starTook = 0;
  while (n < names.size()) {
    if (p < segments_.size() && segments_[p] == "**") {
      afterStar = ++p;
      starTook = n;
      continue;
    }
    if (p < segments_.size() && matchSegment(segments_[p], names[n])) {
      ++p;
      ++n;
    } else if (afterStar != npos) {
      p = afterStar;
      n = ++starTook;
    } else {
      return false;
    }
  }
  while (p < segments_.size() && segments_[p] == "**") ++p;
  return p == segments_.size();
}

}  // namespace tilesight::cli
