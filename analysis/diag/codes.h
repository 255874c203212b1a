#pragma once
// The diagnostic codes of DESIGN §5 (a contract), with the help text that
// SARIF rules, hover links and docs/checks.md share.
#include <string_view>
#include <vector>

namespace tilesight {

struct CodeInfo {
  std::string_view id;
  std::string_view title;
  std::string_view help;
  bool defaultError;  // error unless the check says otherwise
};

const std::vector<CodeInfo>& diagnosticCodes();
const CodeInfo* findCode(std::string_view id);

}  // namespace tilesight
