// Bytecode in, Program out (bytecode_format.md §1, §4): the header, the
// sections, globals, entry functions and their ops, interpreted from the
// encodings table (encodings.def).
#include "analysis/bytecode/reader.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "analysis/bytecode/decoder.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/op_table.h"
#include "analysis/ir/printer.h"

namespace tilesight::bytecode {

namespace {

constexpr std::string_view kMagic("\x7fTileIR\0", 8);
// Regions nested deeper are refused (the reader recurses per level); below
// the text parser's limit, so the printed text of a program parses again.
constexpr unsigned kMaxRegionDepth = 100;
// Value names are spelled this many at a time, into one string.
constexpr uint32_t kNameChunk = 1024;

bool validUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    size_t more = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : 4;
    if (more == 4 || more >= s.size() - i) return more == 0;
    for (size_t k = 1; k <= more; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    i += more + 1;
  }
  return true;
}

Attr textAttr(AttrKind k, std::string s) {
  Attr a;
  a.kind = k;
  a.s = std::move(s);
  return a;
}

Attr typeAttr(TypeRef t) {
  Attr a;
  a.kind = AttrKind::Type;
  a.type = t;
  return a;
}

// make_tensor_view's text spells its shape and strides, where the bytecode
// has them in the result type only (`?` where an operand gives the size):
// the attributes the parser makes of `shape = [...]` and `strides = [...]`.
void addSizeLists(llvm::SmallVectorImpl<NamedAttr>& attrs, TypeRef result) {
  if (!result || result->kind != TypeKind::TensorView) return;
  auto list = [](const std::vector<int64_t>& sizes) {
    Attr a;
    a.kind = AttrKind::Array;
    a.elems.resize(sizes.size());
    for (size_t k = 0; k < sizes.size(); ++k) {
      bool dynamic = sizes[k] == kDynamic;
      a.elems[k].kind = dynamic ? AttrKind::Unit : AttrKind::Int;
      a.elems[k].i = dynamic ? 0 : sizes[k];
    }
    return a;
  };
  attrs.push_back({"static_shape", list(result->shape), {}});
  attrs.push_back({"static_strides", list(result->strides), {}});
}

// load_ptr_tko with a padding value but no mask: the text form cannot say it
// (`%src, %pad` reads as a mask, in NVIDIA's syntax too). With no mask no
// lane is masked off, so the padding value is never used: it is left out.
void dropUnusedPadding(Operation& op) {
  constexpr size_t mask = LoadPtrTkoOp::kMaskGroup, pad = LoadPtrTkoOp::kPaddingValueGroup;
  if (op.segments[mask] || !op.segments[pad]) return;
  size_t at = 0;
  for (size_t g = 0; g < pad; ++g) at += op.segments[g];
  op.operands.erase(op.operands.begin() + static_cast<long>(at));
  op.segments[pad] = 0;
}

std::string hex(uint64_t v) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string s;
  do s.insert(s.begin(), kDigits[v & 15]), v >>= 4;
  while (v);
  return "0x" + (s.size() < 2 ? "0" + s : s);
}

}  // namespace

// A magic with one or two wrong bytes is a damaged bytecode file (no text
// starts like "\x7fTileIR\0"), reported as one by the header's check.
bool isTileIRBytecode(std::string_view bytes) {
  if (bytes.size() < kMagic.size()) return false;
  size_t wrong = 0;
  for (size_t i = 0; i < kMagic.size(); ++i) wrong += bytes[i] != kMagic[i];
  return wrong <= 2;
}

bool Decoder::fail(uint64_t at, std::string expected) {
  if (!failed_) {
    failed_ = true;
    failOffset_ = at;
    failWhat_ = std::move(expected);
  }
  return false;
}

bool Decoder::readHeader(ByteCursor& c) {
  std::string_view magic = c.bytes(8, "the magic \\x7fTileIR\\0");
  if (!lift(c)) return false;
  if (magic != kMagic) {
    size_t k = 0;
    while (k < magic.size() && magic[k] == kMagic[k]) ++k;
    char got[8];
    std::snprintf(got, sizeof got, "0x%02x", static_cast<unsigned char>(magic[k]));
    return fail(k, "the magic \\x7fTileIR\\0 (byte " + std::to_string(k) + " is " + got + "): a damaged bytecode file");
  }
  uint64_t at = c.offset();
  version_.major = c.u8("a major version");
  version_.minor = c.u8("a minor version");
  c.fixed(2, "a version tag");
  if (!lift(c)) return false;
  if (version_.major != 13 || version_.minor < 1 || version_.minor > 4)
    return fail(at, "version 13.1, 13.2, 13.3 or 13.4, not " + version_.str());
  out_.version = version_.str();
  maxOpcode_ = maxOpcode(version_);
  for (uint32_t op = 0; op <= maxOpcode_; ++op) encodings_.push_back(encodingOf(op));
  return true;
}

bool Decoder::readSections(ByteCursor& c) {
  for (;;) {
    uint64_t at = c.offset();
    uint8_t head = c.u8("a section id (the file ends without its end section)");
    if (!lift(c)) return false;
    unsigned id = head & 0x7F;
    if (id == 0) {
      if (head & 0x80) return fail(at, "an end section without alignment");
      if (!c.atEnd()) return fail(c.offset(), "the end of the file after the end section");
      return true;
    }
    if (id > 7) return fail(at, "a section id 0-7, not " + std::to_string(id));
    if (sections_[id].present) return fail(at, "each section once, not section " + std::to_string(id) + " again");
    uint64_t length = c.varint("a section length");
    if (head & 0x80) {
      uint64_t aAt = c.offset();
      uint64_t alignment = c.varint("a section alignment");
      if (!lift(c)) return false;
      if (alignment == 0 || (alignment & (alignment - 1)) || alignment > 4096)
        return fail(aAt, "a section alignment that is a power of two up to 4096, not " + std::to_string(alignment));
      c.bytes((alignment - c.offset() % alignment) % alignment, "section padding");
    }
    uint64_t base = c.offset();
    std::string_view payload = c.bytes(length, "section " + std::to_string(id) + "'s payload");
    if (!lift(c)) return false;
    sections_[id] = {payload, base, true};
  }
}

bool Decoder::readTable(const Section& s, unsigned width, unsigned alignment, std::string_view what, IndexTable& t) {
  if (!s.present) return true;
  ByteCursor c = s.cursor();
  uint64_t n = c.count("the number of " + std::string(what) + "s");
  if (n == 0) return lift(c);
  c.align(alignment, "padding");
  if (c.ok() && n > c.left() / width)
    c.fail("at most " + std::to_string(c.left() / width) + " " + std::string(what) + "s, not " + std::to_string(n));
  t.starts.reserve(n);
  for (uint64_t i = 0; i < n && c.ok(); ++i) t.starts.push_back(c.fixed(width, "an item offset"));
  if (!lift(c)) return false;
  t.blob = s.data.substr(c.pos());
  t.blobBase = c.offset();
  return true;
}

bool Decoder::item(const IndexTable& t, uint64_t index, uint64_t at, std::string_view what, ByteCursor& out) {
  if (index >= t.size())
    return fail(at, "a " + std::string(what) + " index below " + std::to_string(t.size()) + ", not " +
                        std::to_string(index));
  uint64_t begin = t.starts[index];
  uint64_t end = index + 1 < t.size() ? t.starts[index + 1] : t.blob.size();
  if (begin > end || end > t.blob.size())
    return fail(t.blobBase, std::string(what) + " " + std::to_string(index) + " inside its table of " +
                                std::to_string(t.blob.size()) + " bytes, not at bytes " + std::to_string(begin) +
                                " to " + std::to_string(end) + (begin > end ? " (it would end before it starts)" : ""));
  out = ByteCursor(t.blob.substr(begin, end - begin), t.blobBase + begin);
  return true;
}

bool Decoder::string(ByteCursor& c, std::string_view what, std::string_view& out) {
  uint64_t at = c.offset();
  uint64_t index = c.varint(what);
  if (!lift(c)) return false;
  ByteCursor s(std::string_view(), 0);
  if (!item(strings_, index, at, "string", s)) return false;
  out = s.bytes(s.left(), "a string");
  if (!stringValid_[index]) {
    if (!validUtf8(out)) return fail(s.offset() - out.size(), "valid UTF-8 in string " + std::to_string(index));
    stringValid_[index] = 1;
  }
  return true;
}

// Ops are made in pre-order (each op before the ops of its regions), so an
// OpId is also the op's index in preorder() and in Decoded::locations.
OpId Decoder::newOp(const OpInfo& info, OpId parent, uint32_t loc) {
  if (prog_.ops.size() == prog_.ops.capacity()) {
    // Grown by hand: std::vector would copy the ops (Operation's move may throw).
    std::vector<Operation> more;
    more.reserve(2 * prog_.ops.size() + 16);
    for (Operation& o : prog_.ops) more.push_back(std::move(o));
    prog_.ops.swap(more);
  }
  Operation& op = prog_.ops.emplace_back();
  op.info = &info;
  op.name = info.fullName;
  op.parent = parent;
  opLocs_.push_back(loc);
  return static_cast<OpId>(prog_.ops.size() - 1);
}

ValueId Decoder::newValue(TypeRef t, OpId owner, uint32_t index, bool blockArg, std::string_view name) {
  Value& v = prog_.values.emplace_back();
  v.type = t;
  v.owner = owner;
  v.index = index;
  v.blockArg = blockArg;
  v.name = name;
  return static_cast<ValueId>(prog_.values.size() - 1);
}

// `%N` (or `%argN` for an entry argument). Values are numbered per function
// in the order the text defines them: an op's results, then each region's
// block arguments and ops; every function reuses the same spellings.
std::string_view Decoder::valueName(uint32_t n, bool entryArg) {
  std::vector<std::string_view>& names = entryArg ? argNames_ : names_;
  if (n >= names.size()) {
    std::string_view prefix = entryArg ? "%arg" : "%";
    uint32_t from = static_cast<uint32_t>(names.size()), to = n + kNameChunk;
    auto& chunk = *prog_.names.emplace_back(std::make_unique<std::string>());
    chunk.reserve((to - from) * (prefix.size() + 10));  // no reallocation below: the views stay valid
    std::vector<size_t> starts;
    for (uint32_t k = from; k < to; ++k) {
      starts.push_back(chunk.size());
      chunk += prefix;
      chunk += std::to_string(k);
    }
    starts.push_back(chunk.size());
    for (size_t k = 0; k + 1 < starts.size(); ++k)
      names.push_back(std::string_view(chunk).substr(starts[k], starts[k + 1] - starts[k]));
  }
  return names[n];
}

bool Decoder::readGlobals(Block& body, OpId module) {
  const Section& s = sections_[6];
  if (!s.present) return true;
  ByteCursor c = s.cursor();
  bool v13_3 = version_ >= Version{13, 3};
  uint64_t n = c.count("the number of globals", v13_3 ? 6 : 4);
  const OpInfo& info = OpTable::get().info(OpKind::Global);
  for (uint64_t i = 0; i < n && lift(c); ++i) {
    uint64_t at = c.offset();
    std::string_view name;
    if (!string(c, "a global's name", name)) return false;
    if (name.empty()) return fail(at, "a non-empty global name");
    uint64_t tAt = c.offset();
    TypeRef t = type(c, "a global's type");
    if (!t) return false;
    if (!t->isTile()) return fail(tAt, "a tile type for global @" + std::string(name) + ", not " + quoted(t));
    Attr value;
    if (!constant(c, t, value)) return false;
    uint64_t alignment = c.varint("a global's alignment");
    uint64_t visibility = v13_3 ? c.varint("a global's visibility") : 0;
    uint64_t isConstant = v13_3 ? c.varint("a global's constant flag") : 0;
    if (!lift(c)) return false;
    if (visibility > 1) return fail(at, "visibility 0 (public) or 1 (private), not " + std::to_string(visibility));
    OpId id = newOp(info, module);
    Operation& op = prog_.op(id);
    if (visibility) op.attrs.push_back({"symbol_visibility", textAttr(AttrKind::Keyword, "private"), {}});
    if (isConstant) op.attrs.push_back({"constant", Attr{}, {}});
    op.attrs.push_back({"sym_name", textAttr(AttrKind::Symbol, "@" + std::string(name)), {}});
    if (alignment) {
      Attr a;
      a.kind = AttrKind::Int;
      a.i = static_cast<int64_t>(alignment);
      op.attrs.push_back({"alignment", a, {}});
    }
    op.attrs.push_back({"value", std::move(value), {}});
    op.attrs.push_back({"type", typeAttr(t), {}});
    body.ops.push_back(id);
  }
  return lift(c);
}

bool Decoder::readFunctions(Block& body, OpId module) {
  ByteCursor c = sections_[2].cursor();
  uint64_t n = c.count("the number of functions", 4);
  for (uint64_t i = 0; i < n && lift(c); ++i)
    if (!readFunction(c, body, module)) return false;
  return lift(c);  // what follows the last function is padding
}

bool Decoder::readFunction(ByteCursor& c, Block& body, OpId module) {
  uint64_t at = c.offset();
  std::string_view name;
  if (!string(c, "a function name", name)) return false;
  if (name.empty()) return fail(at, "a non-empty function name");
  uint64_t sigAt = c.offset();
  TypeRef sig = type(c, "a function signature");
  if (!sig) return false;
  if (sig->kind != TypeKind::Function) return fail(sigAt, "a function type, not " + quoted(sig));
  uint64_t flagsAt = c.offset();
  uint8_t flags = c.u8("function flags");
  uint64_t debugAt = c.offset();
  uint64_t debugIndex = c.varint("a debug index");
  if (!lift(c)) return false;
  if (!(flags & 2)) return fail(flagsAt, "an entry function (flag bit 1) for @" + std::string(name));
  Attr hints;
  if (flags & 4) {
    uint64_t hAt = c.offset();
    uint64_t tag = c.varint("an optimization hints tag");
    if (!lift(c)) return false;
    if (tag != 11) return fail(hAt, "optimization hints (tag 11), not tag " + std::to_string(tag));
    if (!dictionary(c, hints, 1)) return false;
  }
  uint64_t length = c.varint("a function body length");
  if (!lift(c)) return false;
  uint64_t bodyAt = c.offset();
  std::string_view bytes = c.bytes(length, "a function body");
  if (!lift(c)) return false;

  uint32_t fnLoc = 0;
  if (!startFunction(debugIndex, debugAt, debug_, fnLoc)) return false;
  OpId id = newOp(OpTable::get().info(OpKind::Entry), module, fnLoc);
  std::vector<NamedAttr>& attrs = prog_.op(id).attrs;
  attrs.push_back({"sym_name", textAttr(AttrKind::Symbol, "@" + std::string(name)), {}});
  attrs.push_back({"function_type", typeAttr(sig), {}});
  if (flags & 4) attrs.push_back({"optimization_hints", std::move(hints), {}});
  body.ops.push_back(id);
  Block entry;
  scope_.clear();
  nextName_ = 0;
  for (size_t i = 0; i < sig->inputs.size(); ++i) {
    uint32_t k = static_cast<uint32_t>(i);
    ValueId v = newValue(sig->inputs[i], id, k, true, valueName(k, true));
    entry.args.push_back(v);
    scope_.push_back(v);
  }
  ByteCursor bc(bytes, bodyAt);
  if (!readBlockOps(bc, entry, id, 0, true)) return false;
  prog_.op(id).regions.emplace_back().blocks.push_back(std::move(entry));  // moved (a Region{{...}} would copy)
  return true;
}

bool Decoder::readBlockOps(ByteCursor& c, Block& b, OpId parent, uint64_t count, bool untilEnd) {
  if (!untilEnd) b.ops.reserve(count);  // a count of ops is at most the bytes left
  for (uint64_t i = 0; untilEnd ? !c.atEnd() : i < count; ++i) {
    OpId id = kNoId;
    if (!readOp(c, parent, id)) return false;
    b.ops.push_back(id);
  }
  if (b.ops.empty() || !(prog_.op(b.ops.back()).info->traits & kTerminator))
    return fail(c.offset(), "a terminator (return, yield, continue or break) at the end of a block");
  return true;
}

bool Decoder::readResults(ByteCursor& c, const OpEncoding& e, llvm::SmallVectorImpl<TypeRef>& types) {
  if (version_ < e.resultsSince) {  // results the version does not write: made, with no value index
    // A counted op still writes its count, 0 (cuTile's print_tko at 13.1).
    uint64_t at = c.offset();
    uint64_t n = e.countResults ? c.count("a result count") : 0;
    if (!lift(c)) return false;
    if (n != 0)
      return fail(at, "no results for " + std::string(e.info->name) + " before version " + e.resultsSince.str() +
                          ", not " + std::to_string(n));
    for (const GroupDecl& g : e.info->results)
      if (g.arity == Arity::One) types.push_back(g.constraint.buildable(prog_.types));
    return true;
  }
  uint64_t at = c.offset();
  uint64_t n = e.countResults ? c.count("a result count") : e.fixedResults;
  if (!lift(c)) return false;
  if (n < e.fixedResults || (!e.variadicResults && n != e.fixedResults))
    return fail(at, std::to_string(e.fixedResults) + (e.variadicResults ? " or more" : "") + " results for " +
                        std::string(e.info->name) + ", not " + std::to_string(n));
  for (uint64_t i = 0; i < n; ++i)
    if (TypeRef t = type(c, "a result type")) types.push_back(t);
    else return false;
  return true;
}

bool Decoder::readOperand(ByteCursor& c, Operation& op) {
  uint64_t at = c.offset();
  uint64_t v = c.varint("an operand index");
  if (!lift(c)) return false;
  if (v >= scope_.size())
    return fail(at, "an operand index below " + std::to_string(scope_.size()) + ", not " + std::to_string(v));
  op.operands.push_back({scope_[v], {}});
  return true;
}

bool Decoder::readOperands(ByteCursor& c, const OpEncoding& e, uint64_t flags, Operation& op) {
  const std::vector<GroupDecl>& groups = e.info->operands;
  op.segments.assign(groups.size(), 1);
  if (e.perGroup) {
    for (size_t g = 0; g < groups.size(); ++g) {
      Arity a = groups[g].arity;
      uint64_t n = 1;
      if (a == Arity::Optional) n = e.optionalBit[g] >= 0 && (flags >> e.optionalBit[g] & 1);
      else if (a == Arity::Variadic) n = c.count("an operand count");
      if (!lift(c)) return false;
      op.segments[g] = static_cast<uint32_t>(n);
      // This group's indices follow its count.
      for (uint64_t k = 0; k < n; ++k)
        if (!readOperand(c, op)) return false;
    }
    return true;
  }
  uint64_t total = groups.size();
  if (e.countOperands) {
    uint64_t at = c.offset();
    total = c.count("an operand count");
    if (!lift(c)) return false;
    if (total < e.fixedOperands)
      return fail(at, "at least " + std::to_string(e.fixedOperands) + " operands for " + std::string(e.info->name) +
                          ", not " + std::to_string(total));
    uint64_t rest = total - e.fixedOperands;  // all in the first variable group, none in others
    for (size_t g = 0; g < groups.size(); ++g)
      if (groups[g].arity != Arity::One) op.segments[g] = static_cast<uint32_t>(rest), rest = 0;
  }
  op.operands.reserve(total);
  for (uint64_t k = 0; k < total; ++k)
    if (!readOperand(c, op)) return false;
  return true;
}

bool Decoder::readRegions(ByteCursor& c, const OpEncoding& e, OpId id) {
  if (!e.regions) return true;
  uint64_t at = c.offset();
  uint64_t n = c.varint("a region count");
  if (!lift(c)) return false;
  if (n != e.regions)
    return fail(at, std::to_string(e.regions) + " regions for " + std::string(prog_.op(id).info->name) + ", not " +
                        std::to_string(n));
  if (depth_ >= kMaxRegionDepth)
    return fail(at, "regions nested at most " + std::to_string(kMaxRegionDepth) + " deep");
  ++depth_;
  bool ok = readRegionList(c, n, id);
  --depth_;
  return ok;
}

bool Decoder::readRegionList(ByteCursor& c, uint64_t n, OpId id) {
  prog_.op(id).regions.reserve(n);
  for (uint64_t r = 0; r < n; ++r) {
    Region region;
    uint64_t blocks = c.count("a block count", 2);
    region.blocks.reserve(blocks);
    for (uint64_t k = 0; k < blocks && lift(c); ++k) {
      Block b;
      size_t mark = scope_.size();
      uint64_t args = c.count("a block argument count");
      b.args.reserve(args);
      for (uint64_t a = 0; a < args && lift(c); ++a) {
        TypeRef t = type(c, "a block argument type");
        if (!t) return false;
        ValueId v = newValue(t, id, static_cast<uint32_t>(a), true, valueName(nextName_++, false));
        b.args.push_back(v);
        scope_.push_back(v);
      }
      uint64_t ops = c.count("an op count");
      if (!lift(c) || !readBlockOps(c, b, id, ops, false)) return false;
      scope_.resize(mark);
      region.blocks.push_back(std::move(b));
    }
    if (!lift(c)) return false;
    // NVIDIA's writer gives an `if` without else an else region of no
    // blocks; the text parser's `if` then has one region.
    if (r == 1 && region.blocks.empty() && prog_.op(id).info && prog_.op(id).info->kind == OpKind::If) continue;
    prog_.op(id).regions.push_back(std::move(region));
  }
  return true;
}

// The op's attributes in wire order, less the defaults the text leaves out
// (the format's default, overflow none, all-false inbounds).
bool Decoder::readAttrs(ByteCursor& c, const OpEncoding& e, uint64_t flags, TypeRef firstResult,
                        llvm::SmallVectorImpl<NamedAttr>& attrs) {
  for (const WireAttr& w : e.attrs) {
    bool old = version_ < w.since;
    if (old ? w.dflt.empty() : w.flagBit >= 0 && !(flags >> w.flagBit & 1)) continue;
    NamedAttr& named = attrs.emplace_back();  // read in place
    named.name = w.name;                      // the encodings table outlives programs
    Attr& a = named.attr;
    if (old) {
      a.kind = AttrKind::Keyword;
      a.s = w.dflt;
    } else if (!attr(c, w, firstResult, a)) {
      return false;
    }
    if ((a.kind == AttrKind::Keyword && (a.s == w.textDefault || (w.overflow && a.s == "none"))) ||
        (w.kind == WireKind::BoolArray &&
         std::none_of(a.elems.begin(), a.elems.end(), [](const Attr& b) { return b.i != 0; })))
      attrs.pop_back();
  }
  return true;
}

bool Decoder::readOp(ByteCursor& c, OpId parent, OpId& id) {
  uint64_t at = c.offset();
  uint64_t opcode = c.varint("an opcode");
  if (!lift(c)) return false;
  if (opcode > maxOpcode_)
    return fail(at, "an opcode of version " + version_.str() + " (up to " + hex(maxOpcode_) + "), not " + hex(opcode));
  const OpEncoding* e = encodings_[opcode];
  if (!e) return fail(at, "an opcode tilesight knows, not " + hex(opcode));
  uint32_t loc = 0;
  if (!nextLocation(debug_, at, loc)) return false;
  id = newOp(*e->info, parent, loc);

  llvm::SmallVector<TypeRef, 4> resultTypes;
  if (!readResults(c, *e, resultTypes)) return false;
  TypeRef first = resultTypes.empty() ? nullptr : resultTypes[0];
  uint32_t firstName = nextName_;  // the results are named before the values of the regions
  nextName_ += static_cast<uint32_t>(resultTypes.size());
  uint64_t flags = e->hasFlags && version_ >= e->flagsSince ? c.varint("the op's flags") : 0;
  if (!lift(c)) return false;
  // Gathered here, so that the op's attribute list is allocated once, at its size.
  llvm::SmallVector<NamedAttr, 4> attrs;
  if (!readAttrs(c, *e, flags, first, attrs)) return false;
  if (e->kind == OpKind::MakeTensorView) addSizeLists(attrs, first);
  Operation& op = prog_.op(id);  // valid until readRegions adds ops
  op.attrs.assign(std::make_move_iterator(attrs.begin()), std::make_move_iterator(attrs.end()));
  if (!readOperands(c, *e, flags, op)) return false;
  if (e->kind == OpKind::LoadPtrTko) dropUnusedPadding(op);
  if (!readRegions(c, *e, id)) return false;
  bool onWire = version_ >= e->resultsSince;
  Operation& done = prog_.op(id);
  done.results.reserve(resultTypes.size());
  for (size_t i = 0; i < resultTypes.size(); ++i) {
    uint32_t k = static_cast<uint32_t>(i);
    ValueId v = newValue(resultTypes[i], id, k, false, valueName(firstName + k, false));
    done.results.push_back(v);
    if (onWire) scope_.push_back(v);
  }
  return true;
}

bool Decoder::run() {
  ByteCursor c(bytes_);
  if (!readHeader(c) || !readSections(c)) return false;
  if (!sections_[1].present) return fail(c.offset(), "a string section (id 1)");
  if (!sections_[2].present) return fail(c.offset(), "a function section (id 2)");
  if (!readTable(sections_[1], 4, 4, "string", strings_) || !readTable(sections_[5], 4, 4, "type", types_) ||
      !readTable(sections_[4], 8, 8, "constant", constants_))
    return false;
  stringValid_.assign(strings_.size(), 0);
  typeCache_.assign(types_.size(), nullptr);
  typeState_.assign(types_.size(), 0);
  Attr producer;
  if (sections_[7].present) {
    ByteCursor p = sections_[7].cursor();
    std::string_view s;
    if (!string(p, "a producer string", s)) return false;
    producer.kind = AttrKind::String;
    producer.s = std::string(s);
    oneBasedColumns_ = true;
  }
  if (!readDebugSection()) return false;

  // Room for the ops of a typical file (cuTile writes 3-4 bytes of function per op); more grow the vectors.
  size_t ops = sections_[2].data.size() / 4 + 1;
  prog_.ops.reserve(ops);
  prog_.values.reserve(ops);
  opLocs_.reserve(ops);
  OpId module = newOp(OpTable::get().info(OpKind::Module), kNoId);
  prog_.op(module).attrs.push_back({"sym_name", textAttr(AttrKind::Symbol, "@kernels"), {}});
  if (producer.kind == AttrKind::String) prog_.op(module).attrs.push_back({"producer", std::move(producer), {}});
  prog_.topLevel.push_back(module);
  Block body;
  if (!readGlobals(body, 0) || !readFunctions(body, 0)) return false;
  prog_.op(0).regions.emplace_back().blocks.push_back(std::move(body));
  out_.locations.distinct_ = std::move(locations_);
  out_.locations.slots_ = std::move(opLocs_);  // by OpId, which is pre-order
  return true;
}

std::vector<OpId> preorder(const Program& p) {
  std::vector<OpId> out, stack(p.topLevel.rbegin(), p.topLevel.rend());
  while (!stack.empty()) {
    OpId id = stack.back();
    stack.pop_back();
    out.push_back(id);
    const Operation& op = p.op(id);
    for (auto r = op.regions.rbegin(); r != op.regions.rend(); ++r)
      for (auto b = r->blocks.rbegin(); b != r->blocks.rend(); ++b) stack.insert(stack.end(), b->ops.rbegin(), b->ops.rend());
  }
  return out;
}

std::optional<size_t> opAt(const Program& p, uint32_t offset) {
  std::vector<OpId> order = preorder(p);
  std::optional<size_t> best;
  uint32_t bestSize = UINT32_MAX;
  for (size_t i = 0; i < order.size(); ++i) {
    Range r = p.op(order[i]).range;
    if (offset >= r.begin && offset < std::max(r.end, r.begin + 1) && r.end - r.begin <= bestSize) {
      best = i;
      bestSize = r.end - r.begin;
    }
  }
  return best;
}

namespace {

// [A-Za-z_][A-Za-z0-9_.]*: a Python identifier of ASCII letters (with our
// ".shape.0" suffixes) is an MLIR value name as it is.
bool plainName(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
}

// Names the parameters of the program's one entry `%NAME` (`names` by
// position; an empty or non-ASCII-identifier name keeps the number); nothing
// when it has not exactly one entry or that takes another number of parameters.
void nameParameters(Program& p, const std::vector<std::string>& names) {
  OpId entry = kNoId;
  for (OpId id = 0; id < p.ops.size(); ++id)
    if (p.ops[id].info && p.ops[id].info->kind == OpKind::Entry) {
      if (entry != kNoId) return;
      entry = id;
    }
  if (entry == kNoId || p.op(entry).regions.empty() || p.op(entry).regions[0].blocks.empty()) return;
  const std::vector<ValueId>& args = p.op(entry).regions[0].blocks[0].args;
  if (args.size() != names.size()) return;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!plainName(names[i])) continue;
    p.values[args[i]].name = *p.names.emplace_back(std::make_unique<std::string>("%" + names[i]));
  }
}

}  // namespace


Decoded readBytecode(std::string_view bytes, bool printText, const std::vector<std::string>& parameterNames) {
  Decoded out;
  Decoder d(bytes, out);
  if (!d.run()) {
    Diagnostic diag;
    diag.code = "syntax";
    diag.message = "bytecode offset " + std::to_string(d.failOffset()) + ": expected " + d.failWhat();
    out.diagnostics.push_back(std::move(diag));
    out.errorOffset = d.failOffset();
    out.program = Program();
    out.locations.clear();
    return out;
  }
  out.hasDebugInfo = std::any_of(out.locations.begin(), out.locations.end(),
                                 [](const OpLocation& l) { return l.at.known(); });
  if (!parameterNames.empty()) nameParameters(out.program, parameterNames);
  if (printText) out.text = printProgram(out.program);
  return out;
}

}  // namespace tilesight::bytecode
