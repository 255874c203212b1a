// Runs for the editor (run_session.h).
#include "server/lsp/run_session.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "server/lsp/child_process.h"
#include "server/lsp/jsonrpc.h"
#include "server/lsp/printed_cap.h"

namespace tilesight::lsp {

namespace {

constexpr std::string_view kProgressPrefix = "tilesight-progress: ";
// A run writes only the outputs it names: the GPU runtimes' kernel caches
// (the CUDA driver's ~/.nv/ComputeCache, PoCL's ~/.cache/pocl) are off.
const std::vector<std::string> kQuietCaches = {"CUDA_CACHE_DISABLE=1", "POCL_KERNEL_CACHE=0"};

RunOutcome failure(int code, std::string message) {
  RunOutcome o;
  o.errorCode = code;
  o.errorMessage = std::move(message);
  return o;
}

// The child's standard error as one message, without its command prefix.
std::string messageOf(const ChildResult &c, const std::string &what) {
  std::string m = c.err;
  while (!m.empty() && (m.back() == '\n' || m.back() == ' '))
    m.pop_back();
  for (const std::string &prefix : {"tilesight " + what + ": ", std::string("tilesight: ")})
    if (m.starts_with(prefix))
      m.erase(0, prefix.size());
  if (m.empty())
    m = c.signal ? "ended by signal " + std::to_string(c.signal) : "exit status " + std::to_string(c.exitCode);
  return m;
}

Severity severityNamed(const std::string &s) {
  return s == "warning" ? Severity::Warning : s == "note" ? Severity::Note : s == "remark" ? Severity::Remark
                                                                                        : Severity::Error;
}

uint32_t offsetAt(const SourceText &src, const json &line, const json &column) {
  if (!line.is_number_integer() || !column.is_number_integer() || line.get<int64_t>() < 1 ||
      column.get<int64_t>() < 1)
    return 0;
  return src.offsetOf({static_cast<uint32_t>(line.get<int64_t>() - 1), static_cast<uint32_t>(column.get<int64_t>() - 1)});
}

// The run's diagnostics (line and column from 1, in bytes) in its text.
std::vector<Diagnostic> findingsOf(const json &run, const SourceText &src) {
  std::vector<Diagnostic> out;
  const json &diags = run.contains("diagnostics") ? run["diagnostics"] : json::array();
  for (const json &d : diags) {
    if (!d.is_object())
      continue;
    Diagnostic x;
    x.range = {offsetAt(src, d.value("line", json()), d.value("column", json())),
               offsetAt(src, d.value("endLine", json()), d.value("endColumn", json()))};
    x.range.end = std::max(x.range.begin, x.range.end);
    x.severity = severityNamed(d.value("severity", "error"));
    x.code = d.value("code", "");
    x.message = d.value("message", "");
    for (const json &n : d.value("notes", json::array()))
      if (n.is_object())
        x.notes.push_back({{offsetAt(src, n.value("line", json()), n.value("column", json())),
                            offsetAt(src, n.value("line", json()), n.value("column", json()))},
                           n.value("message", "")});
    out.push_back(std::move(x));
  }
  return out;
}

std::string number(const json &v) {
  if (v.is_string())
    return v.get<std::string>();
  if (!v.is_number())
    return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
  return buf;
}

std::string shapeText(const json &shape) {
  if (!shape.is_array() || shape.empty())
    return "scalar";
  std::string s;
  for (const json &d : shape)
    s += (s.empty() ? "" : "x") + number(d);
  return s;
}

std::string cell(std::string s) {
  for (char &c : s)
    if (c == '|' || c == '\n')
      c = ' ';
  return s;
}

} // namespace

RunOutcome executeRun(const std::string &executable, const RunSpec &spec,
                      const std::function<void(const std::string &)> &onStage, const std::atomic<bool> &cancel) {
  if (executable.empty())
    return failure(error_code::RequestFailed, "this server cannot start runs: it was not told its executable");
  std::vector<std::string> argv = {executable, "run", "-", "--format=json", "--progress"};
  if (!spec.pythonFile.empty()) {  // the editor's text of a cuTile file, its launch with random inputs
    argv[2] = spec.pythonFile;
    // A lock that is never released would spin for hours at the default limit.
    argv.insert(argv.end(), {"--source-on-stdin", "--line", std::to_string(spec.line), "--inputs=random",
                             "--device", "cpu", "--max-loop-iterations=1000000"});
    if (spec.sanitize)
      argv.push_back("--sanitize");
    if (!spec.python.empty())
      argv.insert(argv.end(), {"--python", spec.python});
  } else {
    for (const std::string &a : spec.run.config.argv(spec.device, spec.sanitize))
      argv.push_back(a);
  }
  auto start = std::chrono::steady_clock::now();
  PrintedCap out;
  ChildResult c = runChild(
      argv, spec.folder, std::string(spec.text->text()),
      [&](const std::string &line) {
        if (!line.starts_with(kProgressPrefix))
          return false;
        onStage(line.substr(kProgressPrefix.size()));
        return true;
      },
      cancel, kQuietCaches, [&](std::string_view chunk) { out.feed(chunk); });
  double wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!c.startError.empty())
    return failure(error_code::RequestFailed, c.startError);
  if (c.cancelled)
    return failure(error_code::RequestCancelled, "the run was cancelled");
  json run = json::parse(out.text(), nullptr, false);
  if (c.signal || (c.exitCode != 0 && c.exitCode != 1) || !run.is_object()) {
    RunOutcome o = failure(error_code::RequestFailed, "tilesight run: " + messageOf(c, "run"));
    // A usage problem (exit 2) is about the options: shown at the directive.
    if (c.exitCode == 2 && spec.run.directive)
      o.directiveProblem = Diagnostic{*spec.run.directive, Severity::Error, "run.directive", messageOf(c, "run"), {}, {}};
    return o;
  }
  RunOutcome o;
  o.findings = findingsOf(run, *spec.text);
  std::string report = runReport(run, spec, wallMs, o.findings.size(), out.dropped());
  run.erase("printed");  // the report shows it: the reply carries it once
  o.result = {{"uri", spec.uri},
              {"entry", spec.entry},
              {"device", spec.device},
              {"sanitize", spec.sanitize},
              {"exitCode", c.exitCode},
              {"wall_ms", wallMs},
              {"printed_dropped", out.dropped()},
              {"report", std::move(report)},
              {"run", std::move(run)}};
  return o;
}

RunOutcome listDevices(const std::string &executable, const std::atomic<bool> &cancel) {
  if (executable.empty())
    return failure(error_code::RequestFailed, "this server cannot list devices: it was not told its executable");
  ChildResult c = runChild({executable, "devices", "--format=json"}, "", "", [](const std::string &) { return false; },
                           cancel);
  if (!c.startError.empty())
    return failure(error_code::RequestFailed, c.startError);
  if (c.cancelled)
    return failure(error_code::RequestCancelled, "cancelled");
  json devices = json::parse(c.out, nullptr, false);
  if (c.exitCode != 0 || devices.is_discarded())
    return failure(error_code::RequestFailed, "tilesight devices: " + messageOf(c, "devices"));
  RunOutcome o;
  o.result = std::move(devices);
  return o;
}

std::string runReport(const json &run, const RunSpec &spec, double wallMs, size_t findings, uint64_t printedDropped) {
  std::string device = run.value("device", spec.device), name = run.value("device_name", "");
  std::string md = "### tilesight run: `" + spec.entry + "` on " + device + (spec.sanitize ? " (sanitized)" : "") +
                   "\n\n| figure | value |\n|---|---|\n";
  md += "| device | " + cell(device + (name.empty() ? "" : " (" + name + ")")) + " |\n";
  std::string grid;
  for (const json &g : run.value("grid", json::array()))
    grid += (grid.empty() ? "" : " x ") + number(g);
  md += "| grid | " + grid + " |\n";
  if (device != "cpu")
    md += "| compile | " + number(run.value("compile_ms", json(0.0))) + " ms |\n";
  md += "| run | " + number(run.value("run_ms", json(0.0))) + " ms |\n";
  md += "| wall (with analysis and process start) | " + number(json(wallMs)) + " ms |\n\n";
  bool errors = false;
  for (const json &o : run.value("outputs", json::array()))
    errors |= o.contains("max_error");
  md += std::string("| output | shape | dtype | min | max | mean |") + (errors ? " max error vs CPU |" : "") +
        " first values |\n|---|---|---|---|---|---|" + (errors ? "---|" : "") + "---|\n";
  for (const json &o : run.value("outputs", json::array())) {
    std::string preview;
    for (const json &v : o.value("preview", json::array()))
      preview += (preview.empty() ? "" : ", ") + number(v);
    md += "| " + cell(o.value("name", "")) + " | " + shapeText(o.value("shape", json())) + " | " +
          o.value("dtype", "") + " | " + number(o.value("min", json())) + " | " + number(o.value("max", json())) +
          " | " + number(o.value("mean", json())) + " |" +
          (errors ? " " + number(o.value("max_error", json("-"))) + " |" : "") + " " + preview + " |\n";
  }
  std::string printed = run.value("printed", "");
  std::string cut = printedDropped ? " (the first " + std::to_string(printed.size()) + " bytes; " +
                                         std::to_string(printedDropped) + " more left out: the server keeps at most " +
                                         std::to_string(kPrintedCapBytes >> 20) + " MiB of a run's printed text)"
                                   : "";
  if (!printed.empty() || printedDropped)
    md += "\nPrinted" + cut + ":\n\n```text\n" + printed + (printed.ends_with("\n") ? "" : "\n") + "```\n";
  md += "\n" + (findings ? std::to_string(findings) + " finding(s) of the run, in the Problems list (source "
                                                     "\"tilesight run\")"
                         : std::string("No findings.")) +
        "\n";
  return md;
}

} // namespace tilesight::lsp
