// `tilesight emit` (DESIGN §3): the generated kernel source of the SIMT
// lowering for one target, for the named entry or every entry of the file.
#include <system_error>

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>

#include "analysis/ir/op_accessors.h"
#include "codegen/runtime/arguments.h"
#include "codegen/simt/lower.h"
#include "codegen/simt/print.h"
#include "server/cli/commands.h"
#include "server/cli/options.h"
#include "server/cli/program_input.h"

namespace tilesight::cli {

namespace cl = llvm::cl;

cl::OptionCategory& emitCategory() {
  static cl::OptionCategory c("tilesight emit options");
  return c;
}

cl::SubCommand& emitSubcommand() {
  static cl::SubCommand s("emit", "Print the generated GPU source (CUDA C++, HIP C++ or OpenCL C) of an entry");
  return s;
}

bool emitCommand() { return static_cast<bool>(emitSubcommand()); }

namespace {
cl::opt<std::string> emitFile(cl::Positional, cl::desc("FILE"), cl::sub(emitSubcommand()), cl::cat(emitCategory()));
cl::opt<std::string> emitEntry("entry", cl::desc("The entry to emit (default: every entry)"), cl::value_desc("NAME"),
                               cl::sub(emitSubcommand()), cl::cat(emitCategory()));
cl::opt<std::string> emitTarget("target", cl::desc("cuda|hip|opencl"), cl::value_desc("TARGET"),
                                cl::sub(emitSubcommand()), cl::cat(emitCategory()));
cl::opt<std::string> emitArch("arch", cl::desc("The architecture the source is meant for (sm_90, gfx90a); named in its header"),
                              cl::value_desc("ARCH"), cl::sub(emitSubcommand()), cl::cat(emitCategory()));
cl::opt<bool> emitNoTensorCores("no-tensor-cores",
                                 cl::desc("cuda: no tensor-core variant for mmaf (every target sums in the reference's order)"),
                                 cl::sub(emitSubcommand()), cl::cat(emitCategory()));
cl::opt<bool> emitNoGuard("no-guard",
                          cl::desc("No check of each access against the launch's buffers (the kernel then takes no guard argument)"),
                          cl::sub(emitSubcommand()), cl::cat(emitCategory()));
cl::opt<std::string> emitOut("o", cl::desc("Write the source to PATH instead of standard output"), cl::value_desc("PATH"),
                             cl::sub(emitSubcommand()), cl::cat(emitCategory()));

int usage(const std::string& problem) {
  llvm::errs() << "tilesight emit: " << problem << "\n";
  return 2;
}

// A file of `// -----` chunks holds a program per chunk (MLIR's
// --split-input-file): their entries in one source would define the same
// kernels twice, and a get_global would find another chunk's global. The
// chunk emitted is the one `run --entry NAME` runs from, the first that
// defines NAME, else the first that holds an entry; null when none does.
const ChunkAnalysis* chunkToEmit(const Analysis& split, const std::string& entry) {
  for (const ChunkAnalysis& c : split.chunks) {
    if (entry.empty() && !runtime::entriesOf(c.parsed.program).empty()) return &c;
    if (entry.empty()) continue;
    auto e = runtime::selectEntry(c.parsed.program, entry);
    if (e) return &c;
    llvm::consumeError(e.takeError());
  }
  return nullptr;
}
}  // namespace

int runEmit() {
  std::optional<simt::Target> target;
  for (simt::Target t : {simt::Target::Cuda, simt::Target::Hip, simt::Target::OpenCL})
    if (emitTarget == simt::targetName(t)) target = t;
  if (!target) return usage(emitTarget.empty() ? "--target cuda|hip|opencl is required" : "--target " + emitTarget + " is not cuda, hip or opencl");
  if (emitFile.empty()) return usage("no FILE to emit");
  if (!emitOut.empty() && sameFile(emitOut, emitFile))
    return usage("-o " + emitOut + " would overwrite the program '" + emitFile + "'; give another path");
  ProgramInput in;
  if (int status = loadProgram("emit", emitFile, in)) return status;
  const VerifiedProgram* program = &*in.program;
  Analysis split;
  std::optional<VerifiedProgram> chunkProgram;
  if (splitChunks(in.source->text()).size() > 1) {
    AnalyzeOptions options;
    options.splitInputFile = true;
    split = analyze(in.source->text(), options);
    if (const ChunkAnalysis* chunk = chunkToEmit(split, emitEntry)) {
      VerifiedProgram::Result vp = VerifiedProgram::of(split, *chunk);
      if (!vp.program) {
        for (const std::string& reason : vp.reasons) llvm::errs() << emitFile << ": " << reason << "\n";
        return 1;
      }
      chunkProgram = vp.program;
      program = &*chunkProgram;
    }
  }
  const Program& p = program->program();
  std::vector<const Operation*> entries;
  if (emitEntry.empty()) entries = runtime::entriesOf(p);
  else {
    auto e = runtime::selectEntry(p, emitEntry);
    if (!e) return usage(llvm::toString(e.takeError()));
    entries.push_back(*e);
  }
  if (entries.empty()) return usage("'" + emitFile + "' has no entry");
  if (chunkProgram && emitEntry.empty())
    llvm::errs() << "tilesight emit: note: '" << emitFile << "' holds " << split.chunks.size()
                 << " `// -----` chunks, a program each: emitting the first that has an entry (line "
                 << in.source->lineCol(entries[0]->range.begin).line + 1
                 << "); --entry NAME takes the first that defines NAME\n";
  std::vector<simt::Kernel> kernels;
  for (const Operation* entry : entries) {
    simt::LowerOptions lowering;
    lowering.tensorCores = !emitNoTensorCores;
    lowering.guard = !emitNoGuard;
    auto kernel = simt::lower(*program, *entry, lowering);
    if (!kernel) {
      llvm::errs() << "tilesight emit: " << emitFile << ": entry " << attrs::symName(*entry)->s << ": "
                   << llvm::toString(kernel.takeError()) << "\n";
      return 3;
    }
    kernels.push_back(std::move(*kernel));
  }
  std::string text = emitArch.empty() ? "" : "// Architecture: " + emitArch + "\n";
  text += simt::printKernels(kernels, *target);
  if (emitOut.empty()) {
    llvm::outs() << text;
    return 0;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(emitOut, ec);
  if (ec) return usage("cannot write '" + emitOut + "': " + ec.message());
  os << text;
  return 0;
}

}  // namespace tilesight::cli
