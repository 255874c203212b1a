#pragma once
// NVIDIA's cuda-tile lit files that the round-trip tests take (the printer's
// and the bytecode writer's): TILESIGHT_CUDA_TILE_DIR names a checkout; the
// valid files are those scripts/measure_cuda_tile_lit.py calls valid (RUN
// lines that do not expect failure, no expected-error).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "tests/unit/test_util.h"

namespace tilesight::littest {

inline bool isValidLitFile(const std::filesystem::path& relative, const std::string& text) {
  if (relative.extension() != ".mlir" || relative.filename().string().starts_with("debuginfo_")) return false;
  for (const auto& part : relative)
    if (part == "versioning") return false;
  static const std::regex runNot(R"(RUN:\s*not\b)");
  return text.find("RUN:") != std::string::npos && !std::regex_search(text, runNot) &&
         text.find("expected-error") == std::string::npos;
}

// The valid lit files of the checkout, sorted; nullopt when
// TILESIGHT_CUDA_TILE_DIR is not set (the caller skips with that reason).
inline std::optional<std::vector<std::filesystem::path>> validLitFiles() {
  namespace fs = std::filesystem;
  const char* root = std::getenv("TILESIGHT_CUDA_TILE_DIR");
  if (!root || !*root) return std::nullopt;
  std::vector<fs::path> out;
  for (const char* folder : {"test/Dialect/CudaTile", "test/Bytecode", "test/Transforms"}) {
    fs::path dir = fs::path(root) / folder;
    if (!fs::exists(dir)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      if (isValidLitFile(fs::relative(f, root), testing::readFile(f))) out.push_back(f);
    }
  }
  return out;
}

inline constexpr const char* kNoLitCheckout = "TILESIGHT_CUDA_TILE_DIR is not set (a cuda-tile checkout: its lit files)";

}  // namespace tilesight::littest
