#pragma once
// docs/checks.md, built into the executable, so `tilesight explain CODE` and
// the SARIF rules' help work wherever the executable is (installed or not).
#include <optional>
#include <string_view>

namespace tilesight::cli {

std::string_view checksDoc();
// The section of one code: from its `## `CODE` — ...` heading to the next
// heading of that level.
std::optional<std::string_view> checkSection(std::string_view code);

}  // namespace tilesight::cli
