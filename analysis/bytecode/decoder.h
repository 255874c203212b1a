#pragma once
// Internal to analysis/bytecode: the state of one decode, shared by
// reader.cpp (sections, functions, ops), read_types.cpp, read_attrs.cpp and
// read_debug.cpp. Every read goes through a ByteCursor; the first failure is
// kept and everything after it stops.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <llvm/ADT/SmallVector.h>

#include "analysis/bytecode/byte_cursor.h"
#include "analysis/bytecode/encodings.h"
#include "analysis/bytecode/reader.h"
#include "analysis/ir/ir.h"

namespace tilesight::bytecode {

struct Section {
  std::string_view data;
  uint64_t base = 0;  // absolute offset of data[0]
  bool present = false;
  ByteCursor cursor() const { return ByteCursor(data, base); }
};

// String, type and constant sections: a count, item offsets, a blob.
struct IndexTable {
  std::string_view blob;
  uint64_t blobBase = 0;
  std::vector<uint64_t> starts;
  size_t size() const { return starts.size(); }
};

// A debug-info walk through one function's location list.
struct DebugCursor {
  bool active = false;
  uint64_t next = 0;  // index into Decoder::diIndices_
};

class Decoder {
 public:
  Decoder(std::string_view bytes, Decoded& out) : bytes_(bytes), out_(out), prog_(out.program) {}
  bool run();

  // --- failures -------------------------------------------------------------
  bool failed() const { return failed_; }
  uint64_t failOffset() const { return failOffset_; }
  const std::string& failWhat() const { return failWhat_; }
  bool fail(uint64_t at, std::string expected);
  bool lift(const ByteCursor& c) { return c.ok() || fail(c.failOffset(), c.expected()); }

  // --- tables -----------------------------------------------------------------
  Version version() const { return version_; }
  bool readTable(const Section& s, unsigned width, unsigned alignment, std::string_view what, IndexTable& t);
  // The item `index` of a table, failing at `at` when out of range.
  bool item(const IndexTable& t, uint64_t index, uint64_t at, std::string_view what, ByteCursor& out);
  // A string index read from `c`, resolved (valid UTF-8).
  bool string(ByteCursor& c, std::string_view what, std::string_view& out);
  // A type index read from `c`, resolved (a type read before: here; else read_types.cpp).
  TypeRef type(ByteCursor& c, std::string_view what) {
    uint64_t at = c.offset();
    uint64_t index = c.varint(what);
    if (!lift(c)) return nullptr;
    if (!failed_ && index < typeState_.size() && typeState_[index] == 2) return typeCache_[index];
    return readTypeAt(index, at, 0);
  }

  // --- attributes (read_attrs.cpp) ------------------------------------------------
  bool attr(ByteCursor& c, const WireAttr& w, TypeRef firstResult, Attr& out);
  bool tagged(ByteCursor& c, Attr& out, unsigned depth = 0);
  bool dictionary(ByteCursor& c, Attr& out, unsigned depth);
  // Dense data of constant `index` read from `c`, typed by the tile type `t`.
  bool constant(ByteCursor& c, TypeRef t, Attr& out);

  // --- debug info (read_debug.cpp) -------------------------------------------------
  bool readDebugSection();
  // `loc` is a slot of locations_ (0: unknown), shared by the ops at the same place.
  bool startFunction(uint64_t debugIndex, uint64_t at, DebugCursor& d, uint32_t& fnLoc);
  bool nextLocation(DebugCursor& d, uint64_t at, uint32_t& loc) {  // per op: here, so that it inlines
    loc = 0;
    if (!d.active) return true;
    if (d.next >= diIndices_.size()) return fail(at, "a debug location for this op (the debug index list has ended)");
    uint64_t index = diIndices_[d.next++];
    if (index && index <= locSlot_.size() && locSlot_[index - 1]) return loc = locSlot_[index - 1], true;
    return locationSlot(index, loc);
  }

  Program& program() { return prog_; }

 private:
  bool readHeader(ByteCursor& c);
  bool readSections(ByteCursor& c);
  bool readGlobals(Block& body, OpId module);
  bool readFunctions(Block& body, OpId module);
  bool readFunction(ByteCursor& c, Block& body, OpId module);
  bool readBlockOps(ByteCursor& c, Block& b, OpId parent, uint64_t count, bool untilEnd);
  bool readOp(ByteCursor& c, OpId parent, OpId& id);
  bool readAttrs(ByteCursor& c, const OpEncoding& e, uint64_t flags, TypeRef firstResult,
                 llvm::SmallVectorImpl<NamedAttr>& attrs);
  bool readOperands(ByteCursor& c, const OpEncoding& e, uint64_t flags, Operation& op);
  bool readOperand(ByteCursor& c, Operation& op);
  bool readRegions(ByteCursor& c, const OpEncoding& e, OpId id);
  bool readRegionList(ByteCursor& c, uint64_t n, OpId id);
  bool readResults(ByteCursor& c, const OpEncoding& e, llvm::SmallVectorImpl<TypeRef>& types);
  OpId newOp(const OpInfo& info, OpId parent, uint32_t loc = 0);
  ValueId newValue(TypeRef t, OpId owner, uint32_t index, bool blockArg, std::string_view name);
  std::string_view valueName(uint32_t n, bool entryArg);
  TypeRef readTypeAt(uint64_t index, uint64_t at, unsigned depth);
  TypeRef decodeType(ByteCursor& c, unsigned depth);
  bool resolveLocation(uint64_t index, unsigned depth, std::vector<SourceLoc>& frames);
  bool locationSlot(uint64_t index, uint32_t& slot);

  std::string_view bytes_;
  Decoded& out_;
  Program& prog_;
  Version version_;
  uint32_t maxOpcode_ = 0;  // of version_
  std::vector<const OpEncoding*> encodings_;  // by opcode, up to maxOpcode_ (encodingOf)
  bool failed_ = false;
  uint64_t failOffset_ = 0;
  std::string failWhat_;

  Section sections_[8];
  IndexTable strings_, types_, constants_;
  std::vector<int8_t> stringValid_;   // per string: 0 unchecked, 1 valid UTF-8
  std::vector<TypeRef> typeCache_;
  std::vector<uint8_t> typeState_;    // 0 unread, 1 being read (a cycle), 2 read
  bool oneBasedColumns_ = false;      // NVIDIA's tools (a producer section); cuTile writes 0-based

  std::vector<ValueId> scope_;        // the function's value list (bytecode_format.md §4.3)
  uint32_t nextName_ = 0;             // the function's next %N, in the order the text defines values
  unsigned depth_ = 0;                // regions nested so far
  // %N and %argN, each spelled once per file (Program::names holds them).
  std::vector<std::string_view> names_, argNames_;
  DebugCursor debug_;
  std::vector<uint32_t> opLocs_;      // by OpId: a slot of locations_
  std::vector<OpLocation> locations_; // distinct op locations; [0] unknown
  std::vector<uint32_t> locSlot_;     // by debug record index: its slot in locations_, 0 not yet made

  std::vector<uint32_t> diFuncs_;
  std::vector<uint64_t> diIndices_;
  IndexTable diAttrs_;
  std::unordered_map<uint64_t, std::vector<SourceLoc>> locCache_;
};

}  // namespace tilesight::bytecode
