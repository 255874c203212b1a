#pragma once
// textDocument/codeLens: "▶ Run on cpu · Run on DEVICE · Sanitize" above
// each entry whose run is configured (a `// tilesight-run:` directive or the
// tilesight.run setting, run_config.h). A lens only names the command; the
// run starts when the user picks it (workspace/executeCommand tilesight.run).
#include <vector>

#include "server/lsp/feature.h"

namespace tilesight::lsp {

json codeLenses(const FeatureContext &cx, const json &params);

// The commands of workspace/executeCommand (executeCommandProvider).
std::vector<std::string> runCommandNames();

} // namespace tilesight::lsp
