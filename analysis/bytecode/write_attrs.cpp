// Op attributes (bytecode_format.md §3): the inline form of each wire kind,
// tagged attributes, dense constant data. Each Attr has the form the text
// parser gives it; the reader (read_attrs.cpp) makes the same forms back.
#include <cmath>
#include <cstring>

#include "analysis/bytecode/encoder.h"
#include "analysis/ir/dense.h"

namespace tilesight::bytecode {

namespace {

struct FloatFormat {
  unsigned exp, man;
  bool finite = false;  // no infinities; all-ones exponent and mantissa is NaN (f4: no NaN either)
};

// The nearest value of the format (ties to even), as its bits; overflow
// gives infinity, or NaN in formats without one.
uint64_t encodeMinifloat(double v, FloatFormat f, bool noNaN = false) {
  uint64_t sign = std::signbit(v) ? uint64_t(1) << (f.exp + f.man) : 0;
  uint64_t expMax = (uint64_t(1) << f.exp) - 1, manAll = (uint64_t(1) << f.man) - 1;
  uint64_t nanBits = f.finite ? (expMax << f.man) | manAll : (expMax << f.man) | (uint64_t(1) << (f.man - 1));
  uint64_t infBits = f.finite ? (noNaN ? (expMax << f.man) | manAll : nanBits) : expMax << f.man;
  if (std::isnan(v)) return sign | nanBits;
  double a = std::fabs(v);
  if (std::isinf(a)) return sign | infBits;
  if (a == 0) return sign;
  int bias = (1 << (f.exp - 1)) - 1;
  int e2 = 0;
  std::frexp(a, &e2);
  int e = std::max(e2 - 1, 1 - bias);  // unbiased exponent; subnormals share the lowest
  double m = std::nearbyint(std::ldexp(a, static_cast<int>(f.man) - e));
  if (m >= std::ldexp(1.0, static_cast<int>(f.man) + 1)) m /= 2, ++e;
  auto mi = static_cast<uint64_t>(m);
  uint64_t field = mi < (uint64_t(1) << f.man) ? 0 : static_cast<uint64_t>(e + bias);
  uint64_t bits = (field << f.man) | (mi & manAll);
  uint64_t maxFinite = f.finite && !noNaN ? (expMax << f.man) | (manAll - 1) : f.finite ? (expMax << f.man) | manAll
                                                                                      : ((expMax - 1) << f.man) | manAll;
  if (field > expMax || bits > maxFinite) return sign | infBits;
  return sign | bits;
}

uint64_t encodeFloat(Elem e, double v) {
  switch (e) {
    case Elem::F64: return std::bit_cast<uint64_t>(v);
    case Elem::F32: return std::bit_cast<uint32_t>(static_cast<float>(v));
    case Elem::F16: return encodeMinifloat(v, {5, 10});
    case Elem::BF16: return encodeMinifloat(v, {8, 7});
    case Elem::TF32: return encodeMinifloat(v, {8, 10});
    case Elem::F8E4M3FN: return encodeMinifloat(v, {4, 3, true});
    case Elem::F8E5M2: return encodeMinifloat(v, {5, 2});
    case Elem::F4E2M1FN: return encodeMinifloat(v, {2, 1, true}, true);
    case Elem::F8E8M0FNU: {  // powers of two only
      if (!(v > 0) || std::isinf(v)) return 0xFF;
      int e2 = 0;
      std::frexp(v, &e2);
      return static_cast<uint64_t>(std::clamp(e2 - 1 + 127, 0, 254));
    }
    default: return 0;
  }
}

unsigned storageBytes(Elem e) { return e == Elem::TF32 ? 3 : (elemBits(e) + 7) / 8; }

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The text keeps a string's escapes (\" \\ \n \t \XX); bytecode holds the bytes.
std::string unescaped(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char n = s[++i];
    if (n == 'n') out += '\n';
    else if (n == 't') out += '\t';
    else if (i + 1 < s.size() && hexDigit(n) >= 0 && hexDigit(s[i + 1]) >= 0)
      out += static_cast<char>(hexDigit(n) * 16 + hexDigit(s[i + 1])), ++i;
    else out += n;
  }
  return out;
}

}  // namespace

bool Encoder::attr(std::string& b, const WireAttr& w, const Attr& a, TypeRef firstResult, const Operation& op) {
  auto wrong = [&](std::string_view expected) {
    return refuse(&op, "its attribute '" + w.name + "' is not " + std::string(expected));
  };
  switch (w.kind) {
    case WireKind::Unit: return true;
    case WireKind::Enum: {
      const auto& words = wireWords(w.set);
      for (size_t i = 0; i < words.size(); ++i)
        if (a.kind == AttrKind::Keyword && a.s == words[i]) return putVarint(b, i), true;
      return wrong("one of its keywords");
    }
    case WireKind::Bool:
      if (a.kind != AttrKind::Bool) return wrong("true or false");
      b += static_cast<char>(a.i != 0);
      return true;
    case WireKind::Int:
      if (a.kind != AttrKind::Int || a.wide || a.i < 0) return wrong("an integer of 0 or more");
      putVarint(b, static_cast<uint64_t>(a.i));
      return true;
    case WireKind::Str:
      if (a.kind != AttrKind::String) return wrong("a string");
      putVarint(b, string(unescaped(a.s)));
      return true;
    case WireKind::Sym:
      if (a.kind != AttrKind::Symbol || a.s.size() < 2) return wrong("a symbol");
      putVarint(b, string(std::string_view(a.s).substr(1)));
      return true;
    case WireKind::I32Array: {
      if (a.kind != AttrKind::DenseArray) return wrong("an array<i32: ...>");
      std::vector<int64_t> v;
      for (const Attr& e : a.elems) v.push_back(e.i);
      putI32s(b, v);
      return true;
    }
    case WireKind::BoolArray: {
      putVarint(b, a.elems.size());
      for (const Attr& e : a.elems) b += static_cast<char>(e.i != 0);
      return true;
    }
    case WireKind::Const: {
      std::string data;
      if (!firstResult || !firstResult->isTile()) return refuse(&op, "a constant needs a tile result");
      if (!denseData(a, firstResult, &op, data)) return false;
      putVarint(b, constant(std::move(data)));
      return true;
    }
    case WireKind::Tagged: return tagged(b, a, &op);
    case WireKind::TaggedArray:
      if (a.kind != AttrKind::Array) return wrong("a list");
      putVarint(b, a.elems.size());
      for (const Attr& e : a.elems)
        if (!tagged(b, e, &op)) return false;
      return true;
    case WireKind::Hints: return dictionary(b, a, &op);
  }
  return false;
}

// Hints' numbers are i32 (NVIDIA's and cuTile's): the text writes them without a type.
bool Encoder::dictionary(std::string& b, const Attr& a, const Operation* op) {
  if (a.kind != AttrKind::Dict) return refuse(op, "optimization hints are not a dictionary");
  putVarint(b, a.dict.size());
  for (const AttrEntry& e : a.dict) {
    putVarint(b, string(e.key));
    Attr v = e.value;
    if (v.kind == AttrKind::Int && !v.type) v.type = i32_;
    if (!tagged(b, v, op)) return false;
  }
  return true;
}

bool Encoder::tagged(std::string& b, const Attr& a, const Operation* op) {
  auto typed = [&](TypeRef t) {
    uint64_t i = type(t, op);
    putVarint(b, i);
    return i != ~uint64_t(0);
  };
  auto intOrSkip = [&](const Attr* v, std::string& tail) -> uint8_t {
    if (!v || v->kind != AttrKind::Int) return 0;
    putSvarint(tail, v->i);
    return 1;
  };
  switch (a.kind) {
    case AttrKind::Int: {
      if (a.type && a.type->kind == TypeKind::Scalar && isFloatElem(a.type->elem)) {  // a float's bit pattern
        putVarint(b, 2);
        if (!typed(a.type)) return false;
        if (elemBits(a.type->elem) <= 8) b += static_cast<char>(a.i);
        else putSvarint(b, a.i);
        return true;
      }
      TypeRef t = a.type;
      if (!t || t->kind != TypeKind::Scalar || !isIntElem(t->elem))
        return refuse(op, "an integer attribute without an integer type (write `" + std::to_string(a.i) + " : i32`)");
      if (a.wide) return refuse(op, "an integer attribute wider than 64 bits");
      putVarint(b, 1);
      if (!typed(t)) return false;
      unsigned bits = elemBits(t->elem);
      uint64_t v = static_cast<uint64_t>(a.i);
      if (bits < 64) v &= (uint64_t(1) << bits) - 1;
      if (bits == 1) b += static_cast<char>(v);
      else putVarint(b, v);
      return true;
    }
    case AttrKind::Float: {
      if (!a.type || a.type->kind != TypeKind::Scalar || !isFloatElem(a.type->elem))
        return refuse(op, "a float attribute without a float type");
      putVarint(b, 2);
      if (!typed(a.type)) return false;
      uint64_t bits = encodeFloat(a.type->elem, a.f);
      if (elemBits(a.type->elem) <= 8) b += static_cast<char>(bits);
      else putSvarint(b, static_cast<int64_t>(bits));  // NVIDIA zigzags the zero-extended pattern
      return true;
    }
    case AttrKind::Bool:
      putVarint(b, 3);
      b += static_cast<char>(a.i != 0);
      return true;
    case AttrKind::Type:
      putVarint(b, 4);
      return typed(a.type);
    case AttrKind::String:
      putVarint(b, 5);
      putVarint(b, string(unescaped(a.s)));
      return true;
    case AttrKind::Array:
      putVarint(b, 6);
      putVarint(b, a.elems.size());
      for (const Attr& e : a.elems)
        if (!tagged(b, e, op)) return false;
      return true;
    case AttrKind::Dict:
      putVarint(b, 10);
      return dictionary(b, a, op);
    case AttrKind::Keyword:
      if (a.s == "div_by") {
        const Attr* d = a.get("divisor");
        putVarint(b, 8);
        putVarint(b, d ? static_cast<uint64_t>(d->i) : 1);
        std::string tail;
        uint8_t flags = intOrSkip(a.get("every"), tail);
        flags |= intOrSkip(a.get("along"), tail) << 1;
        b += static_cast<char>(flags);
        b += tail;
        return true;
      }
      if (a.s == "bounded") {
        std::string tail;
        uint8_t flags = intOrSkip(a.get("lb"), tail);
        flags |= intOrSkip(a.get("ub"), tail) << 1;
        putVarint(b, 12);
        b += static_cast<char>(flags);
        b += tail;
        return true;
      }
      if (a.s == "same_elements" && a.get("values")) {
        putVarint(b, 9);
        std::vector<int64_t> v;
        for (const Attr& e : a.get("values")->elems) v.push_back(e.i);
        putI64s(b, v);
        return true;
      }
      break;
    default: break;
  }
  return refuse(op, "bytecode has no form for the attribute value of kind " + std::to_string(static_cast<int>(a.kind)) +
                        (a.s.empty() ? "" : " ('" + a.s + "')"));
}

bool Encoder::denseData(const Attr& a, TypeRef t, const Operation* op, std::string& data) {
  std::optional<DenseValues> v = denseValues(a);
  Elem e = t->tileElem();
  if (!v || e == Elem::None || e == Elem::Index) return refuse(op, "its value is not a dense literal of " + quoted(t));
  int64_t count = t->numElements();
  unsigned width = storageBytes(e);
  auto bitsOf = [&](size_t k) -> uint64_t {
    if (isFloatElem(e) && !v->isBits[k]) return encodeFloat(e, v->floats[k]);
    return static_cast<uint64_t>(v->ints[k]);
  };
  if (v->splat || (v->size() == 1 && count == 1)) {
    if (v->size() != 1) return refuse(op, "its dense value is empty");
    if (e == Elem::I1) data += static_cast<char>(bitsOf(0) ? 0xFF : 0x00);
    else putFixed(data, bitsOf(0), width);
    return true;
  }
  if (static_cast<int64_t>(v->size()) != count)
    return refuse(op, "its dense value has " + std::to_string(v->size()) + " elements where " + quoted(t) + " has " +
                          std::to_string(count));
  if (e == Elem::I1) {  // bit-packed, element i at bit i % 8 of byte i / 8
    data.assign(static_cast<size_t>((count + 7) / 8), '\0');
    for (size_t k = 0; k < v->size(); ++k)
      if (bitsOf(k)) data[k / 8] = static_cast<char>(data[k / 8] | (1 << (k % 8)));
    return true;
  }
  for (size_t k = 0; k < v->size(); ++k) putFixed(data, bitsOf(k), width);
  return true;
}

}  // namespace tilesight::bytecode
