#pragma once
// The SIMT lowering's own small IR: one kernel for one entry, run by the
// threads of one block (CUDA block, HIP workgroup, OpenCL work-group) per
// tile block. Statements are structured (element loops, counted and
// unbounded loops, ifs, barriers); their leaf statements and expressions are
// in a portable C subset whose target-dependent parts are spelled with TS_
// macros and ts_ helpers (prelude.cpp), so one tree prints as CUDA C++,
// HIP C++ or OpenCL C (print.cpp).
//
// Distribution (docs/codegen.md): a tile of N > 1 elements is spread
// cyclically, row-major element k on thread k mod T in slot k / T of a
// per-thread array, so consecutive elements of a row go to consecutive
// threads and global accesses along a contiguous last dimension coalesce. A
// tile of one element, every view and every scalar is uniform: each thread
// holds the same value. Ops that move elements between threads (broadcast,
// permute, cat, extract, reduce, scan, matrix products, gathers) go through
// the block's staging memory with barriers.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/ir/types.h"

namespace tilesight {
struct Operation;
}

namespace tilesight::simt {

enum class Target { Cuda, Hip, OpenCL };
const char* targetName(Target t);  // "cuda", "hip", "opencl"

struct Stmt {
  enum Kind {
    Code,      // text: one statement (or a declaration)
    Barrier,   // every thread of the block waits here; block memory and global memory are ordered
    Elements,  // body runs for each element k < count this thread owns (slot j); `k` and `j` in scope
    Loop,      // text: a loop header ("for (...)", "while (1)"); body
    If,        // text: the condition; body, orElse
    Scope,     // body in braces
    // variants: forms for one target's matrix units, each under a
    // preprocessor condition on the architecture (CUDA: TS_TENSOR_CORES,
    // prelude.cpp; HIP: the gfx macros); orElse: the portable form, which
    // every other target and architecture runs.
    TensorCores,
  };
  Stmt() = default;
  explicit Stmt(Kind k, std::string t = {}, int64_t n = 0) : kind(k), text(std::move(t)), count(n) {}
  Kind kind = Code;
  std::string text;
  int64_t count = 0;
  std::vector<Stmt> body, orElse;
  struct Variant;
  std::vector<Variant> variants;
};

struct Stmt::Variant {
  Target target;
  std::string condition;
  std::vector<Stmt> body;
};

struct Param {
  enum Kind { Pointer, Integer, Float } kind = Integer;
  std::string name;   // the entry argument's name, without %
  std::string ctype;  // of a scalar: ts_i32, float, double, ...
  unsigned bits = 0;  // of a scalar: its width (i1 is 1, passed as a 32-bit int)
};

// A global access the guard checks (Kernel::guardSites): the op, what it
// does ("a load", "a store", "an atomic access"), the bytes it moves, and
// the tile whose element (lane) the fault record names.
struct GuardSite {
  const Operation* op = nullptr;
  std::string what;
  uint64_t bytes = 0;
  TypeRef tile = nullptr;
};

struct Kernel {
  std::string name;             // the entry's symbol
  std::vector<Param> params;    // in entry order; the status word pointer follows them
  // Pointer parameters between the entry's and the status words that the
  // body never names: OpenCL buffers reached only through addresses held in
  // memory (cuTile's lists of arrays) are bound there to be resident.
  unsigned residentBuffers = 0;
  unsigned threads = 32;        // per block
  uint64_t stageBytes = 0;      // block staging memory (shared / local)
  // What the TensorCores variants of each target stage, when more than the portable code.
  std::map<Target, uint64_t> variantStageBytes;
  std::vector<std::string> constants;  // constant tables, declared before the body
  std::vector<Stmt> body;
  // Status words the kernel writes (hidden last argument, 2 x i32, zero on
  // entry): [0] = 1 + the id of the first failing op (assert, division by
  // zero), [1] = the linear block id that failed.
  std::vector<std::string> faults;  // message of op id i (index = id)
  // The print_tko ops, in site order. A kernel with any takes a print
  // buffer (ts_u64 words, a parameter after the entry's): [0] the next free
  // word (starts at 2), [1] the capacity in words, then records of a header
  // word ((site + 1) << 32 | linear block id) and each tile operand's
  // elements as 64-bit words (integers sign-extended, floats as f64 bits).
  // A record that does not fit is not written; the counter still moves.
  std::vector<const Operation*> prints;
  // Module globals the body reads (get_global), in parameter order: a buffer
  // each, right after the entry's parameters, holding the global's initial
  // value (interp::globalBuffer). Then, when alloca is used, one scratch
  // buffer of scratchBytesPerBlock bytes per tile block (zeroed).
  std::vector<const Operation*> globals;
  uint64_t scratchBytesPerBlock = 0;
  // The guard (LowerOptions::guard): every global load, store and atomic
  // first checks that its bytes lie inside one of the launch's buffers,
  // whose (base, size) pairs the kernel takes in a buffer of ts_u64 words
  // (after the print buffer): [0] 1 + the site of the first access outside
  // them (its index in guardSites), [1] its linear block id, [2] its element
  // of the site's tile, [3] its byte address, [4] 1 + the buffer with the
  // nearest base below it (0: none), [5] the address's offset from that
  // base, [6] the number of buffers N, then N (base, size) pairs. Such an
  // access is skipped (a load gives 0). device/guard.h builds and reads it.
  bool guarded = false;
  std::vector<GuardSite> guardSites;
};

}  // namespace tilesight::simt
