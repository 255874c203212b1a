// Spellings of attributes and types that the parser (syntax/parse_attrs.cpp,
// parse_types.cpp) reads back as the same values.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "analysis/ir/keywords.h"
#include "analysis/ir/print_writer.h"
#include "analysis/ir/printer.h"

namespace tilesight {

namespace print {

namespace {

std::string joined(const std::vector<std::string>& parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s;
}

// The lexer's float is `digits '.' digits [e[+-]digits]`: the shortest text
// that reads back as the same double, with `.0` added where it has no point.
// Infinities and NaN are words in a dense literal; a builtin float attribute
// is infinite only when its literal overflowed, and prints as one that does.
std::string floatText(double f, bool dense) {
  if (std::isnan(f)) return std::signbit(f) ? "-nan" : "nan";
  if (std::isinf(f)) return std::string(f < 0 ? "-" : "") + (dense ? "inf" : "1.0e999");
  char buf[64];
  auto end = std::to_chars(buf, buf + sizeof buf, f).ptr;
  std::string s(buf, end);
  if (s.find('.') == std::string::npos) s.insert(std::min(s.find('e'), s.size()), ".0");
  return s;
}

// Integers keep their spelling when they have one: hexadecimal float bit
// patterns and literals wider than 64 bits mean what they spell.
std::string intText(const Attr& a) { return a.s.empty() ? std::to_string(a.i) : a.s; }

// A number of a dense literal (no `: type` suffix there).
std::string denseElemText(const Attr& e) {
  switch (e.kind) {
    case AttrKind::Array: {
      std::vector<std::string> parts;
      for (const Attr& sub : e.elems) parts.push_back(denseElemText(sub));
      return "[" + joined(parts) + "]";
    }
    case AttrKind::Bool: return e.i ? "true" : "false";
    case AttrKind::Float: return floatText(e.f, true);
    default: return intText(e);
  }
}

// Whether parseAttribute reads the bare word back as a keyword: not a
// number, not one of the words it treats specially, not a type.
bool readsAsKeyword(std::string_view w) {
  static constexpr std::string_view kSpecial[] = {"true",   "false",      "unit",   "array",   "loc",
                                                  "dense",  "affine_map", "sparse", "strided", "distinct"};
  if (w.empty() || !(std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_')) return false;
  for (std::string_view s : kSpecial)
    if (w == s) return false;
  return !isTypeKeyword(w);
}

// A keyword the parser would not read back bare (a type name, `true`, `1x`):
// wrapped in a dialect attribute, whose keyword is all the parser keeps.
std::string keywordText(const std::string& s) {
  return readsAsKeyword(s) ? s : "#cuda_tile.keyword<" + s + ">";
}

std::string withType(std::string text, const Attr& a) {
  return a.type ? text + " : " + typeText(a.type) : text;
}

bool isBareName(std::string_view n) {
  if (n.empty() || !(std::isalpha(static_cast<unsigned char>(n[0])) || n[0] == '_')) return false;
  for (char c : n)
    if (!isIdentChar(c)) return false;
  return true;
}

// Strings keep their escapes: the parser stores the text between the quotes.
std::string nameText(std::string_view n) { return isBareName(n) ? std::string(n) : "\"" + std::string(n) + "\""; }

std::string entryText(std::string_view name, const Attr& v) {
  return v.kind == AttrKind::Unit ? nameText(name) : nameText(name) + " = " + attrText(v);
}

// div_by<8, every 2 along 0>, same_elements<[2, 2]>, bounded<0, ?>
std::string assumeText(const Attr& a) {
  auto param = [&](const char* key) {
    const Attr* v = a.get(key);
    if (!v || v->kind == AttrKind::Unit) return std::string("?");
    return v->kind == AttrKind::Int ? intText(*v) : attrText(*v);
  };
  if (a.s == "div_by") {
    std::string every = a.get("every") ? ", every " + param("every") + " along " + param("along") : "";
    return "div_by<" + param("divisor") + every + ">";
  }
  if (a.s == "same_elements") return "same_elements<" + param("values") + ">";
  return a.s + "<" + param("lb") + ", " + param("ub") + ">";
}

// <sm_100 = {num_cta_in_cga = 2}, ...>
std::string hintsText(const Attr& a) {
  std::vector<std::string> parts;
  for (const auto& [arch, v] : a.dict) parts.push_back(arch + " = " + attrText(v));
  return "<" + joined(parts) + ">";
}

bool inSet(const KeywordSet& set, const std::string& w) {
  for (std::string_view s : set.words)
    if (w == s) return true;
  return false;
}

}  // namespace

std::string typeText(TypeRef t) {
  if (!t) return "<unknown>";
  if (t->kind == TypeKind::Function) return signatureText(t->inputs, t->results);
  constexpr std::string_view prefix = "!cuda_tile.";
  return t->text.starts_with(prefix) ? t->text.substr(prefix.size()) : t->text;
}

// A single result needs no parentheses unless it is itself a function type.
std::string signatureText(llvm::ArrayRef<TypeRef> inputs, llvm::ArrayRef<TypeRef> results) {
  std::vector<std::string> ins, outs;
  for (TypeRef i : inputs) ins.push_back(typeText(i));
  for (TypeRef r : results) outs.push_back(typeText(r));
  bool bare = results.size() == 1 && results[0] && results[0]->kind != TypeKind::Function;
  return "(" + joined(ins) + ") -> " + (bare ? outs[0] : "(" + joined(outs) + ")");
}

std::string attrText(const Attr& a) {
  switch (a.kind) {
    case AttrKind::Unit: return "unit";
    case AttrKind::Bool: return withType(a.i ? "true" : "false", a);
    case AttrKind::Int: return withType(intText(a), a);
    case AttrKind::Float: return withType(floatText(a.f, false), a);
    case AttrKind::String: return "\"" + a.s + "\"";
    case AttrKind::Symbol:
    case AttrKind::Opaque: return a.s;
    case AttrKind::Keyword: return keywordText(a.s);
    case AttrKind::Type: return typeText(a.type);
    case AttrKind::Dense: return denseText(a);
    case AttrKind::Array: {
      std::vector<std::string> parts;
      for (const Attr& e : a.elems) parts.push_back(attrText(e));
      return "[" + joined(parts) + "]";
    }
    case AttrKind::DenseArray: {
      std::vector<std::string> parts;
      for (const Attr& e : a.elems) parts.push_back(intText(e));
      // The `arr` format kind keeps no element type (printed there as `[1, 0]`); i64 is MLIR's.
      std::string elem = a.type ? typeText(a.type) : "i64";
      return "array<" + elem + (parts.empty() ? "" : ": " + joined(parts)) + ">";
    }
    case AttrKind::Dict: {
      std::vector<std::string> parts;
      for (const auto& [k, v] : a.dict) parts.push_back(entryText(k, v));
      return "{" + joined(parts) + "}";
    }
  }
  return "";
}

std::string denseText(const Attr& a) {
  std::string body;
  if (a.i == 1) {  // written as a list, possibly of one value
    std::vector<std::string> parts;
    for (const Attr& e : a.elems) parts.push_back(denseElemText(e));
    body = "[" + joined(parts) + "]";
  } else if (!a.elems.empty()) {
    body = denseElemText(a.elems.front());
  }
  return "<" + typeText(a.type) + ": " + body + ">";
}

bool fitsKind(std::string_view kind, const Attr& a) {
  if (const KeywordSet* set = keywordSet(kind)) return a.kind == AttrKind::Keyword && inSet(*set, a.s);
  if (kind == "unit" || kind == "units") return a.kind == AttrKind::Unit;
  if (kind == "vis") return a.kind == AttrKind::Keyword && (a.s == "public" || a.s == "private");
  if (kind == "int") return a.kind == AttrKind::Int && !a.type && !a.wide;
  if (kind == "bool") return a.kind == AttrKind::Bool && !a.type;
  if (kind == "str") return a.kind == AttrKind::String;
  if (kind == "sym") return a.kind == AttrKind::Symbol;
  if (kind == "arr") return a.kind == AttrKind::DenseArray && !a.type;
  if (kind == "dense") return a.kind == AttrKind::Dense;
  if (kind == "hints") return a.kind == AttrKind::Dict;
  if (kind == "assume") return a.kind == AttrKind::Keyword && inSet(assumePredicates(), a.s);
  if (kind == "type") return a.kind == AttrKind::Type;
  return kind == "attr";
}

std::string kindText(std::string_view kind, std::string_view name, const Attr& a) {
  if (const KeywordSet* set = keywordSet(kind))
    return set->angle.empty() ? a.s : std::string(set->angle) + "<" + a.s + ">";
  if (kind == "unit" || kind == "units") return std::string(name);
  if (kind == "int") return intText(a);
  if (kind == "arr") {
    std::vector<std::string> parts;
    for (const Attr& e : a.elems) parts.push_back(intText(e));
    return "[" + joined(parts) + "]";
  }
  if (kind == "hints") return hintsText(a);
  if (kind == "assume") return assumeText(a);
  return attrText(a);  // bool, str, sym, dense, attr, vis, type: the builtin spelling
}

std::string dictText(const std::vector<NamedAttr>& attrs, const std::vector<bool>& skip) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < attrs.size(); ++i)
    if (!skip[i]) parts.push_back(entryText(attrs[i].name, attrs[i].attr));
  return parts.empty() ? std::string() : "{" + joined(parts) + "}";
}

const Attr* Claims::take(std::string_view name, std::string_view kind) {
  int i = find(name, kind);
  if (i < 0) return nullptr;
  taken_[i] = true;
  return &op_.attrs[i].attr;
}

const Attr* Claims::claimed(std::string_view name) const {
  for (size_t i = 0; i < op_.attrs.size(); ++i)
    if (taken_[i] && op_.attrs[i].name == name) return &op_.attrs[i].attr;
  return nullptr;
}

int Claims::find(std::string_view name, std::string_view kind) const {
  for (size_t i = 0; i < op_.attrs.size(); ++i)
    if (!taken_[i] && op_.attrs[i].name == name && fitsKind(kind, op_.attrs[i].attr)) return static_cast<int>(i);
  return -1;
}

}  // namespace print

std::string printAttr(const Attr& a) { return print::attrText(a); }
std::string printType(TypeRef t) { return print::typeText(t); }

}  // namespace tilesight
