#include "analysis/bytecode/encodings.h"

#include <array>
#include <memory>

#include "analysis/ir/attr_values.h"

namespace tilesight::bytecode {

namespace {

struct Row {
  OpKind kind;
  uint32_t opcode;
  std::string_view fields;
};

constexpr Row kRows[] = {
#define BC_OP(kind, opcode, fields) {OpKind::kind, opcode, fields},
#include "analysis/bytecode/encodings.def"
#undef BC_OP
};

Version parseVersion(std::string_view s) {
  Version v;
  size_t dot = s.find('.');
  v.major = static_cast<uint8_t>(std::stoi(std::string(s.substr(0, dot))));
  v.minor = static_cast<uint8_t>(std::stoi(std::string(s.substr(dot + 1))));
  return v;
}

WireKind kindOf(std::string_view k, std::string& set) {
  static constexpr std::string_view kEnums[] = {"sign", "rnd", "pred", "cmpord", "ord", "scope", "atomic", "ovf"};
  for (std::string_view e : kEnums)
    if (k == e) {
      set = std::string(k);
      return WireKind::Enum;
    }
  if (k == "unit") return WireKind::Unit;
  if (k == "bool") return WireKind::Bool;
  if (k == "str") return WireKind::Str;
  if (k == "sym") return WireKind::Sym;
  if (k == "i32arr") return WireKind::I32Array;
  if (k == "const") return WireKind::Const;
  if (k == "tagged") return WireKind::Tagged;
  if (k == "tarr") return WireKind::TaggedArray;
  if (k == "hints") return WireKind::Hints;
  if (k == "boolarr") return WireKind::BoolArray;
  return WireKind::Int;  // "int"
}

// `name:kind[/B][@V[=D]]`
WireAttr parseAttr(std::string_view f) {
  WireAttr a;
  size_t colon = f.find(':');
  a.name = std::string(f.substr(0, colon));
  std::string_view rest = f.substr(colon + 1);
  size_t at = rest.find('@');
  if (at != std::string_view::npos) {
    std::string_view ver = rest.substr(at + 1);
    size_t eq = ver.find('=');
    if (eq != std::string_view::npos) a.dflt = std::string(ver.substr(eq + 1));
    a.since = parseVersion(ver.substr(0, eq));
    rest = rest.substr(0, at);
  }
  size_t slash = rest.find('/');
  if (slash != std::string_view::npos) {
    a.flagBit = std::stoi(std::string(rest.substr(slash + 1)));
    rest = rest.substr(0, slash);
  }
  a.kind = kindOf(rest, a.set);
  return a;
}

OpEncoding compile(const Row& row) {
  const OpInfo& info = OpTable::get().info(row.kind);
  OpEncoding e;
  e.kind = row.kind;
  e.opcode = row.opcode;
  e.optionalBit.assign(info.operands.size(), -1);
  std::string_view s = row.fields;
  while (!s.empty()) {
    size_t sp = s.find(' ');
    std::string_view f = s.substr(0, sp);
    s = sp == std::string_view::npos ? std::string_view() : s.substr(sp + 1);
    if (f == "F" || f.starts_with("F@")) {
      e.hasFlags = true;
      if (f.size() > 2) e.flagsSince = parseVersion(f.substr(2));
    } else if (f == "groups") {
      e.perGroup = true;
    } else if (f.starts_with("regions:")) {
      e.regions = static_cast<unsigned>(std::stoi(std::string(f.substr(8))));
    } else if (f.starts_with("results@")) {
      e.resultsSince = parseVersion(f.substr(8));
    } else if (f.starts_with("?")) {
      size_t slash = f.find('/');
      int g = info.operandGroup(f.substr(1, slash - 1));
      if (g >= 0) e.optionalBit[g] = std::stoi(std::string(f.substr(slash + 1)));
    } else {
      WireAttr& a = e.attrs.emplace_back(parseAttr(f));
      if (a.kind == WireKind::Enum) a.words = &wireWords(a.set);
      a.textDefault = info.attrDefault(a.name);
      a.overflow = a.set == "ovf";
    }
  }
  bool variadic = false, optional = false;
  for (const GroupDecl& g : info.operands) {
    variadic |= g.arity == Arity::Variadic;
    optional |= g.arity == Arity::Optional;
    e.fixedOperands += g.arity == Arity::One;
  }
  e.countOperands = !e.perGroup && (variadic || optional);
  for (const GroupDecl& g : info.results) {
    e.fixedResults += g.arity != Arity::Variadic;
    e.variadicResults |= g.arity == Arity::Variadic;
  }
  e.countResults = variadic || e.variadicResults;
  e.info = &info;
  return e;
}

struct Table {
  std::vector<std::unique_ptr<OpEncoding>> byOpcode;
  std::array<const OpEncoding*, kOpKindCount> byKind{};
  Table() {
    for (const Row& r : kRows) {
      if (r.opcode >= byOpcode.size()) byOpcode.resize(r.opcode + 1);
      byOpcode[r.opcode] = std::make_unique<OpEncoding>(compile(r));
      byKind[static_cast<size_t>(r.kind)] = byOpcode[r.opcode].get();
    }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

template <class E>
std::vector<std::string_view> namesOf() {
  auto n = keywordNames<E>();
  return {n.begin(), n.end()};
}

}  // namespace

const OpEncoding* encodingOf(uint32_t opcode) {
  const Table& t = table();
  return opcode < t.byOpcode.size() ? t.byOpcode[opcode].get() : nullptr;
}

const OpEncoding* encodingOfKind(OpKind k) { return table().byKind[static_cast<size_t>(k)]; }

uint32_t maxOpcode(Version v) {
  if (v < Version{13, 2}) return 0x6D;
  if (v < Version{13, 3}) return 0x6E;
  if (v < Version{13, 4}) return 0x75;
  return 0x7A;
}

// Our keyword enums follow the wire order except signedness (the wire has
// unsigned first) and comparison ordering (unordered first).
const std::vector<std::string_view>& wireWords(std::string_view set) {
  static const std::vector<std::string_view> sign{"unsigned", "signed"};
  static const std::vector<std::string_view> cmpord{"unordered", "ordered"};
  static const std::vector<std::string_view> rnd = namesOf<Rounding>();
  static const std::vector<std::string_view> pred = namesOf<Predicate>();
  static const std::vector<std::string_view> ord = namesOf<MemoryOrdering>();
  static const std::vector<std::string_view> scope = namesOf<MemoryScope>();
  static const std::vector<std::string_view> atomic = namesOf<AtomicMode>();
  static const std::vector<std::string_view> ovf = namesOf<Overflow>();
  static const std::vector<std::string_view> none;
  if (set == "sign") return sign;
  if (set == "cmpord") return cmpord;
  if (set == "rnd") return rnd;
  if (set == "pred") return pred;
  if (set == "ord") return ord;
  if (set == "scope") return scope;
  if (set == "atomic") return atomic;
  if (set == "ovf") return ovf;
  return none;
}

}  // namespace tilesight::bytecode
