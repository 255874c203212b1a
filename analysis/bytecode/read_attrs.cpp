// Op attributes (bytecode_format.md §3): inline forms by wire kind, tagged
// attributes, dense constant data. Each becomes the Attr the text parser
// makes of the same attribute's text (syntax/parse_attrs.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "analysis/bytecode/decoder.h"

namespace tilesight::bytecode {

namespace {

constexpr unsigned kMaxAttrDepth = 32;

// IEEE-like formats: exponent and mantissa widths; `finite`: no infinities
// (the FN formats: all-ones exponent and mantissa is NaN); `unsignedE8`: E8M0.
struct FloatFormat {
  unsigned exp, man;
  bool finite = false;
};

double decodeMinifloat(uint64_t bits, FloatFormat f) {
  unsigned total = 1 + f.exp + f.man;
  bool neg = (bits >> (total - 1)) & 1;
  uint64_t e = (bits >> f.man) & ((1u << f.exp) - 1);
  uint64_t m = bits & ((uint64_t(1) << f.man) - 1);
  int bias = (1 << (f.exp - 1)) - 1;
  uint64_t eMax = (1u << f.exp) - 1;
  double v;
  if (!f.finite && e == eMax) v = m ? NAN : HUGE_VAL;
  else if (f.finite && e == eMax && m == (uint64_t(1) << f.man) - 1) v = NAN;
  else if (e == 0) v = std::ldexp(static_cast<double>(m), 1 - bias - static_cast<int>(f.man));
  else v = std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -static_cast<int>(f.man)), static_cast<int>(e) - bias);
  return neg ? -v : v;
}

double decodeFloat(Elem e, uint64_t bits) {
  switch (e) {
    case Elem::F64: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    case Elem::F32: {
      uint32_t b = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &b, 4);
      return f;
    }
    case Elem::F16: return decodeMinifloat(bits, {5, 10});
    case Elem::BF16: return decodeMinifloat(bits, {8, 7});
    case Elem::TF32: return decodeMinifloat(bits, {8, 10});
    case Elem::F8E4M3FN: return decodeMinifloat(bits, {4, 3, true});
    case Elem::F8E5M2: return decodeMinifloat(bits, {5, 2});
    case Elem::F4E2M1FN: {  // no NaN, no infinity
      double v = decodeMinifloat(bits & 0x7, {2, 1, true});
      if (std::isnan(v)) v = 6.0;
      v = std::fabs(v);
      return (bits & 0x8) ? -v : v;
    }
    case Elem::F8E8M0FNU: return (bits & 0xFF) == 0xFF ? NAN : std::ldexp(1.0, static_cast<int>(bits & 0xFF) - 127);
    default: return 0;
  }
}

int64_t signExtend(uint64_t v, unsigned bits) {
  if (bits >= 64 || bits == 0) return static_cast<int64_t>(v);
  uint64_t m = uint64_t(1) << (bits - 1);
  v &= (m << 1) - 1;
  return static_cast<int64_t>((v ^ m) - m);
}

// Bytes per element in dense data: whole bytes (tf32 takes 3).
unsigned storageBytes(Elem e) {
  if (e == Elem::TF32) return 3;
  return (elemBits(e) + 7) / 8;
}

// Strings in the text keep their escapes: the parser stores what is between the quotes.
std::string escaped(std::string_view s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\', out += static_cast<char>(ch);
    else if (ch == '\n') out += "\\n";
    else if (ch == '\t') out += "\\t";
    else if (ch < 0x20 || ch == 0x7F) out += '\\', out += kHex[ch >> 4], out += kHex[ch & 15];
    else out += static_cast<char>(ch);
  }
  return out;
}

void setInt(Attr& a, int64_t v, TypeRef t = nullptr) {
  a.kind = AttrKind::Int;
  a.i = v;
  a.f = static_cast<double>(v);
  a.type = t;
}

Attr intAttr(int64_t v, TypeRef t = nullptr) {
  Attr a;
  setInt(a, v, t);
  return a;
}

// A new entry `key` of dictionary `d`, unit until set: made in place.
Attr& entry(Attr& d, const char* key) {
  AttrEntry& e = d.dict.emplace_back();
  e.key = key;
  return e.value;
}

// An f64's bit pattern, zigzagged. cuTile zigzags the pattern as an unbounded
// non-negative number (bytecode_format.md §3.3): a negative f64 (bit 63 set)
// becomes an even 65-bit number, 10 bytes whose last one holds bits 63 and 64.
// NVIDIA's reader drops bit 64 (and reads -inf as NaN); the sign is what cuTile
// meant, so bit 64 is taken as bit 63 of the pattern. 64-bit numbers are
// zigzagged int64s, as NVIDIA writes them.
uint64_t f64Bits(ByteCursor& c) {
  uint64_t start = c.offset(), low = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    if (c.atEnd()) return c.failAt(start, "a float value (a varint), but the data ends"), 0;
    uint8_t b = c.u8("a float value");
    uint64_t bits = b & 0x7F;
    if (shift == 63) {
      if (bits > 3 || (b & 0x80)) break;
      low |= (bits & 1) << 63;
      if (!(bits & 2)) return (low >> 1) ^ (~(low & 1) + 1);  // 64 bits: NVIDIA's zigzag
      if (low & 1) break;                                      // 65 bits: only even, as cuTile writes
      return (low >> 1) | (uint64_t(1) << 63);
    }
    low |= bits << shift;
    if (!(b & 0x80)) return (low >> 1) ^ (~(low & 1) + 1);
  }
  c.failAt(start, "a float value (a varint of at most 64 bits, or 65 as cuTile writes a negative f64)");
  return 0;
}

}  // namespace

bool Decoder::attr(ByteCursor& c, const WireAttr& w, TypeRef firstResult, Attr& out) {
  uint64_t at = c.offset();
  switch (w.kind) {
    case WireKind::Unit: out.kind = AttrKind::Unit; return true;
    case WireKind::Enum: {
      uint64_t v = c.varint(w.name);
      if (!lift(c)) return false;
      const auto& words = *w.words;
      if (v >= words.size())
        return fail(at, w.name + " 0-" + std::to_string(words.size() - 1) + ", not " + std::to_string(v));
      out.kind = AttrKind::Keyword;
      out.s = words[v];
      return true;
    }
    case WireKind::Bool:
      out.kind = AttrKind::Bool;
      out.i = c.u8(w.name) != 0;
      return lift(c);
    case WireKind::Int:
      setInt(out, static_cast<int64_t>(c.varint(w.name)));
      return lift(c);
    case WireKind::Str: {
      std::string_view s;
      if (!string(c, w.name, s)) return false;
      out.kind = AttrKind::String;
      out.s = escaped(s);
      return true;
    }
    case WireKind::Sym: {
      std::string_view s;
      if (!string(c, w.name, s)) return false;
      if (s.empty()) return fail(at, "a non-empty symbol name for " + w.name);
      out.kind = AttrKind::Symbol;
      out.s = "@" + std::string(s);
      return true;
    }
    case WireKind::I32Array: {
      uint64_t n = c.count(w.name, 4);
      out.kind = AttrKind::DenseArray;
      for (uint64_t i = 0; i < n && c.ok(); ++i) {
        uint64_t eAt = c.offset();
        int32_t v = static_cast<int32_t>(c.u32(w.name));
        if (c.ok() && (v == INT32_MIN || v == INT32_MAX))
          return fail(eAt, "an element of " + w.name + " other than " + std::to_string(v));
        out.elems.push_back(intAttr(v));
      }
      out.i = static_cast<int64_t>(out.elems.size());
      return lift(c);
    }
    case WireKind::BoolArray: {
      uint64_t n = c.count(w.name, 1);
      out.kind = AttrKind::Array;
      for (uint64_t i = 0; i < n && c.ok(); ++i) {
        Attr b;
        b.kind = AttrKind::Bool;
        b.i = c.u8(w.name) != 0;
        out.elems.push_back(b);
      }
      return lift(c);
    }
    case WireKind::Const:
      if (!firstResult || !firstResult->isTile()) return fail(at, "a tile result type for a constant");
      return constant(c, firstResult, out);
    case WireKind::Tagged: return tagged(c, out);
    case WireKind::TaggedArray: {
      uint64_t n = c.count(w.name, 1);
      out.kind = AttrKind::Array;
      for (uint64_t i = 0; i < n && lift(c); ++i) {
        Attr e;
        if (!tagged(c, e, 1)) return false;
        out.elems.push_back(std::move(e));
      }
      return lift(c);
    }
    case WireKind::Hints: return dictionary(c, out, 1);
  }
  return false;
}

bool Decoder::dictionary(ByteCursor& c, Attr& out, unsigned depth) {
  uint64_t n = c.count("a dictionary's entry count", 2);
  out.kind = AttrKind::Dict;
  out.dict.reserve(n);
  for (uint64_t i = 0; i < n && lift(c); ++i) {
    uint64_t at = c.offset();
    std::string_view key;
    if (!string(c, "a dictionary key", key)) return false;
    if (key.empty()) return fail(at, "a non-empty dictionary key (entry " + std::to_string(i) + ")");
    if (out.get(key)) return fail(at, "dictionary keys once each, not '" + std::string(key) + "' twice");
    Attr v;
    if (!tagged(c, v, depth + 1)) return false;
    out.dict.push_back({std::string(key), std::move(v)});
  }
  return lift(c);
}

bool Decoder::tagged(ByteCursor& c, Attr& out, unsigned depth) {
  uint64_t at = c.offset();
  if (depth > kMaxAttrDepth) return fail(at, "attributes nested at most " + std::to_string(kMaxAttrDepth) + " deep");
  uint64_t tag = c.varint("an attribute tag");
  if (!lift(c)) return false;
  switch (tag) {
    case 1: {  // Integer
      uint64_t tAt = c.offset();
      TypeRef t = type(c, "an integer attribute's type");
      if (!t) return false;
      if (t->kind != TypeKind::Scalar || !isIntElem(t->elem)) return fail(tAt, "an integer type, not " + quoted(t));
      unsigned bits = elemBits(t->elem);
      uint64_t v = bits == 1 ? c.u8("an i1 value") : c.varint("an integer value");
      setInt(out, signExtend(v, bits), t);
      return lift(c);
    }
    case 2: {  // Float
      uint64_t tAt = c.offset();
      TypeRef t = type(c, "a float attribute's type");
      if (!t) return false;
      if (t->kind != TypeKind::Scalar || !isFloatElem(t->elem)) return fail(tAt, "a float type, not " + quoted(t));
      uint64_t bits = elemBits(t->elem) <= 8    ? c.u8("a float value")
                      : t->elem == Elem::F64 ? f64Bits(c)
                                             : static_cast<uint64_t>(c.svarint("a float value"));
      out.kind = AttrKind::Float;
      out.f = decodeFloat(t->elem, bits);
      out.type = t;
      return lift(c);
    }
    case 3:
      out.kind = AttrKind::Bool;
      out.i = c.u8("a bool value") != 0;
      return lift(c);
    case 4:
      out.kind = AttrKind::Type;
      out.type = type(c, "a type attribute");
      return out.type != nullptr;
    case 5: {
      std::string_view s;
      if (!string(c, "a string attribute", s)) return false;
      out.kind = AttrKind::String;
      out.s = escaped(s);
      return true;
    }
    case 6: {
      uint64_t n = c.count("an array's element count", 1);
      out.kind = AttrKind::Array;
      out.elems.reserve(n);
      for (uint64_t i = 0; i < n && lift(c); ++i) {
        Attr e;
        if (!tagged(c, e, depth + 1)) return false;
        out.elems.push_back(std::move(e));
      }
      return lift(c);
    }
    case 7: {
      uint64_t tAt = c.offset();
      TypeRef t = type(c, "a dense attribute's type");
      if (!t) return false;
      if (!t->isTile()) return fail(tAt, "a tile type, not " + quoted(t));
      return constant(c, t, out);
    }
    case 8: {  // div_by<d[, every e along a]>
      uint64_t d = c.varint("a divisor");
      uint8_t flags = c.u8("the div_by flags");
      out.kind = AttrKind::Keyword;
      out.s = "div_by";
      out.dict.reserve(flags & 3 ? 3 : 1);
      setInt(entry(out, "divisor"), static_cast<int64_t>(d));
      if (flags & 3) {
        Attr& every = entry(out, "every");
        if (flags & 1) setInt(every, c.svarint("every"));
        Attr& along = entry(out, "along");
        if (flags & 2) setInt(along, c.svarint("along"));
      }
      return lift(c);
    }
    case 9: {  // same_elements<[...]>
      uint64_t n = c.count("a same_elements count", 8);
      Attr values;
      values.kind = AttrKind::Array;
      for (uint64_t i = 0; i < n && c.ok(); ++i) values.elems.push_back(intAttr(static_cast<int64_t>(c.u64("a value"))));
      out.kind = AttrKind::Keyword;
      out.s = "same_elements";
      out.dict.push_back({"values", std::move(values)});
      return lift(c);
    }
    case 10:
    case 11: return dictionary(c, out, depth);
    case 12: {  // bounded<lb|?, ub|?>
      uint8_t flags = c.u8("the bounded flags");
      out.kind = AttrKind::Keyword;
      out.s = "bounded";
      out.dict.reserve(2);
      Attr& lb = entry(out, "lb");
      if (flags & 1) setInt(lb, c.svarint("a lower bound"));
      Attr& ub = entry(out, "ub");
      if (flags & 2) setInt(ub, c.svarint("an upper bound"));
      return lift(c);
    }
    default: return fail(at, "an attribute tag 1-12, not " + std::to_string(tag));
  }
}

bool Decoder::constant(ByteCursor& c, TypeRef t, Attr& out) {
  uint64_t at = c.offset();
  uint64_t index = c.varint("a constant index");
  if (!lift(c)) return false;
  ByteCursor item(std::string_view(), 0);
  if (!this->item(constants_, index, at, "constant", item)) return false;
  uint64_t len = item.varint("a constant's byte length");
  std::string_view data = item.bytes(len, "a constant's data");
  if (!lift(item)) return false;
  Elem e = t->tileElem();
  if (e == Elem::None || e == Elem::Index) return fail(at, "an integer or float tile for a constant, not " + quoted(t));
  int64_t count = t->numElements();
  unsigned width = storageBytes(e);
  // One element is a splat, but for i1 a byte also packs 2 to 8 elements:
  // a splat of i1 is 0x00 or 0xFF (MLIR's dense i1 storage).
  bool splat = data.size() == width &&
               (e != Elem::I1 || count == 1 || data[0] == '\x00' || static_cast<uint8_t>(data[0]) == 0xFF);
  bool packedI1 = e == Elem::I1 && !splat;
  size_t need = packedI1 ? static_cast<size_t>((count + 7) / 8) : static_cast<size_t>(count) * width;
  if (!splat && data.size() != need)
    return fail(at, "constant " + std::to_string(index) + " with 1 or " + std::to_string(count) + " elements of " +
                        quoted(t) + " (" + std::to_string(need) + " bytes), not " + std::to_string(data.size()) +
                        " bytes");
  auto element = [&](int64_t i, Attr& a) {  // fills a fresh Attr
    uint64_t bits = 0;
    if (packedI1) bits = (static_cast<uint8_t>(data[i / 8]) >> (i % 8)) & 1;
    else
      for (unsigned b = 0; b < width; ++b) bits |= uint64_t(static_cast<uint8_t>(data[i * width + b])) << (8 * b);
    if (e == Elem::I1) {
      a.kind = AttrKind::Bool;
      a.i = bits != 0;
    } else if (isIntElem(e) || e == Elem::I4) {
      setInt(a, signExtend(bits, elemBits(e)));
    } else {
      a.kind = AttrKind::Float;
      a.f = decodeFloat(e, bits);
    }
  };
  out.kind = AttrKind::Dense;
  out.type = t->element;  // the scalar type of e (interned: what TypeContext::scalar(e) gives)
  out.s = out.type->text;
  if (splat || t->shape.empty()) {
    element(0, out.elems.emplace_back());
    if (!splat) out.i = 1;
    return true;
  }
  // Nested lists, one level per dimension, row-major.
  int64_t next = 0;
  std::function<void(size_t, Attr&)> level = [&](size_t d, Attr& list) {
    list.kind = AttrKind::Array;
    list.elems.resize(static_cast<size_t>(std::max<int64_t>(0, t->shape[d])));
    for (Attr& a : list.elems)
      if (d + 1 == t->shape.size()) element(next++, a);
      else level(d + 1, a);
  };
  Attr top;
  level(0, top);
  out.elems = std::move(top.elems);
  out.i = 1;
  return true;
}

}  // namespace tilesight::bytecode
