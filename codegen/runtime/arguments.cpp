#include "codegen/runtime/arguments.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FormatVariadic.h>

#include "analysis/ir/ir_query.h"
#include "analysis/semantics/view_geometry.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/runtime/devices.h"
#include "codegen/runtime/element_bits.h"
#include "codegen/runtime/float_formats.h"
#include "codegen/runtime/npy.h"

namespace tilesight::runtime {

namespace {

llvm::Error problem(const std::string& message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string argName(const Program& p, ValueId v) { return std::string(llvm::StringRef(p.value(v).name).ltrim('%')); }

std::string describe(const Program& p, ValueId v) {
  return "argument %" + argName(p, v) + " (" + p.typeOf(v)->text + ")";
}

// "1024x512" -> {1024, 512}; every extent positive.
llvm::Expected<std::vector<int64_t>> parseShape(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  text.split(parts, 'x');
  std::vector<int64_t> shape;
  for (llvm::StringRef part : parts) {
    int64_t n;
    if (part.getAsInteger(10, n) || n <= 0 || n > (int64_t{1} << 40))
      return problem("'" + text.str() + "' is not a shape (positive extents separated by 'x', e.g. 1024x512)");
    shape.push_back(n);
  }
  return shape;
}

std::string normalizedDescr(std::string d) {
  if (!d.empty() && d[0] == '=') d[0] = '<';
  if (d.size() == 2) d = (d[1] == '1' ? "|" : "<") + d;  // "f4" -> "<f4", "u1" -> "|u1"
  return d;
}

// Whether a .npy file of `descr` holds elements of e: e's own dtype
// (npyDescrOf), or for an integer type the unsigned dtype of its width (the
// same bits; the op says how to read them).
bool descrHolds(const std::string& descr, Elem e) {
  std::string d = normalizedDescr(descr);
  if (d == npyDescrOf(e)) return true;
  if (!isIntElem(e) || elemBits(e) < 8) return false;
  return d == (elemBits(e) == 8 ? "|u1" : "<u" + std::to_string(elemBits(e) / 8));
}

// The element type a zeros:/rand: DTYPE names: a Tile IR name (f32) or a NumPy descr (<f4, f4).
std::optional<Elem> elemOfDtype(const std::string& dtype, Elem wanted) {
  if (std::optional<Elem> e = elemFromName(dtype)) return e;
  if (descrHolds(dtype, wanted)) return wanted;
  return std::nullopt;
}

uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Element k of a buffer set to the storage bits `bits`.
void putBits(HostBuffer& b, int64_t k, uint64_t bits) {
  runtime::writeBitsAt(b.elem, runtime::pointerTo(b.elem, b.address()) + k * runtime::pointerUnit(b.elem), bits);
}

// rand: floats uniform in [-1, 1) rounded to the format; integers uniform in
// [0, 16) (i1: 0 or 1), so that they also serve as small indices.
void fillRandom(HostBuffer& b, uint64_t seed) {
  uint64_t state = seed;
  for (int64_t k = 0; k < b.elementCount(); ++k) {
    uint64_t r = splitmix(state);
    if (isFloatElem(b.elem)) {
      double u = static_cast<double>(r >> 11) * 0x1p-53 * 2.0 - 1.0;
      putBits(b, k, runtime::encodeFloat(b.elem, u));
    } else {
      putBits(b, k, b.elem == Elem::I1 ? (r >> 63) : (r >> 60));
    }
  }
}

// The element shape of a NumPy array of `shape` holding elements of e (the
// inverse of npyShapeOf: 4-bit elements go two to a byte).
std::vector<int64_t> elementShape(std::vector<int64_t> shape, Elem e) {
  if (elemBits(e) != 4) return shape;
  if (shape.empty()) shape = {1};
  shape.back() *= 2;
  return shape;
}

// The element type a .npy descr holds when nothing else says (a list's
// arrays): every descr of npyDescrOf but |u1, which several formats share.
std::optional<Elem> elemOfDescr(const std::string& descr) {
  for (Elem e : {Elem::F64, Elem::F32, Elem::F16, Elem::BF16, Elem::TF32, Elem::I64, Elem::I32, Elem::I16, Elem::I8,
                 Elem::I1})
    if (normalizedDescr(descr) == npyDescrOf(e)) return e;
  return std::nullopt;
}

// Why a buffer of `shape` (elements of e) cannot be made: more bytes than
// the machine has (an element count past 64 bits among them). Counted in
// doubles, which do not overflow, before anything is allocated.
std::optional<std::string> tooLarge(const std::vector<int64_t>& shape, Elem e) {
  double bytes = elemBits(e) == 1 ? 1 : elemBits(e) / 8.0;
  for (int64_t d : shape) bytes *= static_cast<double>(d);
  uint64_t memory = hostMemoryBytes();
  double limit = memory ? static_cast<double>(memory) : 0x1p62;
  if (bytes <= limit) return std::nullopt;
  // Exact while a double holds the count exactly.
  std::string count = bytes < 0x1p53 ? std::to_string(static_cast<uint64_t>(bytes)) : llvm::formatv("{0:e2}", bytes).str();
  auto gib = [](double n) { return llvm::formatv("{0:f1} GiB", n / 0x1p30).str(); };
  return "needs " + count + " bytes (" + gib(bytes) + "), more than " +
         (memory ? "this machine's memory (" + gib(limit) + ")" : std::string("2^62 bytes"));
}

// zeros:SHAPE:DTYPE or rand:SHAPE:DTYPE[:SEED], of elements `pointee` (when
// the entry states them) or of DTYPE.
llvm::Expected<HostBuffer> generated(const std::string& name, std::optional<Elem> pointee, llvm::StringRef value) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  value.split(parts, ':');
  bool rand = parts[0] == "rand";
  std::string example = pointee ? std::string(elemName(*pointee)) : "f32";
  if (parts.size() < 3 || parts.size() > (rand ? 4u : 3u))
    return problem("'" + value.str() + "' is not " + (rand ? "rand:SHAPE:DTYPE[:SEED]" : "zeros:SHAPE:DTYPE") +
                   " (e.g. " + parts[0].str() + ":1024x512:" + example + ")");
  auto shape = parseShape(parts[1]);
  if (!shape) return shape.takeError();
  std::optional<Elem> e = pointee ? elemOfDtype(parts[2].str(), *pointee) : elemFromName(parts[2].str());
  if (!pointee && !e) e = elemOfDescr(parts[2].str());
  if (!e) return problem("'" + value.str() + "': '" + parts[2].str() + "' is not an element type (e.g. f32, bf16, <f4)");
  if (pointee && *e != *pointee)
    return problem("'" + value.str() + "' makes " + parts[2].str() + " elements, but the argument points to " +
                   example + " (write " + parts[0].str() + ":" + parts[1].str() + ":" + example + ")");
  HostBuffer b;
  b.name = "%" + name;
  b.elem = *e;
  b.shape = *shape;
  if (!elemFromName(parts[2].str())) {  // a NumPy dtype: SHAPE is that array's, as for an @FILE.npy
    b.npyDescr = normalizedDescr(parts[2].str());  // <u1 stays <u1
    b.shape = elementShape(b.shape, *e);
  }
  if (std::optional<std::string> size = tooLarge(b.shape, *e))
    return problem("'" + value.str() + "' " + *size + "; give a smaller shape");
  b.bytes.assign(runtime::byteSpanOf(*e, b.elementCount()), 0);
  uint64_t seed = 0;
  if (rand && parts.size() == 4 && parts[3].getAsInteger(0, seed))
    return problem("'" + parts[3].str() + "' is not a seed (an integer)");
  if (rand) fillRandom(b, seed);
  return b;
}

// @PATH.npy, of elements `pointee` (when the entry states them), else of the
// file's dtype or of the TYPE of @PATH.npy:TYPE (for raw bits: @s.npy:f8E4M3FN).
llvm::Expected<HostBuffer> fromFile(const std::string& name, std::optional<Elem> pointee, std::string path) {
  std::optional<Elem> named;
  size_t colon = path.rfind(':');
  if (!pointee && colon != std::string::npos && (named = elemFromName(path.substr(colon + 1))))
    path.resize(colon);
  auto a = readNpy(path);
  if (!a) return a.takeError();
  std::optional<Elem> e = pointee ? pointee : named ? named : elemOfDescr(a->descr);
  if (!e)
    return problem(path + " holds '" + a->descr + "' elements, the raw bits of several element types: name one, "
                   "as in @" + path + ":f8E4M3FN");
  std::string want = npyDescrOf(*e);
  if (!descrHolds(a->descr, *e))
    return problem(path + " holds '" + a->descr + "' elements, but " +
                   (pointee ? "the argument points to " : "it is named ") + std::string(elemName(*e)) +
                   ", which a .npy file holds as '" + want + "'" +
                   (isFloatElem(*e) && elemBits(*e) < 16 ? " (raw bits)" : "") + "; convert it with arr.astype('" +
                   want + "')");
  HostBuffer b;
  b.name = "%" + name;
  b.elem = *e;
  b.shape = elementShape(a->shape, *e);
  b.npyDescr = normalizedDescr(a->descr);
  b.fortranOrder = a->fortranOrder;
  b.bytes = std::move(a->data);
  return b;
}

llvm::Expected<HostBuffer> buffer(const std::string& name, std::optional<Elem> pointee, llvm::StringRef value,
                                  const std::string& what) {
  if (value.startswith("@")) return fromFile(name, pointee, value.drop_front().str());
  if (value.startswith("zeros:") || value.startswith("rand:")) return generated(name, pointee, value);
  return problem("'" + value.str() + "' is no buffer for " + what +
                 ": give @FILE.npy, zeros:SHAPE:DTYPE or rand:SHAPE:DTYPE[:SEED]");
}

// list:ITEM,ITEM,... for a ptr<i64> argument: cuTile's List[Array]. Each item
// is a buffer of its own, NAME[K]; the argument points to their descriptors,
// one row of 1 + 2 * rank words each (byte address, shape, strides in
// elements, C order), as cuTile's MakeListView reads them.
llvm::Error bindList(const std::string& name, llvm::StringRef value, const std::string& what, AddressSpace& memory,
                     ArgValue& a) {
  llvm::SmallVector<llvm::StringRef, 8> specs;
  value.drop_front(5).split(specs, ',');
  HostBuffer words;
  words.name = "%" + name;
  words.elem = Elem::I64;
  size_t rank = 0;
  for (size_t k = 0; k < specs.size(); ++k) {
    std::string itemName = name + "[" + std::to_string(k) + "]";
    auto b = buffer(itemName, std::nullopt, specs[k], what + ", item " + std::to_string(k));
    if (!b) return b.takeError();
    if (k > 0 && b->shape.size() != rank)
      return problem("'" + specs[k].str() + "' has " + std::to_string(b->shape.size()) +
                     " dimensions, but the list's first array has " + std::to_string(rank) +
                     ": the arrays of a list share one rank");
    rank = b->shape.size();
    HostBuffer& item = memory.add(std::move(*b));
    std::vector<int64_t> row{static_cast<int64_t>(item.address())};
    row.insert(row.end(), item.shape.begin(), item.shape.end());
    std::vector<int64_t> strides = semantics::rowMajorStrides(item.shape);
    row.insert(row.end(), strides.begin(), strides.end());
    for (int64_t w : row) {
      words.bytes.resize(words.bytes.size() + 8);
      std::memcpy(words.bytes.data() + words.bytes.size() - 8, &w, 8);
    }
    a.items.push_back(&item);
  }
  words.shape = {static_cast<int64_t>(specs.size()), static_cast<int64_t>(1 + 2 * rank)};
  a.buffer = &memory.add(std::move(words));
  return llvm::Error::success();
}

llvm::Expected<ArgValue> scalar(const Program& p, ValueId v, llvm::StringRef text) {
  ArgValue a;
  Elem e = p.typeOf(v)->tileElem();
  if (isFloatElem(e)) {
    std::string s = text.str();
    char* end = nullptr;
    a.f = std::strtod(s.c_str(), &end);
    if (s.empty() || *end) return problem("'" + s + "' is not a number, for " + describe(p, v));
    a.f = runtime::roundTo(e, a.f);
    return a;
  }
  int64_t n;
  uint64_t u;
  unsigned bits = elemBits(e);
  bool ok = !text.getAsInteger(0, n);
  if (!ok && !text.getAsInteger(0, u)) ok = true, n = static_cast<int64_t>(u);
  bool fits = bits >= 64 || (n >= -(int64_t{1} << (bits - 1)) && n < (int64_t{1} << bits));
  if (!ok || !fits)
    return problem("'" + text.str() + "' is not " + (ok ? "in the range of " : "an integer, for ") + describe(p, v));
  a.i = runtime::wrapInt(bits, n);
  return a;
}

}  // namespace

std::vector<const Operation*> entriesOf(const Program& p) {
  std::vector<const Operation*> out;
  for (const Operation& op : p.ops)
    if (is(op, OpKind::Entry)) out.push_back(&op);
  return out;
}

llvm::Expected<const Operation*> selectEntry(const Program& p, const std::string& name) {
  std::vector<const Operation*> entries = entriesOf(p);
  std::string names;
  for (const Operation* e : entries) names += (names.empty() ? "" : ", ") + attrs::symName(*e)->s;
  std::string wanted = name.empty() || name[0] == '@' ? name : "@" + name;
  if (entries.empty()) return problem("the file has no entry");
  if (wanted.empty()) {
    if (entries.size() == 1) return entries[0];
    return problem("the file has " + std::to_string(entries.size()) + " entries (" + names + "); pick one with --entry");
  }
  for (const Operation* e : entries)
    if (attrs::symName(*e)->s == wanted) return e;
  return problem("no entry " + wanted + " (the file has " + names + ")");
}

std::vector<int64_t> npyShapeOf(const HostBuffer& b) {
  std::vector<int64_t> shape = b.shape;
  if (elemBits(b.elem) == 4 && !shape.empty()) shape.back() /= 2;
  return shape;
}

std::vector<std::pair<std::string, HostBuffer*>> dataBuffers(const std::vector<ArgValue>& args) {
  std::vector<std::pair<std::string, HostBuffer*>> out;
  for (const ArgValue& a : args) {
    if (a.items.empty() && a.buffer) out.emplace_back(a.name, a.buffer);
    for (size_t k = 0; k < a.items.size(); ++k) out.emplace_back(a.name + "[" + std::to_string(k) + "]", a.items[k]);
  }
  return out;
}

std::string npyDescrOf(Elem e) {
  switch (e) {
    case Elem::F64: return "<f8";
    case Elem::F32: return "<f4";
    case Elem::F16: return "<f2";
    case Elem::BF16: return "<u2";
    case Elem::TF32: return "<u4";
    case Elem::I64: return "<i8";
    case Elem::I32: return "<i4";
    case Elem::I16: return "<i2";
    case Elem::I8: return "|i1";
    case Elem::I1: return "|b1";
    default: return "|u1";  // f8 formats (one per byte), f4E2M1FN and i4 (two per byte)
  }
}

llvm::Expected<std::vector<ArgValue>> bindArguments(const Program& p, const Operation& entry,
                                                    const std::vector<std::string>& specs, AddressSpace& memory) {
  const std::vector<ValueId>& params = entry.regions[0].blocks[0].args;
  std::vector<std::optional<std::string>> given(params.size());
  std::vector<std::string> givenBy(params.size());  // the --arg that gave it
  for (const std::string& spec : specs) {
    auto [key, value] = llvm::StringRef(spec).split('=');
    key = key.ltrim('%');
    size_t at = params.size();
    for (size_t i = 0; i < params.size(); ++i)
      if (argName(p, params[i]) == key || key == std::to_string(i)) at = i;
    if (at == params.size())
      return problem("--arg " + spec + ": the entry has no argument '" + key.str() + "' (its arguments: " +
                     [&] {
                       std::string s;
                       for (ValueId v : params) s += (s.empty() ? "%" : ", %") + argName(p, v);
                       return s.empty() ? std::string("none") : s;
                     }() + ")");
    if (spec.find('=') == std::string::npos || value.empty()) return problem("--arg wants NAME=VALUE, not '" + spec + "'");
    if (given[at])
      return problem("--arg " + spec + ": argument %" + argName(p, params[at]) + " is given twice (also --arg " +
                     givenBy[at] + "); give each argument once");
    given[at] = value.str(), givenBy[at] = spec;
  }
  std::vector<ArgValue> out;
  for (size_t i = 0; i < params.size(); ++i) {
    ValueId v = params[i];
    TypeRef t = p.typeOf(v);
    if (!t->isScalarTile())
      return problem(describe(p, v) + " is not a scalar tile: `run` binds numbers to scalar tiles and buffers to "
                     "pointer tiles only");
    if (!given[i]) {
      std::string what = t->isPtrTile() ? "a pointer to " + std::string(elemName(t->element->elem)) +
                                              ": give --arg " + argName(p, v) + "=@FILE.npy, zeros:SHAPE:" +
                                              std::string(elemName(t->element->elem)) + " or rand:SHAPE:" +
                                              std::string(elemName(t->element->elem))
                                        : "a scalar: give --arg " + argName(p, v) + "=NUMBER";
      return problem("no value for " + describe(p, v) + ", " + what);
    }
    llvm::StringRef value = *given[i];
    if (!t->isPtrTile()) {
      auto a = scalar(p, v, value);
      if (!a) return a.takeError();
      a->type = t, a->name = argName(p, v), a->source = value.str();
      out.push_back(std::move(*a));
      continue;
    }
    Elem pointee = t->element->elem;
    ArgValue a;
    a.type = t, a.name = argName(p, v), a.source = value.str();
    if (value.startswith("list:")) {
      if (pointee != Elem::I64)
        return problem("'" + value.str() + "' is a list of arrays, which cuTile passes as a pointer to i64 words, but " +
                       describe(p, v) + " points to " + std::string(elemName(pointee)));
      if (llvm::Error e = bindList(a.name, value, describe(p, v), memory, a)) return e;
    } else {
      auto b = buffer(a.name, pointee, value, describe(p, v));
      if (!b) return b.takeError();
      a.buffer = &memory.add(std::move(*b));
    }
    out.push_back(std::move(a));
  }
  return out;
}

namespace {

// The entry argument `v` is (through assume), or nullptr.
const ArgValue* argumentOf(const Program& p, const Operation& entry, const std::vector<ArgValue>& args, ValueId v) {
  while (const Operation* d = definingOp(p, v)) {
    if (!is(*d, OpKind::Assume)) return nullptr;
    v = d->operands[0].value;
  }
  const std::vector<ValueId>& params = entry.regions[0].blocks[0].args;
  for (size_t i = 0; i < params.size() && i < args.size(); ++i)
    if (params[i] == v) return &args[i];
  return nullptr;
}

bool insideOf(const Program& p, const Operation& op, OpId ancestor) {
  for (OpId o = op.parent; o != kNoId; o = p.op(o).parent)
    if (o == ancestor) return true;
  return false;
}

}  // namespace

llvm::Error checkViewsFit(const Program& p, const Operation& entry, const std::vector<ArgValue>& args) {
  OpId entryId = static_cast<OpId>(&entry - p.ops.data());
  for (const Operation& op : p.ops) {
    if (!is(op, OpKind::MakeTensorView) || !insideOf(p, op, entryId)) continue;
    const ArgValue* base = argumentOf(p, entry, args, operands::base(op));
    if (!base || !base->buffer) continue;
    // Each size and stride: written, or a scalar argument's value.
    auto values = [&](const Attr* written, llvm::ArrayRef<Operand> dynamic) -> std::optional<std::vector<int64_t>> {
      std::vector<int64_t> out;
      size_t next = 0;
      for (const Attr& e : written->elems) {
        if (e.kind == AttrKind::Int) { out.push_back(e.i); continue; }
        const ArgValue* a = next < dynamic.size() ? argumentOf(p, entry, args, dynamic[next++].value) : nullptr;
        if (!a || a->buffer) return std::nullopt;
        out.push_back(a->i);
      }
      return out;
    };
    MakeTensorViewOp mtv(op);
    auto shape = values(mtv.staticShape(), mtv.dynamicShape());
    auto strides = values(mtv.staticStrides(), mtv.dynamicStrides());
    if (!shape || !strides || shape->size() != strides->size()) continue;
    bool empty = std::any_of(shape->begin(), shape->end(), [](int64_t d) { return d <= 0; });
    int64_t last = semantics::lastElement(*shape, *strides);  // the farthest element the view reaches
    int64_t have = base->buffer->elementCount();
    if (!empty && last >= have)
      return problem("argument %" + base->name + " (" + base->source + ") holds " + std::to_string(have) + " " +
                     std::string(elemName(base->buffer->elem)) + " elements, but the tensor_view made over it (" +
                     p.typeOf(op.results[0])->text + ") reaches element " + std::to_string(last) +
                     ": give a buffer of at least " + std::to_string(last + 1) + " elements");
  }
  return llvm::Error::success();
}

}  // namespace tilesight::runtime
