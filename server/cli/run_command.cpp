// `tilesight run` (DESIGN §3): analyze, gate through VerifiedProgram, bind
// the arguments, run on the CPU reference interpreter, report the outputs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "analysis/analysis.h"
#include "analysis/diag/codes.h"
#include "analysis/verified.h"
#include "codegen/interp/elements.h"
#include "codegen/interp/float_formats.h"
#include "codegen/interp/interpreter.h"
#include "codegen/interp/sanitizer.h"
#include "codegen/runtime/arguments.h"
#include "codegen/runtime/devices.h"
#include "codegen/runtime/npy.h"
#include "server/cli/commands.h"
#include "server/cli/json_text.h"
#include "server/cli/options.h"
#include "server/cli/report.h"

namespace tilesight::cli {

namespace {

using nlohmann::json;

int usage(const std::string& problem) {
  llvm::errs() << "tilesight run: " << problem << "\n";
  return 2;
}

struct Stats {
  double min = 0, max = 0, mean = 0;
};

Stats statsOf(const runtime::HostBuffer& b) {
  Stats s;
  int64_t n = b.elementCount();
  if (n == 0) return s;
  s.min = INFINITY, s.max = -INFINITY;
  double sum = 0;
  uint64_t base = interp::pointerTo(b.elem, b.address());
  // Formats up to 16 bits through their decode table (a NaN's payload does not matter here).
  const float* table = isFloatElem(b.elem) ? interp::decodeTable(b.elem) : nullptr;
  for (int64_t k = 0; k < n; ++k) {
    uint64_t at = base + k * interp::pointerUnit(b.elem);
    double v = table ? table[interp::readBitsAt(b.elem, at)] : interp::valueAt(b.elem, at);
    s.min = std::fmin(s.min, v), s.max = std::fmax(s.max, v);
    sum += v;
  }
  s.mean = sum / static_cast<double>(n);
  return s;
}

std::string shapeText(const std::vector<int64_t>& shape) { return shape.empty() ? "scalar" : shapeString(shape); }

Diagnostic faultDiagnostic(const interp::RunOutcome& r) {
  const auto& b = r.faultBlock;
  std::string block = "tile block (" + std::to_string(b[0]) + ", " + std::to_string(b[1]) + ", " + std::to_string(b[2]) + ")";
  return Diagnostic{{r.faultAt, r.faultAt}, Severity::Error, "run.fault", block + ": " + r.fault, {}, {}};
}

using DataBuffers = std::vector<std::pair<std::string, runtime::HostBuffer*>>;

void report(const RunOptions& o, const std::string& entryName, const DataBuffers& data,
            const std::vector<double>& times, const interp::RunOutcome& r, const FileReport& diags) {
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  double median = sorted.empty() ? 0 : sorted[sorted.size() / 2];
  llvm::raw_ostream& os = llvm::outs();
  if (o.format == RunFormat::Json) {
    json outputs = json::array();
    for (const auto& [name, b] : data) {
      Stats s = statsOf(*b);
      outputs.push_back({{"name", name}, {"shape", b->shape}, {"dtype", std::string(elemName(b->elem))},
                         {"min", s.min}, {"max", s.max}, {"mean", s.mean}});
    }
    json j = {{"device", "cpu"}, {"entry", entryName}, {"grid", o.grid}, {"compile_ms", 0.0},
              {"run_ms", median}, {"outputs", outputs}, {"printed", r.printed},
              {"diagnostics", diagnosticsJson({diags})}};
    os << jsonText(j, 2) << "\n";
    return;
  }
  os << r.printed;
  if (!diags.diagnostics.empty()) printText(os, diags, false);
  for (const auto& [name, b] : data) {
    Stats s = statsOf(*b);
    os << name << "  " << shapeText(b->shape) << "  " << elemName(b->elem) << "  min "
       << llvm::format("%g", s.min) << "  max " << llvm::format("%g", s.max) << "  mean "
       << llvm::format("%g", s.mean) << "\n";
  }
  os << "device cpu  entry " << entryName << "  grid " << o.grid[0] << "," << o.grid[1] << "," << o.grid[2]
     << "  run " << llvm::format("%.3f", median) << " ms" << (times.size() > 1 ? " (median of " + std::to_string(times.size()) + ")" : "")
     << "\n";
}

// --device NAME[:N] for a GPU runtime: exit 3 saying why it cannot run
// there (no such device, with the runtime's reason; or no code generator
// for it yet), 2 for a name that is no device.
int gpuDevice(const std::string& device) {
  auto [name, index] = llvm::StringRef(device).split(':');
  unsigned n = 0;
  if (!index.empty() && index.getAsInteger(10, n))
    return usage("--device " + device + ": '" + index.str() + "' is not a device number");
  std::optional<runtime::Backend> backend = runtime::backendNamed(name);
  if (!backend || *backend == runtime::Backend::Cpu)
    return usage("--device " + device + " is not a device: auto, cpu, cuda[:N], hip[:N] or opencl[:N]");
  runtime::BackendReport found = runtime::probe(*backend);
  llvm::errs() << "tilesight run: ";
  if (n >= found.devices.size())
    llvm::errs() << "no device " << name << ":" << n << ": "
                 << (found.reason.empty() ? std::to_string(found.devices.size()) + " " + name.str() + " device(s)"
                                            : found.reason);
  else
    llvm::errs() << found.devices[n].id() << " (" << found.devices[n].name
                 << ") is there, but this version of tilesight does not generate code for " << name << " yet";
  llvm::errs() << "; use --device cpu for the reference interpreter (`tilesight devices` lists the devices)\n";
  return 3;
}

}  // namespace

int runRun() {
  RunOptions o = runOptions();
  if (!o.problem.empty()) return usage(o.problem);
  // auto: a GPU once a GPU code generator exists; today the reference interpreter.
  if (o.device != "auto" && o.device != "cpu") return gpuDevice(o.device);
  auto buf = llvm::MemoryBuffer::getFile(o.file, /*IsText=*/false);
  if (!buf) return usage("cannot read '" + o.file + "': " + buf.getError().message());
  SourceText src((*buf)->getBuffer().str());
  Analysis a = analyze(src.text());
  FileReport diags{o.file, &src, {}};
  // Errors of the language (syntax, type) stop the run; the static checks'
  // findings do not: running the program is how they are confirmed.
  for (const Diagnostic& d : a.diagnostics) {
    const CodeInfo* code = findCode(d.code);
    if (d.severity == Severity::Error && code && code->languageRule) diags.diagnostics.push_back(d);
  }
  if (!diags.diagnostics.empty() || a.chunks.empty()) {
    printText(llvm::outs(), diags, false);
    return 1;
  }
  VerifiedProgram::Result vp = VerifiedProgram::of(a, a.chunks[0]);
  if (!vp.program) {
    for (const std::string& reason : vp.reasons) llvm::errs() << o.file << ": " << reason << "\n";
    return 1;
  }
  const Program& p = vp.program->program();
  auto entry = runtime::selectEntry(p, o.entry);
  if (!entry) return usage(llvm::toString(entry.takeError()));
  runtime::AddressSpace memory;
  auto args = runtime::bindArguments(p, **entry, o.args, memory);
  if (!args) return usage(llvm::toString(args.takeError()));
  if (llvm::Error e = runtime::checkViewsFit(p, **entry, *args)) return usage(llvm::toString(std::move(e)));
  DataBuffers data = runtime::dataBuffers(*args);
  for (const auto& [name, path] : o.outs)
    if (std::none_of(data.begin(), data.end(), [&](const auto& d) { return d.first == name; }))
      return usage("--out " + name + "=" + path + ": the entry has no pointer argument %" + name +
                   " (nor a list with that item)");
  // Every buffer so far is an argument's (globals and alloca come with the run).
  std::vector<std::vector<uint8_t>> initial;
  for (const auto& b : memory.buffers()) initial.push_back(b->bytes);
  interp::LaunchOptions launch;
  launch.grid = o.grid;
  launch.threads = o.threads;
  launch.deterministic = o.deterministic;
  launch.maxLoopIterations = o.maxLoopIterations;
  std::optional<interp::Sanitizer> sanitizer;
  if (o.sanitize) launch.sanitizer = &sanitizer.emplace(p, memory);
  std::vector<interp::RtValue> values = interp::entryArguments(*args);
  std::vector<double> times;
  interp::RunOutcome r;
  for (unsigned i = 0; i < (o.sanitize ? 1u : o.repeat); ++i) {
    for (size_t k = 0; k < initial.size(); ++k)  // every repetition starts from the given inputs
      memory.buffers()[k]->bytes = initial[k];
    auto start = std::chrono::steady_clock::now();
    r = interp::runEntry(*vp.program, **entry, values, memory, launch);
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    if (!r.ok) break;
  }
  if (sanitizer)
    for (Diagnostic& d : sanitizer->diagnostics()) diags.diagnostics.push_back(std::move(d));
  if (!r.ok) diags.diagnostics.push_back(faultDiagnostic(r));
  report(o, (*entry)->attr("sym_name")->s, data, times, r, diags);
  for (const auto& [name, path] : o.outs) {
    for (const auto& [bufferName, b] : data) {
      if (bufferName != name) continue;
      runtime::NpyArray arr;
      arr.descr = b->npyDescr.empty() ? runtime::npyDescrOf(b->elem) : b->npyDescr;
      arr.fortranOrder = b->fortranOrder;
      arr.shape = runtime::npyShapeOf(*b);
      arr.data = b->bytes;
      if (llvm::Error e = runtime::writeNpy(path, arr)) return usage(llvm::toString(std::move(e)));
    }
  }
  return diags.diagnostics.empty() ? 0 : 1;
}

}  // namespace tilesight::cli
