#pragma once
// Internal to analysis/bytecode: the state of one write, shared by writer.cpp
// (sections, functions, ops), write_types.cpp and write_attrs.cpp. Problems
// are collected as messages; the output is dropped when there is one.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/bytecode/encodings.h"
#include "analysis/bytecode/writer.h"
#include "analysis/ir/ir.h"

namespace tilesight::bytecode {

// Little-endian and LEB128 appends (bytecode_format.md §1.1).
void putVarint(std::string& b, uint64_t v);
void putSvarint(std::string& b, int64_t v);
void putFixed(std::string& b, uint64_t v, unsigned bytes);
void putI32s(std::string& b, const std::vector<int64_t>& v);
void putI64s(std::string& b, const std::vector<int64_t>& v);
// 0xCB bytes up to a multiple of `alignment` of b's size plus `base`.
void padTo(std::string& b, unsigned alignment, size_t base = 0);

// String, type and constant tables: items by content, indices in order of insertion.
struct ItemTable {
  std::vector<std::string> items;
  std::unordered_map<std::string, uint64_t> index;
  uint64_t add(std::string item);
  // count, padding, offsets of `width` bytes, the items (§1.4)
  std::string payload(unsigned width) const;
};

class Encoder {
 public:
  Encoder(const Program& p, const WriteOptions& o) : prog_(p), options_(o) {}
  bool run(std::string& out);
  std::vector<std::string> errors;

  // --- problems ---------------------------------------------------------------
  bool refuse(const Operation* op, std::string what);

  // --- tables -------------------------------------------------------------------
  uint64_t string(std::string_view s) { return strings_.add(std::string(s)); }
  uint64_t constant(std::string data);
  // The index of type `t` (write_types.cpp); ~0 after a refusal.
  uint64_t type(TypeRef t, const Operation* where);

  // --- attributes (write_attrs.cpp) ---------------------------------------------------
  bool attr(std::string& b, const WireAttr& w, const Attr& a, TypeRef firstResult, const Operation& op);
  bool tagged(std::string& b, const Attr& a, const Operation* op);
  bool dictionary(std::string& b, const Attr& a, const Operation* op);
  // Dense data of `a` typed by the tile type `t`, as the constant table holds it.
  bool denseData(const Attr& a, TypeRef t, const Operation* op, std::string& data);

 private:
  bool seedFrom(std::string_view like);
  bool module(const Operation& m);
  const Operation* wrapped(const Operation& top) const;  // the cuda_tile.module in a builtin `module { }`, or null
  bool global(std::string& b, const Operation& g);
  bool function(std::string& b, const Operation& f, size_t ordinal);
  bool block(std::string& b, const Block& blk, const Operation& owner, bool counted);
  bool op(std::string& b, const Operation& op);
  bool operands(std::string& b, const OpEncoding& e, const Operation& op);
  uint64_t flagsOf(const OpEncoding& e, const Operation& op);
  void define(ValueId v);
  std::string sections();

  const Program& prog_;
  const WriteOptions& options_;
  ItemTable strings_, types_, constants_;
  std::unordered_map<TypeRef, uint64_t> typeIndex_;
  TypeContext ownTypes_;                    // types the program may lack (i32 for hints)
  TypeRef i32_ = ownTypes_.scalar(Elem::I32);
  std::string functions_, globals_, producer_;
  uint64_t functionCount_ = 0, globalCount_ = 0;
  std::vector<uint32_t> valueIndex_;  // by ValueId: index in the function's value list
  std::vector<ValueId> scope_;        // the function's value list (bytecode_format.md §4.3)

  // Carried from `like`: the debug section and each function's debug index.
  std::string debug_;
  std::vector<uint64_t> debugIndices_;
};

}  // namespace tilesight::bytecode
