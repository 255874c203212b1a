#pragma once
// Helpers for tests that analyze small programs.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/analysis.h"

namespace tilesight::testing {

// The bytes of a file (empty when it cannot be read).
inline std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Wraps a function body in a module and an entry with the given arguments.
inline std::string kernel(const std::string& args, const std::string& body) {
  return "cuda_tile.module @m {\n  entry @k(" + args + ") {\n" + body + "\n    return\n  }\n}\n";
}

inline std::vector<std::string> messages(const Analysis& a, Severity s = Severity::Error) {
  std::vector<std::string> out;
  for (const auto& d : a.diagnostics)
    if (d.severity == s) out.push_back(d.message);
  return out;
}

inline bool anyContains(const std::vector<std::string>& msgs, const std::string& needle) {
  for (const auto& m : msgs)
    if (m.find(needle) != std::string::npos) return true;
  return false;
}

// 1-based line of each error.
inline std::vector<uint32_t> errorLines(std::string_view text, const Analysis& a) {
  SourceText src{std::string(text)};
  std::vector<uint32_t> out;
  for (const auto& d : a.diagnostics)
    if (d.severity == Severity::Error) out.push_back(src.lineCol(d.range.begin).line + 1);
  return out;
}

}  // namespace tilesight::testing
