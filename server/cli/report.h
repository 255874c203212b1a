#pragma once
// Printers for `tilesight check` (DESIGN §3): text, json and sarif.
#include <string>
#include <vector>

#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

#include "analysis/diag/diagnostic.h"
#include "analysis/source/source_text.h"
#include "server/cli/lint_inputs.h"
#include "server/lsp/bytecode_reports.h"

namespace tilesight::cli {

using lsp::FileReport;

void printText(llvm::raw_ostream& os, const FileReport& r, bool colors);
void printJson(llvm::raw_ostream& os, const std::vector<FileReport>& reports);
// The "diagnostics" array of printJson (also `run --format=json`'s).
nlohmann::json diagnosticsJson(const std::vector<FileReport>& reports);
// SARIF 2.1.0 for code scanning; files that could not be read become the
// invocation's toolExecutionNotifications.
void printSarif(llvm::raw_ostream& os, const std::vector<FileReport>& reports, const std::vector<Unreadable>& unreadable);

}  // namespace tilesight::cli
