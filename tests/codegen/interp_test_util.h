#pragma once
// Running a tile program on the interpreter from a test: the program text,
// host arrays for its pointer arguments and numbers for its scalars; the
// arrays hold the results afterwards.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/analysis.h"
#include "analysis/verified.h"
#include "codegen/interp/elements.h"
#include "codegen/interp/interpreter.h"
#include "codegen/interp/sanitizer.h"
#include "codegen/runtime/arguments.h"

namespace tilesight::testing {

// One entry argument: a buffer of raw bytes (elements of the pointee type,
// packed as in memory) or a scalar.
struct Arg {
  std::vector<uint8_t> bytes;  // pointer arguments
  int64_t i = 0;               // integer scalars
  double f = 0;                // float scalars
  bool pointer = false;

  template <class T>
  static Arg buffer(const std::vector<T>& v) {
    Arg a;
    a.pointer = true;
    a.bytes.resize(v.size() * sizeof(T));
    std::memcpy(a.bytes.data(), v.data(), a.bytes.size());
    return a;
  }
  static Arg zeros(size_t bytes) {
    Arg a;
    a.pointer = true;
    a.bytes.assign(bytes, 0);
    return a;
  }
  static Arg integer(int64_t v) {
    Arg a;
    a.i = v;
    return a;
  }
  static Arg real(double v) {
    Arg a;
    a.f = v;
    return a;
  }
  template <class T>
  std::vector<T> as() const {
    std::vector<T> v(bytes.size() / sizeof(T));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
    return v;
  }
};

struct RunResult {
  bool verified = false;
  std::string reasons;  // why the program did not verify
  interp::RunOutcome outcome;
};

// Parses `text`, runs its only (or named) entry over `grid` with `args`, and
// copies the buffers back into args. Deterministic (one thread, grid order)
// unless threads > 1.
inline RunResult runProgram(const std::string& text, std::vector<Arg>& args, std::array<int64_t, 3> grid = {1, 1, 1},
                            unsigned threads = 1, const std::string& entryName = "") {
  RunResult res;
  Analysis a = analyze(text);
  if (a.chunks.empty()) return res;
  VerifiedProgram::Result vp = VerifiedProgram::of(a, a.chunks[0]);
  if (!vp.program) {
    for (const std::string& r : vp.reasons) res.reasons += r + "\n";
    return res;
  }
  res.verified = true;
  const Program& p = vp.program->program();
  auto entry = runtime::selectEntry(p, entryName);
  if (!entry) {
    res.verified = false;
    res.reasons = llvm::toString(entry.takeError());
    return res;
  }
  const std::vector<ValueId>& params = (*entry)->regions[0].blocks[0].args;
  runtime::AddressSpace memory;
  std::vector<runtime::HostBuffer*> buffers(args.size(), nullptr);
  std::vector<interp::RtValue> values;
  for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
    TypeRef t = p.typeOf(params[i]);
    auto tile = interp::Tile::make(t, 1);
    if (args[i].pointer) {
      runtime::HostBuffer b;
      b.name = std::string(p.value(params[i]).name);
      b.elem = t->element->elem;
      b.bytes = args[i].bytes;
      b.shape = {static_cast<int64_t>(b.bytes.size())};
      buffers[i] = &memory.add(std::move(b));
      uint64_t addr = buffers[i]->address();
      tile->ints()[0] = static_cast<int64_t>(runtime::pointerTo(t->element->elem, addr));
    } else if (tile->store == interp::Store::Int) {
      tile->ints()[0] = args[i].i;
    } else if (tile->store == interp::Store::F32) {
      tile->f32()[0] = static_cast<float>(args[i].f);
    } else {
      tile->f64()[0] = args[i].f;
    }
    values.push_back(interp::TileRef(tile));
  }
  interp::LaunchOptions opts;
  opts.grid = grid;
  opts.threads = threads;
  opts.deterministic = threads == 1;
  res.outcome = interp::runEntry(*vp.program, **entry, values, memory, opts);
  for (size_t i = 0; i < args.size(); ++i)
    if (buffers[i]) args[i].bytes = buffers[i]->bytes;
  return res;
}

// A run from `tilesight run`-style argument specs (NAME=@file.npy,
// NAME=rand:SHAPE:DTYPE, NAME=zeros:..., NAME=NUMBER): each pointer
// argument's buffer before and after the run, by argument name.
struct SpecRun {
  bool ok = false;
  std::string problem;  // verification, binding or run fault
  std::map<std::string, std::vector<uint8_t>> before, after;
  interp::RunOutcome outcome;
  std::vector<Diagnostic> findings;  // the sanitizer's, with `sanitize`
  template <class T>
  std::vector<T> get(const std::map<std::string, std::vector<uint8_t>>& m, const std::string& name) const {
    const std::vector<uint8_t>& b = m.at(name);
    std::vector<T> v(b.size() / sizeof(T));
    std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
    return v;
  }
};

inline SpecRun runWithSpecs(const std::string& text, const std::vector<std::string>& specs,
                            std::array<int64_t, 3> grid, unsigned threads = 0, bool sanitize = false) {
  SpecRun out;
  Analysis a = analyze(text);
  VerifiedProgram::Result vp = VerifiedProgram::of(a, a.chunks.at(0));
  if (!vp.program) {
    for (const std::string& r : vp.reasons) out.problem += r + "\n";
    return out;
  }
  const Program& p = vp.program->program();
  auto entry = runtime::selectEntry(p, "");
  if (!entry) return out.problem = llvm::toString(entry.takeError()), out;
  runtime::AddressSpace memory;
  auto args = runtime::bindArguments(p, **entry, specs, memory);
  if (!args) return out.problem = llvm::toString(args.takeError()), out;
  for (const runtime::ArgValue& v : *args)
    if (v.buffer) out.before[v.name] = v.buffer->bytes;
  std::vector<interp::RtValue> values = interp::entryArguments(*args);
  interp::LaunchOptions opts;
  opts.grid = grid;
  opts.threads = threads;
  interp::Sanitizer sanitizer(p, memory);
  if (sanitize) opts.sanitizer = &sanitizer;
  out.outcome = interp::runEntry(*vp.program, **entry, values, memory, opts);
  out.findings = sanitizer.diagnostics();
  for (const runtime::ArgValue& v : *args)
    if (v.buffer) out.after[v.name] = v.buffer->bytes;
  out.ok = out.outcome.ok;
  if (!out.ok) out.problem = out.outcome.fault;
  return out;
}

// The text of a file under tests/.
inline std::string testFile(const std::string& relative) {
  std::ifstream in(std::string(TILESIGHT_TESTS_DIR) + "/" + relative, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A one-entry module around `body` (ops of the entry, without `return`) with
// the given argument list, e.g. "%out: tile<ptr<f32>>".
inline std::string kernel(const std::string& params, const std::string& body) {
  return "cuda_tile.module @m {\n  entry @k(" + params + ") {\n" + body + "\n    return\n  }\n}\n";
}

}  // namespace tilesight::testing
