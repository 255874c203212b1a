// Program in, bytecode 13.3 out (bytecode_format.md §1, §4): the header, the
// sections in cuTile's order, globals, entry functions and their ops,
// interpreted from the encodings table (encodings.def) as the reader does.
#include "analysis/bytecode/writer.h"

#include <algorithm>

#include "analysis/bytecode/byte_cursor.h"
#include "analysis/bytecode/encoder.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/op_table.h"

namespace tilesight::bytecode {

namespace {

constexpr std::string_view kMagic("\x7fTileIR\0", 8);
constexpr unsigned kMaxErrors = 5;

enum SectionId : uint8_t { kEnd = 0, kString = 1, kFunc = 2, kDebug = 3, kConstant = 4, kType = 5, kGlobal = 6, kProducer = 7 };

// id (bit 7: aligned), length, [alignment, 0xCB padding to the file offset], payload (§1.3)
void putSection(std::string& out, uint8_t id, const std::string& payload, unsigned alignment) {
  out += static_cast<char>(id | (alignment > 1 ? 0x80 : 0));
  putVarint(out, payload.size());
  if (alignment > 1) {
    putVarint(out, alignment);
    padTo(out, alignment);
  }
  out += payload;
}

// The terminator a block of `owner` ends with when the text leaves it implicit.
OpKind implicitTerminator(const Operation& owner) {
  switch (owner.info ? owner.info->kind : OpKind::Entry) {
    case OpKind::For:
    case OpKind::Loop: return OpKind::Continue;
    case OpKind::If:
    case OpKind::Reduce:
    case OpKind::Scan: return OpKind::Yield;
    default: return OpKind::Return;
  }
}

std::string opName(const Operation* op) { return op ? "'" + std::string(op->name) + "'" : "the module"; }

}  // namespace

void putVarint(std::string& b, uint64_t v) {
  do {
    uint8_t byte = v & 0x7F;
    v >>= 7;
    b += static_cast<char>(byte | (v ? 0x80 : 0));
  } while (v);
}

void putSvarint(std::string& b, int64_t v) {
  putVarint(b, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
}

void putFixed(std::string& b, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) b += static_cast<char>((v >> (8 * i)) & 0xFF);
}

void putI32s(std::string& b, const std::vector<int64_t>& v) {
  putVarint(b, v.size());
  for (int64_t x : v) putFixed(b, static_cast<uint64_t>(x), 4);
}

void putI64s(std::string& b, const std::vector<int64_t>& v) {
  putVarint(b, v.size());
  for (int64_t x : v) putFixed(b, static_cast<uint64_t>(x), 8);
}

void padTo(std::string& b, unsigned alignment, size_t base) {
  while ((b.size() + base) % alignment) b += '\xCB';
}

uint64_t ItemTable::add(std::string item) {
  auto [it, fresh] = index.try_emplace(item, items.size());
  if (fresh) items.push_back(std::move(item));
  return it->second;
}

std::string ItemTable::payload(unsigned width) const {
  std::string b;
  putVarint(b, items.size());
  padTo(b, width);  // cuTile pads after a zero count too
  uint64_t offset = 0;
  for (const std::string& s : items) {
    putFixed(b, offset, width);
    offset += s.size();
  }
  for (const std::string& s : items) b += s;
  return b;
}

bool Encoder::refuse(const Operation* op, std::string what) {
  if (errors.size() < kMaxErrors) errors.push_back(opName(op) + ": " + std::move(what));
  return false;
}

uint64_t Encoder::constant(std::string data) {
  std::string item;
  putVarint(item, data.size());
  return constants_.add(item + data);
}

// The tables of `like` in its order, and its debug section (see WriteOptions).
bool Encoder::seedFrom(std::string_view like) {
  ByteCursor c(like);
  if (c.bytes(8, "the magic") != kMagic) return refuse(nullptr, "the original file is not Tile IR bytecode");
  c.fixed(4, "the version");
  std::string_view payload[8];
  for (uint8_t head = c.u8("a section id"); c.ok() && (head & 0x7F) != kEnd; head = c.u8("a section id")) {
    uint64_t length = c.varint("a section length");
    if (head & 0x80) c.align(static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>(c.varint("an alignment"), 4096))), "padding");
    std::string_view data = c.bytes(length, "a section");
    if ((head & 0x7F) < 8) payload[head & 0x7F] = data;
  }
  if (!c.ok()) return refuse(nullptr, "the original file does not read: " + c.expected());
  auto seed = [&](std::string_view data, unsigned width, ItemTable& t) {
    ByteCursor s(data);
    uint64_t n = s.count("a count", width);
    if (!n) return;
    s.align(width, "padding");
    std::vector<uint64_t> starts;
    for (uint64_t i = 0; i < n && s.ok(); ++i) starts.push_back(s.fixed(width, "an offset"));
    std::string_view blob = data.substr(std::min(s.pos(), data.size()));
    for (uint64_t i = 0; i < starts.size() && s.ok(); ++i) {
      uint64_t end = i + 1 < starts.size() ? starts[i + 1] : blob.size();
      if (starts[i] > end || end > blob.size()) return;
      t.add(std::string(blob.substr(starts[i], end - starts[i])));
    }
  };
  seed(payload[kString], 4, strings_);
  seed(payload[kType], 4, types_);
  seed(payload[kConstant], 8, constants_);
  debug_ = std::string(payload[kDebug]);
  return true;
}

void Encoder::define(ValueId v) {
  valueIndex_[v] = static_cast<uint32_t>(scope_.size());
  scope_.push_back(v);
}

uint64_t Encoder::flagsOf(const OpEncoding& e, const Operation& op) {
  uint64_t flags = 0;
  for (const WireAttr& w : e.attrs)
    if (w.flagBit >= 0 && op.attr(w.name)) flags |= uint64_t(1) << w.flagBit;
  for (size_t g = 0; g < e.optionalBit.size() && g < op.segments.size(); ++g)
    if (e.optionalBit[g] >= 0 && op.segments[g]) flags |= uint64_t(1) << e.optionalBit[g];
  return flags;
}

bool Encoder::operands(std::string& b, const OpEncoding& e, const Operation& op) {
  const OpInfo& info = *op.info;
  auto index = [&](const Operand& o) {
    if (o.value >= valueIndex_.size() || valueIndex_[o.value] == kNoId)
      return refuse(&op, "an operand is not defined before it in its function");
    putVarint(b, valueIndex_[o.value]);
    return true;
  };
  if (op.segments.size() != info.operands.size())
    return refuse(&op, "its operand groups are not known (" + std::to_string(op.segments.size()) + " of " +
                           std::to_string(info.operands.size()) + ")");
  if (!e.perGroup) {
    if (e.countOperands) putVarint(b, op.operands.size());
    for (const Operand& o : op.operands)
      if (!index(o)) return false;
    return true;
  }
  size_t at = 0;
  for (size_t g = 0; g < info.operands.size(); ++g) {
    if (info.operands[g].arity == Arity::Variadic) putVarint(b, op.segments[g]);
    for (uint32_t k = 0; k < op.segments[g]; ++k)
      if (at >= op.operands.size() || !index(op.operands[at++])) return false;
  }
  return true;
}

bool Encoder::op(std::string& b, const Operation& op) {
  const OpEncoding* e = op.info && !op.generic ? encodingOfKind(op.info->kind) : nullptr;
  if (!e) return refuse(&op, "bytecode has no encoding for this op (only Tile IR ops in their custom form are written)");
  if (e->opcode > maxOpcode(kWriteVersion)) return refuse(&op, "this op needs bytecode 13.4; 13.3 is written");
  const OpInfo& info = *op.info;
  putVarint(b, e->opcode);
  TypeRef first = nullptr;
  if (e->countResults) putVarint(b, op.results.size());
  for (ValueId v : op.results) {
    TypeRef t = prog_.typeOf(v);
    if (!first) first = t;
    uint64_t ti = type(t, &op);
    if (ti == ~uint64_t(0)) return false;
    putVarint(b, ti);
  }
  uint64_t flags = flagsOf(*e, op);
  bool flagsOnWire = e->hasFlags && kWriteVersion >= e->flagsSince;
  if (flagsOnWire) putVarint(b, flags);
  std::vector<std::string_view> written;
  for (const WireAttr& w : e->attrs) {
    const Attr* a = op.attr(w.name);
    written.push_back(w.name);
    bool onWire = kWriteVersion >= w.since && (w.flagBit < 0 || flagsOnWire);
    if (!onWire) {
      if (a) return refuse(&op, "'" + w.name + "' needs bytecode " + std::max(w.since, e->flagsSince).str() +
                                    "; 13.3 is written (drop it to write this program)");
      continue;
    }
    if (w.flagBit >= 0 && (!a || w.kind == WireKind::Unit)) continue;
    Attr dflt;
    if (!a) {  // a keyword the text leaves out: its default
      std::string_view d = info.attrDefault(w.name);
      if (d.empty() && w.set == "ovf") d = "none";
      if (d.empty() && !w.dflt.empty()) d = w.dflt;
      if (d.empty()) return refuse(&op, "it has no '" + w.name + "' attribute");
      dflt.kind = AttrKind::Keyword;
      dflt.s = std::string(d);
      a = &dflt;
    }
    if (!attr(b, w, *a, first, op)) return false;
  }
  // make_tensor_view's sizes are in its result type on the wire.
  if (info.kind == OpKind::MakeTensorView) written.insert(written.end(), {"static_shape", "static_strides"});
  for (const NamedAttr& a : op.attrs)
    if (std::find(written.begin(), written.end(), a.name) == written.end())
      return refuse(&op, "bytecode has no place for its attribute '" + std::string(a.name) + "'");
  if (!operands(b, *e, op)) return false;
  if (!e->regions) return true;
  putVarint(b, e->regions);
  for (unsigned r = 0; r < e->regions; ++r) {
    if (r >= op.regions.size()) {  // an `if` without else: a region of no blocks
      putVarint(b, 0);
      continue;
    }
    putVarint(b, op.regions[r].blocks.size());
    for (const Block& blk : op.regions[r].blocks)
      if (!block(b, blk, op, true)) return false;
  }
  return true;
}

// Block arguments, then the ops (`counted`: an op count first), with the
// terminator the text may leave implicit; values defined inside end with it.
bool Encoder::block(std::string& b, const Block& blk, const Operation& owner, bool counted) {
  size_t mark = scope_.size();
  if (counted) {
    putVarint(b, blk.args.size());
    for (ValueId v : blk.args) {
      uint64_t ti = type(prog_.typeOf(v), &owner);
      if (ti == ~uint64_t(0)) return false;
      putVarint(b, ti);
    }
  }
  for (ValueId v : blk.args) define(v);
  bool terminated = !blk.ops.empty() && prog_.op(blk.ops.back()).info &&
                    (prog_.op(blk.ops.back()).info->traits & kTerminator);
  if (counted) putVarint(b, blk.ops.size() + !terminated);
  for (OpId id : blk.ops) {
    const Operation& o = prog_.op(id);
    if (!op(b, o)) return false;
    for (ValueId v : o.results) define(v);
  }
  if (!terminated) {
    const OpEncoding& e = *encodingOfKind(implicitTerminator(owner));
    putVarint(b, e.opcode);
    if (e.countResults) putVarint(b, 0);
    if (e.countOperands) putVarint(b, 0);
  }
  for (size_t i = mark; i < scope_.size(); ++i) valueIndex_[scope_[i]] = kNoId;
  scope_.resize(mark);
  return true;
}

bool Encoder::function(std::string& b, const Operation& f, size_t ordinal) {
  const Attr* name = attrs::symName(f);
  const Attr* sig = attrs::functionType(f);
  if (!name || name->s.size() < 2 || !sig || !sig->type || f.regions.size() != 1 || f.regions[0].blocks.size() != 1)
    return refuse(&f, "an entry needs a name, a signature and one block");
  if (!sig->type->results.empty()) return refuse(&f, "an entry returns nothing in bytecode");
  const Attr* hints = attrs::optimizationHints(f);
  for (const NamedAttr& a : f.attrs)
    if (a.name != "sym_name" && a.name != "function_type" && a.name != "optimization_hints")
      return refuse(&f, "bytecode has no place for its attribute '" + std::string(a.name) + "'");
  // Strings in cuTile's order: the name, then the signature's types, the hints, the body.
  putVarint(b, string(std::string_view(name->s).substr(1)));
  uint64_t ti = type(sig->type, &f);
  if (ti == ~uint64_t(0)) return false;
  putVarint(b, ti);
  b += static_cast<char>(0x02 | (hints ? 0x04 : 0));  // an entry, with hints
  putVarint(b, ordinal < debugIndices_.size() ? debugIndices_[ordinal] : 0);
  if (hints) {
    putVarint(b, 11);  // OptimizationHints
    if (!dictionary(b, *hints, &f)) return false;
  }
  valueIndex_.assign(prog_.values.size(), kNoId);
  scope_.clear();
  std::string body;
  if (!block(body, f.regions[0].blocks[0], f, false)) return false;
  putVarint(b, body.size());
  b += body;
  return true;
}

bool Encoder::global(std::string& b, const Operation& g) {
  const Attr* name = attrs::symName(g);
  const Attr* value = attrs::value(g);
  const Attr* ty = attrs::type(g);
  if (!name || name->s.size() < 2 || !value || !ty || !ty->type || !ty->type->isTile())
    return refuse(&g, "a global needs a name, a value and a tile type");
  for (const NamedAttr& a : g.attrs)
    if (a.name != "sym_name" && a.name != "value" && a.name != "type" && a.name != "alignment" &&
        a.name != "symbol_visibility" && a.name != "constant")
      return refuse(&g, "bytecode has no place for its attribute '" + std::string(a.name) + "'");
  putVarint(b, string(std::string_view(name->s).substr(1)));
  uint64_t ti = type(ty->type, &g);
  std::string data;
  if (ti == ~uint64_t(0) || !denseData(*value, ty->type, &g, data)) return false;
  putVarint(b, ti);
  putVarint(b, constant(std::move(data)));
  const Attr* alignment = attrs::alignment(g);
  putVarint(b, alignment ? static_cast<uint64_t>(alignment->i) : 0);
  const Attr* visibility = attrs::symbolVisibility(g);
  putVarint(b, visibility && visibility->s == "private");
  putVarint(b, attrs::constant(g) != nullptr);
  return true;
}

// NVIDIA's tools print (and their tests write) a `module { ... }` of MLIR's
// builtin dialect around the cuda_tile.module; without attributes it says
// nothing the bytecode loses, and its one cuda_tile.module is what is written.
const Operation* Encoder::wrapped(const Operation& top) const {
  if (top.info || (top.name != "module" && top.name != "builtin.module") || top.regions.size() != 1 || top.regions[0].blocks.size() != 1 || top.regions[0].blocks[0].ops.size() != 1)
    return nullptr;
  const Operation& m = prog_.op(top.regions[0].blocks[0].ops[0]);
  return m.info && m.info->kind == OpKind::Module ? &m : nullptr;
}

bool Encoder::module(const Operation& m) {
  if (!m.info || m.info->kind != OpKind::Module)
    return refuse(&m, "bytecode holds one 'cuda_tile.module' (of entries and globals)");
  for (const NamedAttr& a : m.attrs)
    if (a.name == "producer" && a.attr.kind == AttrKind::String) producer_ = a.attr.s;
    else if (a.name != "sym_name") return refuse(&m, "bytecode has no place for its attribute '" + std::string(a.name) + "'");
  if (m.regions.empty() || m.regions[0].blocks.empty()) return true;
  for (OpId id : m.regions[0].blocks[0].ops) {
    const Operation& o = prog_.op(id);
    OpKind k = o.info && !o.generic ? o.info->kind : OpKind::TestingFunc;
    if (k == OpKind::Global) {
      if (!global(globals_, o)) return false;
      ++globalCount_;
    } else if (k == OpKind::Entry) {
      if (!function(functions_, o, functionCount_++)) return false;
    } else {
      return refuse(&o, "a module in bytecode holds only entries and globals");
    }
  }
  return true;
}

// cuTile's order (bytecode_format.md §1.3): functions, globals (when any),
// constants, debug info (when kept), types, the producer (when the module
// names one), strings, the end.
std::string Encoder::sections() {
  std::string out(kMagic);
  out += static_cast<char>(kWriteVersion.major);
  out += static_cast<char>(kWriteVersion.minor);
  putFixed(out, 0, 2);
  std::string funcs;
  putVarint(funcs, functionCount_);
  putSection(out, kFunc, funcs + functions_, 8);
  if (globalCount_) {
    std::string g;
    putVarint(g, globalCount_);
    putSection(out, kGlobal, g + globals_, 1);
  }
  putSection(out, kConstant, constants_.payload(8), 8);
  if (!debug_.empty()) putSection(out, kDebug, debug_, 8);
  putSection(out, kType, types_.payload(4), 4);
  if (!producer_.empty()) {
    std::string p;
    putVarint(p, string(producer_));
    putSection(out, kProducer, p, 1);
  }
  putSection(out, kString, strings_.payload(4), 4);
  out += static_cast<char>(kEnd);
  return out;
}

bool Encoder::run(std::string& out) {
  if (!options_.like.empty() && !seedFrom(options_.like)) return false;
  // cuTile's type table starts with i1 and i32 (types 0 and 1).
  types_.add(std::string(1, '\x00'));
  types_.add(std::string(1, '\x03'));
  if (prog_.topLevel.size() != 1) return refuse(nullptr, "bytecode holds one 'cuda_tile.module', not " +
                                                             std::to_string(prog_.topLevel.size()) + " top-level ops");
  if (!debug_.empty()) {
    ByteCursor d(debug_);
    uint64_t n = d.count("a count", 4);
    for (uint64_t i = 1; i <= n; ++i) debugIndices_.push_back(i);  // cuTile: function k has debug index k
  }
  const Operation* top = &prog_.op(prog_.topLevel[0]);
  if (const Operation* inner = wrapped(*top)) {
    if (!top->attrs.empty())
      return refuse(top, "bytecode has no place for the attribute '" + std::string(top->attrs[0].name) +
                             "' of the builtin module around the cuda_tile.module");
    top = inner;
  }
  if (!module(*top)) return false;
  out = sections();
  return true;
}

Written writeBytecode(const Program& p, const WriteOptions& options) {
  Written w;
  Encoder e(p, options);
  if (!e.run(w.bytes)) w.bytes.clear();
  w.errors = std::move(e.errors);
  if (!w.errors.empty()) w.bytes.clear();
  return w;
}

}  // namespace tilesight::bytecode
