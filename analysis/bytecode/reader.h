#pragma once
// CUDA Tile IR bytecode (13.1-13.4) in, the same program as the text form
// out: a Program built from registered ops whose attributes have the form the
// text parser gives them, its printed text, and the source location of each
// op from the debug info. A pure library: no I/O, nothing thrown; malformed
// input gives one `syntax` diagnostic "bytecode offset N: expected X".
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/diag/diagnostic.h"
#include "analysis/ir/ir.h"

namespace tilesight::bytecode {

// "\x7fTileIR\0": what makes a file bytecode, whatever its name (a magic
// with one or two wrong bytes too: a damaged file, which the reader reports).
bool isTileIRBytecode(std::string_view bytes);

struct SourceLoc {
  std::string file;
  uint32_t line = 0;    // 1-based; 0: unknown
  uint32_t column = 0;  // 1-based
  bool known() const { return line != 0; }
};

// Where an op comes from: `at`, and for an op of an inlined helper the call
// sites, innermost first. Frames inside cuTile's own `_stub.py` (method
// calls such as `.astype`) are replaced by their caller.
struct OpLocation {
  SourceLoc at;
  std::vector<SourceLoc> callers;
};

// The location of each op, read as a vector of OpLocation (size, [i],
// range-for); ops at the same place share one OpLocation, so decoding does
// not copy a file name per op.
class OpLocations {
 public:
  size_t size() const { return slots_.size(); }
  bool empty() const { return slots_.empty(); }
  const OpLocation& operator[](size_t i) const { return distinct_[slots_[i]]; }
  void clear() { distinct_.clear(), slots_.clear(); }

  struct iterator {
    using iterator_category = std::forward_iterator_tag;
    using value_type = OpLocation;
    using difference_type = std::ptrdiff_t;
    using pointer = const OpLocation*;
    using reference = const OpLocation&;
    const OpLocations* of = nullptr;
    size_t i = 0;
    reference operator*() const { return (*of)[i]; }
    pointer operator->() const { return &(*of)[i]; }
    iterator& operator++() { return ++i, *this; }
    iterator operator++(int) { iterator old = *this; return ++i, old; }
    friend bool operator==(const iterator& a, const iterator& b) { return a.i == b.i; }
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size()}; }

 private:
  friend class Decoder;
  std::vector<OpLocation> distinct_;
  std::vector<uint32_t> slots_;  // per op: its entry of distinct_
};

struct Decoded {
  Program program;                   // empty on error
  std::string text;                  // printProgram(program); empty on error
  std::string version;               // "13.3"; empty when the header is bad
  OpLocations locations;             // per op, in pre-order of the program (preorder() below)
  bool hasDebugInfo = false;         // some op has a known location
  std::vector<Diagnostic> diagnostics;  // at most one, code `syntax`, empty range
  uint64_t errorOffset = 0;          // where the error is (when there is one)
  bool ok() const { return diagnostics.empty(); }
};

// `printText` false leaves Decoded::text empty (the program alone: what the benchmark times).
// `parameterNames` (launch.h's parameterNames: a launch file's) names the
// parameters of the program's one entry `%NAME`, by position; an empty or
// non-ASCII-identifier name keeps the number, and a program without exactly
// one entry of that many parameters keeps them all.
Decoded readBytecode(std::string_view bytes, bool printText = true,
                     const std::vector<std::string>& parameterNames = {});

// The ops of `p` in pre-order (each op before the ops of its regions), the
// order of Decoded::locations; the same sequence for the printed text parsed again.
std::vector<OpId> preorder(const Program& p);

// The pre-order index of the innermost op of `p` whose range holds `offset`
// (`p` parsed from Decoded::text); nullopt when none does.
std::optional<size_t> opAt(const Program& p, uint32_t offset);

}  // namespace tilesight::bytecode
