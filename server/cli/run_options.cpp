// The options of `tilesight run` (DESIGN §3).
#include "server/cli/options.h"

#include "server/cli/program_input.h"

namespace tilesight::cli {

namespace cl = llvm::cl;

cl::OptionCategory& runCategory() {
  static cl::OptionCategory c("tilesight run options");
  return c;
}

cl::SubCommand& runSubcommand() {
  static cl::SubCommand s("run", "Run an entry of a tile program on the CPU reference interpreter or a GPU");
  return s;
}

namespace {
cl::opt<std::string> fileOpt(cl::Positional, cl::desc("FILE"), cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<std::string> entryOpt("entry", cl::desc("The entry to run (may be omitted when the file has one)"),
                              cl::value_desc("NAME"), cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<std::string> gridOpt("grid", cl::desc("The launch grid (default 1,1,1)"), cl::value_desc("X[,Y[,Z]]"),
                             cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<std::string> deviceOpt("device", cl::desc("auto|cpu|cuda[:N]|hip[:N]|opencl[:N] (default auto)"),
                               cl::init("auto"), cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::list<std::string> argOpt("arg",
                             cl::desc("An entry argument by name (without %) or position: @FILE.npy, "
                                      "zeros:SHAPE:DTYPE, rand:SHAPE:DTYPE[:SEED] for pointers, list:BUFFER,... for a "
                                      "cuTile list of arrays, a number for scalars"),
                             cl::value_desc("NAME=VALUE"), cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::list<std::string> outOpt("out", cl::desc("Write pointer argument NAME's buffer (NAME[K]: array K of a list) after the run"),
                             cl::value_desc("NAME=PATH.npy"), cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<std::string> launchOpt("launch",
                               cl::desc("A bytecode program's launch (grid, arguments by Python name) as cuTile's "
                                        "compile.py --launch writes it (default: NAME.launch.json beside "
                                        "NAME[.VERSION].tilebc); --arg and --out then name arrays by Python name"),
                               cl::value_desc("FILE.json"), cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<unsigned> lineOpt("line",
                          cl::desc("A cuTile .py file: run the launch whose `# tilesight: launch` directive is on line N "
                                   "(default: the file's only one)"),
                          cl::init(0), cl::value_desc("N"), cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<bool> sourceOnStdinOpt("source-on-stdin",
                               cl::desc("A cuTile .py file: its text comes on standard input (an editor's unsaved "
                                        "buffer); FILE names it"),
                               cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<RunInputs> inputsOpt("inputs", cl::desc("Launch files and cuTile .py files: what an array no --arg names holds"),
                             cl::init(RunInputs::Zeros),
                             cl::values(clEnumValN(RunInputs::Zeros, "zeros", "zeros (the default)"),
                                        clEnumValN(RunInputs::Random, "random",
                                                   "floating-point arrays random, as rand: gives them (each its own seed); "
                                                   "integer and boolean arrays zeros")),
                             cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<bool> sanitizeOpt("sanitize", cl::desc("Check every access at run time (cpu only)"),
                          cl::sub(runSubcommand()), cl::cat(runCategory()));
// For the soundness harness (ctest soundness.harness, docs/run.md): every integer and pointer value
// the interpreter computes is checked against the value facts of the checks.
cl::opt<bool> checkFactsOpt("check-facts", cl::Hidden, cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<bool> checkOpt("check", cl::desc("On a GPU device: compare every output with the CPU reference (exit 1 when one differs)"),
                       cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<std::string> archOpt("arch", cl::desc("cuda/hip: the target to compile for (default: the device's own)"),
                             cl::value_desc("sm_XY|gfxN"), cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<bool> noTensorCoresOpt("no-tensor-cores",
                                cl::desc("cuda: sum mmaf in the reference's order instead of on tensor cores (bit-exact --check)"),
                                cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<bool> noGuardOpt("no-guard",
                         cl::desc("On a GPU device: do not check each access against the run's buffers (for timing; "
                                  "an access outside them then goes unreported and may corrupt memory)"),
                         cl::sub(runSubcommand()), cl::cat(runCategory()));
// For tests of the lowering (ctest corpus.numpy_parity_opencl_tc): every device runs
// mmaf's tensor-core variant with its fragment operations emulated by loops.
cl::opt<bool> emulateTensorCoresOpt("emulate-tensor-cores", cl::Hidden, cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<RunFormat> formatOpt("format", cl::desc("Output format"), cl::init(RunFormat::Text),
                             cl::values(clEnumValN(RunFormat::Text, "text", "one line per output, then the times"),
                                        clEnumValN(RunFormat::Json, "json", "one JSON object")),
                             cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<unsigned> repeatOpt("repeat", cl::desc("Run N times, report the median time"), cl::init(1),
                            cl::value_desc("N"), cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<unsigned> threadsOpt("threads", cl::desc("Host threads of the cpu device (default: every core)"),
                             cl::init(0), cl::value_desc("N"), cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<bool> deterministicOpt("deterministic",
                               cl::desc("cpu: one thread, tile blocks in grid order (x fastest), for reproducible "
                                        "atomics and prints"),
                               cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<bool> progressOpt("progress",
                          cl::desc("Write a line `tilesight-progress: STAGE` to standard error as each stage starts "
                                   "(the language server's progress report)"),
                          cl::sub(runSubcommand()), cl::cat(runCategory()));
cl::opt<uint64_t> maxLoopOpt("max-loop-iterations",
                             cl::desc("cpu: stop a `loop` past this many iterations (default 2^32; 0: no limit)"),
                             cl::init(uint64_t{1} << 32), cl::value_desc("N"), cl::sub(runSubcommand()),
                             cl::cat(runCategory()));

// The most tile blocks a run takes: its blocks are numbered by one signed
// 32-bit word (the word in which a device kernel reports the block that faulted).
constexpr int64_t kMaxRunBlocks = (int64_t{1} << 31) - 1;

// n in decimal (std::to_string has no 128-bit overload).
std::string decimal(unsigned __int128 n) {
  std::string s;
  do s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
  while (n /= 10);
  return s;
}

// A grid of more blocks than a run numbers. Each axis is already 1 to
// 2^24 - 1 (parseGrid), so the product fits 128 bits.
std::string blockCountProblem(const std::array<int64_t, 3>& g) {
  unsigned __int128 blocks = static_cast<unsigned __int128>(g[0]) * static_cast<uint64_t>(g[1]) *
                             static_cast<uint64_t>(g[2]);
  if (blocks <= static_cast<uint64_t>(kMaxRunBlocks)) return {};
  return "--grid=" + std::to_string(g[0]) + "," + std::to_string(g[1]) + "," + std::to_string(g[2]) + " is " +
         decimal(blocks) + " tile blocks, more than the " + std::to_string(kMaxRunBlocks) +
         " (2^31 - 1) a run takes; give a smaller grid";
}

// --out NAME=-, an output over the program, two outputs to one file.
std::string outsProblem(const RunOptions& o) {
  for (size_t i = 0; i < o.outs.size(); ++i) {
    const auto& [name, path] = o.outs[i];
    std::string out = "--out " + name + "=" + path;
    if (path.empty()) continue;  // said by runOptions
    if (path == "-") return out + ": a .npy file cannot go to standard output, which holds the report; give a file path";
    if (sameFile(path, o.file)) return out + " would overwrite the program '" + o.file + "'; give another path";
    for (size_t j = 0; j < i; ++j)
      if (sameFile(path, o.outs[j].second))
        return out + " and --out " + o.outs[j].first + "=" + o.outs[j].second +
               " write one file; give each output a path of its own";
  }
  return {};
}

}  // namespace

bool runCommand() { return static_cast<bool>(runSubcommand()); }

RunOptions runOptions() {
  RunOptions o;
  o.file = fileOpt;
  o.entry = entryOpt;
  o.device = deviceOpt;
  o.args.assign(argOpt.begin(), argOpt.end());
  o.launch = launchOpt;
  o.line = lineOpt;
  o.sourceOnStdin = sourceOnStdinOpt;
  o.inputs = inputsOpt;
  o.sanitize = sanitizeOpt;
  o.checkFacts = checkFactsOpt;
  o.check = checkOpt;
  o.arch = archOpt;
  o.tensorCores = !noTensorCoresOpt;
  o.emulateTensorCores = emulateTensorCoresOpt;
  o.guard = !noGuardOpt;
  o.format = formatOpt;
  o.repeat = repeatOpt;
  o.threads = threadsOpt;
  o.deterministic = deterministicOpt;
  o.maxLoopIterations = maxLoopOpt;
  o.progress = progressOpt;
  for (const std::string& out : outOpt) {
    auto [name, path] = llvm::StringRef(out).split('=');
    if (name.empty() || path.empty()) o.problem = "--out wants NAME=PATH.npy, not '" + out + "'";
    o.outs.emplace_back(name.ltrim('%').str(), path.str());
  }
  if (o.repeat < 1) o.problem = "--repeat wants a positive number of runs";
  if (gridOpt.getNumOccurrences()) {
    std::string problem;
    o.gridGiven = true;
    if (auto g = parseGrid(gridOpt, problem)) o.grid = *g;
    else o.problem = problem;
  }
  if (std::string blocks = blockCountProblem(o.grid); !blocks.empty()) o.problem = blocks;
  if (std::string outs = outsProblem(o); !outs.empty()) o.problem = outs;
  if (o.file.empty()) o.problem = "no FILE to run";
  return o;
}

}  // namespace tilesight::cli
