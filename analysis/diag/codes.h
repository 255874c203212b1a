#pragma once
// The diagnostic codes of DESIGN §5 (a contract), with the help text that
// SARIF rules, hover links and docs/checks.md share.
#include <string_view>
#include <vector>

#include "analysis/diag/diagnostic.h"

namespace tilesight {

struct CodeInfo {
  std::string_view id;
  std::string_view title;
  std::string_view help;
  bool defaultError;  // error unless the check says otherwise
  // A rule of the language (syntax, type): a program with such an error is
  // not a Tile IR program and cannot run. The other codes are findings about
  // a valid program (running it is how the sanitizer confirms them).
  bool languageRule = false;
};

const std::vector<CodeInfo>& diagnosticCodes();
const CodeInfo* findCode(std::string_view id);
// An error of a rule of the language (CodeInfo::languageRule): the program
// is not a Tile IR program and does not run.
bool isLanguageError(const Diagnostic& d);
// Whether `code` is `pattern` or lies under it (`race` covers `race.scope`).
bool codeMatches(std::string_view code, std::string_view pattern);
// Whether some code is `pattern` or lies under it.
bool isCodeOrPrefix(std::string_view pattern);

}  // namespace tilesight
