// Run lenses above entries (code_lens.h).
#include "server/lsp/code_lens.h"

#include "server/lsp/run_config.h"

namespace tilesight::lsp {

json codeLenses(const FeatureContext &cx, const json &) {
  json out = json::array();
  const Snapshot &snap = cx.snap;
  std::vector<EntryRef> entries = entriesOf(snap.analysis);
  for (const EntryRef &e : entries) {
    std::optional<ResolvedRun> run = runConfigFor(snap, cx.settings, e.name, entries.size());
    if (!run)
      continue;
    json range = rangeJson(*snap.source, {e.range.begin, e.range.begin}, cx.encoding);
    auto lens = [&](const std::string &title, const std::string &device, bool sanitize) {
      json args = {{"uri", snap.uri}, {"entry", e.name}, {"device", device}, {"sanitize", sanitize}};
      out.push_back({{"range", range},
                     {"command", {{"title", title}, {"command", "tilesight.run"}, {"arguments", json::array({args})}}}});
    };
    lens("▶ Run on cpu", "cpu", false);
    std::string device = run->config.device.empty() ? "auto" : run->config.device;
    if (device != "cpu")
      lens("Run on " + device, device, false);
    lens("Sanitize", "cpu", true);
  }
  return out;
}

std::vector<std::string> runCommandNames() {
  return {"tilesight.run", "tilesight.devices", "tilesight.cancelRun", "tilesight.translate"};
}

} // namespace tilesight::lsp
