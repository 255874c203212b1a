#pragma once
// What `workspace/executeCommand` tilesight.run and tilesight.devices do:
// start `tilesight run` (or `devices`), the executable the server itself
// is, in a process of its own, with the editor's text on its standard input
// and the file's folder as its working folder; read its `--progress` lines
// and its JSON; turn them into a report, the run's findings and the reply.
// Nothing else in the server starts a program (the I/O audit test checks).
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/diag/diagnostic.h"
#include "analysis/source/source_text.h"
#include "server/lsp/run_config.h"

namespace tilesight::lsp {

using json = nlohmann::json;

// One run the editor asked for, resolved against the document's analysis.
struct RunSpec {
  std::string uri;
  int64_t version = 0;
  std::shared_ptr<const SourceText> text;  // what runs (the editor's, saved or not)
  std::string entry;                       // without '@'
  std::string device = "cpu";
  bool sanitize = false;
  ResolvedRun run;
  std::string folder;  // working folder: the file's (paths in the options are relative to it)
  // A cuTile .py document: its path, the directive line of the launch to
  // run (with random inputs) and the tilesight.python setting.
  std::string pythonFile;
  uint32_t line = 0;
  std::string python;
};

struct RunOutcome {
  json result;  // the reply's result when errorCode == 0
  int errorCode = 0;
  std::string errorMessage;
  // The run's diagnostics (sanitizer findings, a fault), in spec.text.
  std::vector<Diagnostic> findings;
  // A usage problem the run reported about its options, at the directive.
  std::optional<Diagnostic> directiveProblem;
};

// Runs `spec` with `executable`; `onStage` gets each stage as it starts
// ("analyze", "run on the interpreter", "compile and launch", ...).
RunOutcome executeRun(const std::string &executable, const RunSpec &spec,
                      const std::function<void(const std::string &)> &onStage, const std::atomic<bool> &cancel);

// `tilesight devices --format=json`: the reply's result or its error.
RunOutcome listDevices(const std::string &executable, const std::atomic<bool> &cancel);

// The markdown report of a run's JSON (`tilesight run --format=json`), whose
// printed text lost its last `printedDropped` bytes (printed_cap.h).
std::string runReport(const json &run, const RunSpec &spec, double wallMs, size_t findings, uint64_t printedDropped);

} // namespace tilesight::lsp
