#pragma once
// The wire encodings of ops (encodings.def), compiled once into records that
// the bytecode reader and writer interpret: one record per op kind
// of the op table that has an opcode.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/ir/op_table.h"

namespace tilesight::bytecode {

// A bytecode version as (major, minor); 13.1 is {13, 1}.
struct Version {
  uint8_t major = 0, minor = 0;
  friend bool operator<(Version a, Version b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  }
  friend bool operator>=(Version a, Version b) { return !(a < b); }
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
};
constexpr Version kV13_1{13, 1}, kV13_3{13, 3}, kV13_4{13, 4};

enum class WireKind : uint8_t {
  Enum,      // varint index into a keyword set (WireAttr::set)
  Unit,      // nothing on the wire but a flag bit
  Bool,      // one byte
  Int,       // varint
  Str,       // string index
  Sym,       // string index of a symbol name
  I32Array,  // count + int32 values
  Const,     // constant index, data typed by the first result type
  Tagged,    // a self-contained (tagged) attribute
  TaggedArray,  // count + tagged attributes
  Hints,     // untagged dictionary of tagged values
  BoolArray, // count + bytes 0/1
};

struct WireAttr {
  std::string name;      // the op table's attribute name
  WireKind kind = WireKind::Int;
  std::string set;       // Enum: the op table's keyword kind (sign, rnd, pred, ...)
  int flagBit = -1;      // present iff this bit of the flags is set; -1: always
  Version since = kV13_1;
  std::string dflt;      // keyword for files older than `since`; empty: left out
  // Looked up once, for the reader's per-op loop:
  const std::vector<std::string_view>* words = nullptr;  // Enum: wireWords(set)
  std::string_view textDefault;  // the op format's default keyword (OpInfo::attrDefault), which the text leaves out
  bool overflow = false;         // set "ovf": `none` is left out too
};

struct OpEncoding {
  OpKind kind{};
  uint32_t opcode = 0;
  bool hasFlags = false;
  Version flagsSince = kV13_1;
  std::vector<WireAttr> attrs;          // in wire order
  std::vector<int> optionalBit;         // per operand group of the op table: flag bit or -1
  bool perGroup = false;                // operands written per group
  unsigned regions = 0;
  Version resultsSince = kV13_1;
  bool countResults = false;            // a result count precedes the result types
  bool countOperands = false;           // (not per group) a total count precedes the operands
  // From the op table, counted once for the reader:
  const OpInfo* info = nullptr;
  unsigned fixedResults = 0;            // result groups that are not variadic
  bool variadicResults = false;
  unsigned fixedOperands = 0;           // operand groups of exactly one operand
};

// The encoding of the op with `opcode`, nullptr when none (gaps, ops we do not know).
const OpEncoding* encodingOf(uint32_t opcode);
// The encoding of op kind `k`, nullptr for ops without an opcode (module,
// entry, global, testing ops): what a writer looks up.
const OpEncoding* encodingOfKind(OpKind k);
// The highest opcode a file of version `v` may use.
uint32_t maxOpcode(Version v);
// Keyword names of an enum set in wire order (wire value = index).
const std::vector<std::string_view>& wireWords(std::string_view set);

}  // namespace tilesight::bytecode
