// `tilesight run` (DESIGN §3): analyze, gate through VerifiedProgram, bind
// the arguments, run on the CPU reference interpreter, report the outputs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <map>
#include <optional>

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "analysis/analysis.h"
#include "analysis/diag/codes.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/verified.h"
#include "codegen/cuda/launch.h"
#include "codegen/device/device_print.h"
#include "codegen/device/guard.h"
#include "codegen/device/probe.h"
#include "codegen/hip/launch.h"
#include "codegen/interp/block_exec.h"
#include "codegen/soundness/fact_checker.h"
#include "codegen/interp/elements.h"
#include "codegen/interp/interpreter.h"
#include "codegen/interp/sanitizer.h"
#include "codegen/opencl/cl_launch.h"
#include "codegen/runtime/arguments.h"
#include "codegen/runtime/compare.h"
#include "codegen/runtime/devices.h"
#include "codegen/runtime/float_formats.h"
#include "codegen/runtime/npy.h"
#include "codegen/simt/lower.h"
#include "codegen/simt/print.h"
#include "server/cli/bytecode_input.h"
#include "server/cli/commands.h"
#include "server/cli/cutile_input.h"
#include "server/cli/json_text.h"
#include "server/cli/launch_file.h"
#include "server/cli/options.h"
#include "server/cli/program_input.h"
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

// Element k of a buffer as a number; formats up to 16 bits through their
// decode table (a NaN's payload does not matter here).
double elementAt(const runtime::HostBuffer& b, int64_t k) {
  uint64_t at = runtime::pointerTo(b.elem, b.address()) + k * runtime::pointerUnit(b.elem);
  const float* table = isFloatElem(b.elem) ? runtime::decodeTable(b.elem) : nullptr;
  return table ? table[runtime::readBitsAt(b.elem, at)] : runtime::valueAt(b.elem, at);
}

// As NumPy's min, max and mean: NaN when an element is NaN.
Stats statsOf(const runtime::HostBuffer& b) {
  Stats s;
  int64_t n = b.elementCount();
  if (n == 0) return s;
  s.min = INFINITY, s.max = -INFINITY;
  double sum = 0;
  bool nan = false;
  for (int64_t k = 0; k < n; ++k) {
    double v = elementAt(b, k);
    s.min = std::fmin(s.min, v), s.max = std::fmax(s.max, v);
    sum += v;
    nan |= std::isnan(v);
  }
  s.mean = sum / static_cast<double>(n);
  if (nan) s.min = s.max = NAN;
  return s;
}

// A number of the JSON report: NaN and the infinities as the strings "nan",
// "inf" and "-inf", which JSON's numbers cannot hold (they would be null).
json number(double v) { return std::isfinite(v) ? json(v) : json(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"); }

// The same in the text report ("nan" whatever its sign bit, which printf would show).
std::string numberText(double v) {
  if (std::isnan(v)) return "nan";
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// The first elements of a buffer (the JSON report's preview).
constexpr int64_t kPreviewElements = 8;
json previewOf(const runtime::HostBuffer& b) {
  json p = json::array();
  for (int64_t k = 0; k < std::min(b.elementCount(), kPreviewElements); ++k) p.push_back(number(elementAt(b, k)));
  return p;
}

// `--progress`: the stage that starts, for the language server's report.
void progress(const RunOptions& o, const char* stage) {
  if (!o.progress) return;
  llvm::errs() << "tilesight-progress: " << stage << "\n";
  llvm::errs().flush();
}

std::string shapeText(const std::vector<int64_t>& shape) { return shape.empty() ? "scalar" : shapeString(shape); }

Diagnostic faultDiagnostic(const interp::RunOutcome& r) {
  const auto& b = r.faultBlock;
  std::string block = "tile block (" + std::to_string(b[0]) + ", " + std::to_string(b[1]) + ", " + std::to_string(b[2]) + ")";
  return Diagnostic{{r.faultAt, r.faultAt}, Severity::Error, "run.fault", block + ": " + r.fault, {}, {}};
}

using DataBuffers = std::vector<std::pair<std::string, runtime::HostBuffer*>>;

// Where a run ran: "cpu" or a device id, its name, the compile time.
struct Ran {
  std::string id = "cpu", name;
  double compileMs = 0;
};

// The largest difference from the CPU reference per output (`--check` on a GPU).
using Errors = std::map<std::string, double>;

void report(const RunOptions& o, const Ran& ran, const std::string& entryName, const DataBuffers& data,
            const std::vector<double>& times, const interp::RunOutcome& r, const std::vector<FileReport>& diags,
            const Errors& errors) {
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  double median = sorted.empty() ? 0 : sorted[sorted.size() / 2];
  llvm::raw_ostream& os = llvm::outs();
  if (o.format == RunFormat::Json) {
    json outputs = json::array();
    for (const auto& [name, b] : data) {
      Stats s = statsOf(*b);
      outputs.push_back({{"name", name}, {"shape", b->shape}, {"dtype", std::string(elemName(b->elem))},
                         {"min", number(s.min)}, {"max", number(s.max)}, {"mean", number(s.mean)},
                         {"preview", previewOf(*b)}});
      if (auto e = errors.find(name); e != errors.end()) outputs.back()["max_error"] = number(e->second);
    }
    json j = {{"device", ran.id}, {"entry", entryName}, {"grid", o.grid}, {"compile_ms", ran.compileMs},
              {"run_ms", median}, {"outputs", outputs}, {"device_name", ran.name}, {"printed", r.printed},
              {"diagnostics", diagnosticsJson(diags)}};
    os << jsonText(j, 2) << "\n";
    return;
  }
  os << r.printed;
  for (const FileReport& d : diags)
    if (!d.diagnostics.empty()) printText(os, d, false);
  for (const auto& [name, b] : data) {
    Stats s = statsOf(*b);
    os << name << "  " << shapeText(b->shape) << "  " << elemName(b->elem) << "  min " << numberText(s.min)
       << "  max " << numberText(s.max) << "  mean " << numberText(s.mean) << "\n";
  }
  os << "device " << ran.id << (ran.name.empty() ? "" : " (" + ran.name + ")") << "  entry " << entryName << "  grid " << o.grid[0] << "," << o.grid[1] << "," << o.grid[2]
     << (ran.id == "cpu" ? "" : "  compile " + std::string(llvm::formatv("{0:f1}", ran.compileMs)) + " ms")
     << "  run " << llvm::format("%.3f", median) << " ms" << (times.size() > 1 ? " (median of " + std::to_string(times.size()) + ")" : "")
     << "\n";
}

// The device a run asked for: the cpu, or a GPU runtime's device N.
struct DeviceChoice {
  runtime::Backend backend = runtime::Backend::Cpu;
  unsigned index = 0;
};

// --device: 0 and the choice, 2 for a name that is no device, 3 (said
// why) for a device that is not there. auto takes the first GPU (CUDA,
// then HIP, then OpenCL), else the cpu (always the cpu under
// --sanitize, which only the interpreter does).
int chooseDevice(const std::string& device, bool sanitize, DeviceChoice& out) {
  if (device == "cpu" || (device == "auto" && sanitize)) return 0;
  if (device == "auto") {
    for (runtime::Backend b : {runtime::Backend::Cuda, runtime::Backend::Hip, runtime::Backend::OpenCL})
      for (const runtime::Device& d : device::probe(b).devices)
        if (d.gpu) return out = {b, static_cast<unsigned>(d.index)}, 0;
    return 0;
  }
  auto [name, index] = llvm::StringRef(device).split(':');
  unsigned n = 0;
  if (!index.empty() && index.getAsInteger(10, n))
    return usage("--device " + device + ": '" + index.str() + "' is not a device number");
  std::optional<runtime::Backend> backend = runtime::backendNamed(name);
  if (!backend || *backend == runtime::Backend::Cpu)
    return usage("--device " + device + " is not a device: auto, cpu, cuda[:N], hip[:N] or opencl[:N]");
  runtime::BackendReport found = device::probe(*backend);
  if (n < found.devices.size()) return out = {*backend, n}, 0;
  llvm::errs() << "tilesight run: no device " << name << ":" << n << ": "
               << (found.reason.empty() ? std::to_string(found.devices.size()) + " " + name.str() + " device(s)" : found.reason)
               << "; use --device cpu for the reference interpreter (`tilesight devices` lists the devices)\n";
  return 3;
}

int deviceFailed(const std::string& why) {
  llvm::errs() << "tilesight run: " << why << "\n";
  return 3;
}

// The bytes a generated kernel takes for a scalar argument.
std::vector<uint8_t> scalarBytes(const simt::Param& prm, const runtime::ArgValue& a) {
  std::vector<uint8_t> b;
  auto put = [&](auto v) {
    b.resize(sizeof v);
    std::memcpy(b.data(), &v, sizeof v);
  };
  if (prm.kind == simt::Param::Float) {
    if (prm.bits == 64) put(a.f);
    else put(static_cast<float>(a.f));
  } else if (prm.bits == 64) put(static_cast<int64_t>(a.i));
  else if (prm.bits == 16) put(static_cast<int16_t>(a.i));
  else if (prm.bits == 8) put(static_cast<int8_t>(a.i));
  else put(static_cast<int32_t>(a.i));
  return b;
}

// Words of the buffer print_tko writes to on a device (2 MiB).
constexpr uint64_t kPrintBufferWords = uint64_t{1} << 18;

// A cuTile list of arrays (argument i): its arrays go to the device as
// buffers of their own (after every argument), and each descriptor row's
// first word (the array's address; runtime/arguments.h) takes the device's
// address of it.
void addListItems(const runtime::ArgValue& a, size_t i, runtime::Launch& l) {
  if (a.items.empty()) return;
  uint64_t rowBytes = 8 * (1 + 2 * a.items[0]->shape.size());
  for (size_t k = 0; k < a.items.size(); ++k) {
    l.addressWords.push_back({i, k * rowBytes, runtime::bufferCount(l)});
    l.indirect.push_back(a.items[k]);
  }
}

runtime::LaunchResult launchOn(const DeviceChoice& device, const runtime::Launch& l) {
  int index = static_cast<int>(device.index);
  switch (device.backend) {
    case runtime::Backend::Cuda: return cuda::launch(index, l);
    case runtime::Backend::Hip: return hip::launch(index, l);
    default: return opencl::launch(index, l);
  }
}

simt::Target targetOf(runtime::Backend b) {
  return b == runtime::Backend::Cuda ? simt::Target::Cuda : b == runtime::Backend::Hip ? simt::Target::Hip : simt::Target::OpenCL;
}

// A run on a GPU runtime's device: lower, print, compile and launch; the
// outcome as the interpreter's would be (a fault from the kernel's status words).
int runOnDevice(const RunOptions& o, const VerifiedProgram& verified, const Operation& entry,
                const std::vector<runtime::ArgValue>& args, const DeviceChoice& device, Ran& ran,
                std::vector<double>& times, interp::RunOutcome& r, FileReport& diags) {
  simt::LowerOptions lowering;
  lowering.tensorCores = o.tensorCores;
  lowering.emulateTensorCores = o.emulateTensorCores;
  lowering.guard = o.guard;
  auto kernel = simt::lower(verified, entry, lowering);
  if (!kernel) return deviceFailed(llvm::toString(kernel.takeError()));
  simt::Target target = targetOf(device.backend);
  runtime::Launch l;
  l.kernel = kernel->name;
  l.threads = kernel->threads;
  l.stageBytes = simt::stageBytes(*kernel, target);
  l.dynamicStage = simt::dynamicStage(*kernel, target);
  l.grid = o.grid;
  l.repeat = o.repeat;
  l.arch = o.arch;
  for (size_t i = 0; i < args.size(); ++i) {
    runtime::KernelArg ka;
    if (kernel->params[i].kind == simt::Param::Pointer) ka.buffer = args[i].buffer;
    else ka.scalar = scalarBytes(kernel->params[i], args[i]);
    l.args.push_back(std::move(ka));
  }
  // Hidden buffers after the entry's arguments, in the kernel's parameter order: globals, alloca scratch, prints, the guard.
  std::vector<runtime::HostBuffer> globals;
  for (const Operation* g : kernel->globals) globals.push_back(interp::globalBuffer(*g));
  for (runtime::HostBuffer& g : globals) l.args.push_back({&g, {}});
  std::optional<runtime::HostBuffer> scratch;
  if (kernel->scratchBytesPerBlock) {
    scratch.emplace();
    scratch->name = "alloca scratch";
    scratch->elem = Elem::I8;
    scratch->bytes.assign(kernel->scratchBytesPerBlock * static_cast<uint64_t>(o.grid[0] * o.grid[1] * o.grid[2]), 0);
    l.args.push_back({&*scratch, {}});
  }

  std::optional<runtime::HostBuffer> prints;
  std::vector<size_t> unguarded;  // the print buffer: only the kernel's print code writes it
  if (!kernel->prints.empty()) {
    unguarded.push_back(l.args.size());
    l.args.push_back({&prints.emplace(device::printBuffer(kPrintBufferWords)), {}});
  }
  runtime::HostBuffer guard;
  size_t guardArg = l.args.size();
  if (kernel->guarded) l.args.push_back({&guard, {}});
  for (size_t i = 0; i < args.size(); ++i) addListItems(args[i], i, l);
  if (kernel->guarded) device::fillGuard(l, guardArg, unguarded);
  // OpenCL binds the list items to parameters of their own (see Kernel::residentBuffers).
  if (target == simt::Target::OpenCL) kernel->residentBuffers = static_cast<unsigned>(l.indirect.size());
  l.source = simt::printKernel(*kernel, target);
  l.compiled = [&o] { progress(o, "launch"); };
  std::string id = std::string(runtime::backendName(device.backend)) + ":" + std::to_string(device.index);
  runtime::LaunchResult res = launchOn(device, l);
  if (!res.error.empty()) return deviceFailed(id + ": " + res.error);
  ran = {id, res.device + (res.arch.empty() ? "" : ", " + res.arch), res.compileMs};
  times = res.runMs;
  if (!kernel->prints.empty()) {
    device::DevicePrints text = device::formatDevicePrints(*kernel, verified.program(), *prints);
    r.printed = text.text;
    if (text.missingWords)
      diags.diagnostics.push_back(Diagnostic{{entry.range.begin, entry.range.begin}, Severity::Warning, "run.print",
                                             "the device's print buffer (" + std::to_string(kPrintBufferWords * 8 / 1024) +
                                                 " KiB) overflowed by " + std::to_string(text.missingWords * 8) +
                                                 " bytes: later prints are missing (--device cpu prints them all)", {}, {}});
  }
  if (auto fault = kernel->guarded ? device::guardFault(*kernel, l, guardArg, unguarded) : std::nullopt) {
    r.ok = false;
    r.fault = fault->message;
    r.faultAt = fault->site->op->range.begin;
    r.faultBlock = interp::blockAt(o.grid, fault->block);
  } else if (res.status[0] > 0 && static_cast<size_t>(res.status[0]) <= kernel->faults.size()) {
    r.ok = false;
    r.fault = kernel->faults[res.status[0] - 1];
    r.faultBlock = interp::blockAt(o.grid, res.status[1]);
  }
  return 0;
}

// --check: the CPU reference from the same inputs, compared with what the
// device left in the data buffers (which are put back afterwards).
void checkAgainstReference(const VerifiedProgram& verified, const Operation& entry, const std::vector<runtime::ArgValue>& args,
                           runtime::AddressSpace& memory, const std::vector<std::vector<uint8_t>>& initial,
                           const RunOptions& o, const DataBuffers& data, FileReport& diags, Errors& errors) {
  std::vector<std::vector<uint8_t>> device;
  for (size_t k = 0; k < initial.size(); ++k) device.push_back(memory.buffers()[k]->bytes), memory.buffers()[k]->bytes = initial[k];
  interp::LaunchOptions launch;
  launch.grid = o.grid;
  launch.deterministic = true;
  launch.maxLoopIterations = o.maxLoopIterations;
  interp::RunOutcome ref = interp::runEntry(verified, entry, interp::entryArguments(args), memory, launch);
  std::vector<runtime::HostBuffer> want;
  for (const auto& [name, b] : data) want.push_back(*b);
  for (size_t k = 0; k < initial.size(); ++k) memory.buffers()[k]->bytes = device[k];
  uint32_t at = entry.range.begin;
  if (!ref.ok) {
    diags.diagnostics.push_back(Diagnostic{{at, at}, Severity::Warning, "run.check",
                                           "--check: the CPU reference stopped: " + ref.fault, {}, {}});
    return;
  }
  for (size_t i = 0; i < data.size(); ++i) errors[data[i].first] = runtime::maxAbsError(*data[i].second, want[i]);
  for (size_t i = 0; i < data.size(); ++i)
    if (auto m = runtime::compareBuffers(*data[i].second, want[i]))
      diags.diagnostics.push_back(Diagnostic{{at, at}, Severity::Error, "run.check",
                                             "--check: " + data[i].first + " differs from the CPU reference: " + m->text(), {}, {}});
}

// The entry's parameter names, without '%', in order.
std::vector<std::string> parameterNames(const Program& p, const Operation& entry) {
  std::vector<std::string> names;
  if (!entry.regions.empty() && !entry.regions[0].blocks.empty())
    for (ValueId v : entry.regions[0].blocks[0].args) names.push_back(llvm::StringRef(p.value(v).name).ltrim('%').str());
  return names;
}

// --check-facts: the facts checked, and each violation (on standard error,
// after the report); whether there was one.
bool reportFacts(const interp::FactChecker& checker) {
  const interp::FactCounts& n = checker.counts();
  llvm::errs() << "facts checked: " << n.total() << " (interval " << n.interval << ", divisor " << n.divisor
               << ", affine " << n.affine << ", strides " << n.strides << "), violations: "
               << checker.violationCount() << "\n";
  if (!checker.falseAssume().empty())
    llvm::errs() << "facts: checking stopped at " << checker.falseAssume()
                 << ", whose predicate the run broke (undefined behaviour)\n";
  for (const interp::FactViolation& v : checker.violations()) llvm::errs() << "fact violated: " << v.message << "\n";
  if (checker.violationCount() > checker.violations().size())
    llvm::errs() << "(" << checker.violationCount() - checker.violations().size() << " more)\n";
  return checker.violationCount() > 0;
}

}  // namespace

int runRun() {
  RunOptions o = runOptions();
  // Started by the language server (--progress): end with it, even when it
  // dies without cancelling the run.
  if (o.progress && (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() == 1))
    return usage("the process that started this run is gone");
  if (!o.problem.empty()) return usage(o.problem);
  if (o.sanitize && o.device != "auto" && o.device != "cpu") return usage("--sanitize runs on --device cpu only");
  if (o.checkFacts && o.device != "auto" && o.device != "cpu") return usage("--check-facts runs on --device cpu only");
  DeviceChoice device;
  if (int status = chooseDevice(o.device, o.sanitize || o.checkFacts, device)) return status;
  if (!o.arch.empty() && device.backend != runtime::Backend::Cuda && device.backend != runtime::Backend::Hip)
    return usage("--arch " + o.arch + " applies to cuda and hip devices (this run is on " +
                 std::string(runtime::backendName(device.backend)) + ")");
  // A bytecode file's launch names its parameters, so it is found first.
  std::optional<bytecode::Launch> launchFile;
  lsp::CutileLaunch compiled;  // a cuTile .py file's launch, compiled
  ProgramInput in;
  if (lsp::isPythonPath(o.file)) {
    if (!o.launch.empty()) return usage("--launch is for bytecode files; a .py file's launches are its directives (--line)");
    progress(o, "compile with cuTile");
    if (int status = compileForRun(o.file, o.line, o.sourceOnStdin, compiled, in.openTexts)) return status;
    launchFile = compiled.launch;
  } else if (o.line || o.sourceOnStdin) {
    return usage("--line and --source-on-stdin are for cuTile .py files");
  } else if (o.file != "-" && isBytecodeFile(o.file)) {
    std::string problem;
    launchFile = findLaunch(o.launch, o.file, problem);
    if (!problem.empty()) return usage(problem);
  }
  progress(o, "analyze");
  if (int status = loadProgram("run", o.file, in, launchFile ? &*launchFile : nullptr,
                               compiled.bytecode.empty() ? nullptr : &compiled.bytecode))
    return status;
  FileReport& diags = in.diags;
  const VerifiedProgram& verified = *in.program;
  const Program& p = verified.program();
  auto entry = runtime::selectEntry(p, o.entry);
  if (!entry) return usage(llvm::toString(entry.takeError()));
  if (in.bytecode) {
    std::string problem;
    if (launchFile) {
      if (!o.gridGiven && launchFile->grid) o.grid = *launchFile->grid;
      o.args = runArgs(*launchFile, parameterNames(p, **entry), o.args, o.outs, problem,
                       o.inputs == RunInputs::Random);
    }
    if (!problem.empty()) return usage(problem);
  } else if (!o.launch.empty()) {
    return usage("--launch is for bytecode programs; '" + o.file + "' is text");
  }
  if (o.inputs == RunInputs::Random && !launchFile)
    return usage("--inputs=random fills the arrays of a launch (a bytecode file's launch file, a cuTile .py file's "
                 "directive); name a text program's buffers with --arg NAME=rand:SHAPE:DTYPE");
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
  Ran ran;
  std::vector<double> times;
  interp::RunOutcome r;
  Errors errors;
  std::optional<interp::FactChecker> factChecker;
  if (device.backend != runtime::Backend::Cpu) {
    progress(o, "compile");
    if (int status = runOnDevice(o, verified, **entry, *args, device, ran, times, r, diags)) return status;
    if (o.check && r.ok) {
      progress(o, "compare");
      checkAgainstReference(verified, **entry, *args, memory, initial, o, data, diags, errors);
    }
  } else {
  progress(o, o.sanitize ? "run on the interpreter with the sanitizer" : "run on the interpreter");
  interp::LaunchOptions launch;
  launch.grid = o.grid;
  launch.threads = o.threads;
  launch.deterministic = o.deterministic;
  launch.maxLoopIterations = o.maxLoopIterations;
  std::optional<interp::Sanitizer> sanitizer;
  if (o.sanitize) launch.sanitizer = &sanitizer.emplace(p, memory);
  if (sanitizer && in.decoded) sanitizer->namePlaces(namedPlaces(*in.decoded, {}).placeName);
  std::vector<interp::RtValue> values = interp::entryArguments(*args);
  if (o.checkFacts)
    launch.observer = &factChecker.emplace(p, interp::launchCheckOptions(p, **entry, o.grid, values));
  for (unsigned i = 0; i < (o.sanitize || o.checkFacts ? 1u : o.repeat); ++i) {
    for (size_t k = 0; k < initial.size(); ++k)  // every repetition starts from the given inputs
      memory.buffers()[k]->bytes = initial[k];
    auto start = std::chrono::steady_clock::now();
    r = interp::runEntry(verified, **entry, values, memory, launch);
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    if (!r.ok) break;
  }
  if (sanitizer)
    for (Diagnostic& d : sanitizer->diagnostics()) diags.diagnostics.push_back(std::move(d));
  }
  if (!r.ok) diags.diagnostics.push_back(faultDiagnostic(r));
  std::vector<std::unique_ptr<SourceText>> sources;
  std::vector<FileReport> reports = reportsOf(o.file, in, diags.diagnostics, sources);
  report(o, ran, attrs::symName(*(*entry))->s, data, times, r, reports, errors);
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
  if (factChecker && reportFacts(*factChecker)) return 4;
  return diags.diagnostics.empty() ? 0 : 1;
}

}  // namespace tilesight::cli
