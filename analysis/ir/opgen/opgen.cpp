// opgen: writes analysis/ir/op_accessors.h, the typed accessors of every op,
// from the op table's rows (ops.def), the attributes its formats do not spell
// (op_attrs.def), and checks the bytecode table (encodings.def) against them.
// A build-time host program, as MLIR's mlir-tblgen is for ODS: it includes
// the tables as data, so a row and its accessors cannot drift apart.
//   opgen OUTPUT_HEADER
// The header is rewritten only when its text changes.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/ir/shared_formats.h"

namespace {

using namespace tilesight::formats;

struct Row {
  std::string_view kind, mnemonic, format, operands;
};
const Row kRows[] = {
#define TILE_OP(kind, name, category, since, format, operands, results, traits, verify, doc) {#kind, name, format, operands},
#include "analysis/ir/ops.def"
#undef TILE_OP
};

struct ExtraAttrs {
  std::string_view kind, names;
};
const ExtraAttrs kExtraAttrs[] = {
#define OP_ATTRS(kind, names) {#kind, names},
#define ANY_OP_ATTRS(names)
#include "analysis/ir/op_attrs.def"
#undef OP_ATTRS
#undef ANY_OP_ATTRS
};
const std::string_view kAnyOpAttrs[] = {
#define OP_ATTRS(kind, names)
#define ANY_OP_ATTRS(names) names,
#include "analysis/ir/op_attrs.def"
#undef OP_ATTRS
#undef ANY_OP_ATTRS
};

struct Encoding {
  std::string_view kind, fields;
};
const Encoding kEncodings[] = {
#define BC_OP(kind, opcode, fields) {#kind, fields},
#include "analysis/bytecode/encodings.def"
#undef BC_OP
};

enum class Arity { One, Optional, Variadic };

struct Group {
  std::string name;
  Arity arity;
  size_t index;  // position in the row's operand groups
};

struct Op {
  std::string kind, mnemonic;
  std::vector<Group> groups;
  std::vector<std::string> attrs;  // in order of first mention
};

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    size_t sp = s.find(' ');
    if (sp != 0) out.push_back(s.substr(0, sp));
    s = sp == std::string_view::npos ? std::string_view() : s.substr(sp + 1);
  }
  return out;
}

void addUnique(std::vector<std::string>& v, std::string_view s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.emplace_back(s);
}

// "lhs:Int mask:I1? index:Int*", as op_table.cpp reads it.
std::vector<Group> groupsOf(std::string_view spec) {
  std::vector<Group> out;
  for (std::string_view item : words(spec)) {
    Arity a = Arity::One;
    if (item.back() == '?') a = Arity::Optional;
    if (item.back() == '*') a = Arity::Variadic;
    out.push_back({std::string(item.substr(0, item.find(':'))), a, out.size()});
  }
  return out;
}

// The attributes a format spells: `@a:KIND`, `@a,b:KIND`.
void formatAttrs(std::string_view format, std::vector<std::string>& out) {
  for (std::string_view w : words(format)) {
    if (w.front() != '@') continue;
    std::string_view names = w.substr(1, w.find(':') - 1);
    while (!names.empty()) {
      size_t comma = names.find(',');
      addUnique(out, names.substr(0, comma));
      names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
    }
  }
}

// lower_snake and mixed names as C++ lowerCamel: memory_scope -> memoryScope.
std::string camel(std::string_view name) {
  std::string out;
  bool up = false;
  for (char c : name) {
    if (c == '_') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

bool isKeyword(std::string_view s) {
  static const std::set<std::string_view> kKeywords = {
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const",
      "constexpr", "continue", "default", "delete", "do", "double", "else", "enum", "explicit", "export",
      "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
      "namespace", "new", "not", "operator", "or", "private", "protected", "public", "register", "return",
      "short", "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true", "try",
      "typedef", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "xor"};
  return kKeywords.count(s) != 0;
}

[[noreturn]] void fail(const std::string& msg) {
  std::cerr << "opgen: " << msg << "\n";
  std::exit(1);
}

std::vector<Op> readOps() {
  std::vector<Op> ops;
  for (const Row& r : kRows) {
    Op op{std::string(r.kind), std::string(r.mnemonic), groupsOf(r.operands), {}};
    formatAttrs(r.format, op.attrs);
    ops.push_back(std::move(op));
  }
  for (const ExtraAttrs& e : kExtraAttrs) {
    auto it = std::find_if(ops.begin(), ops.end(), [&](const Op& o) { return o.kind == e.kind; });
    if (it == ops.end()) fail("op_attrs.def names no op kind " + std::string(e.kind));
    for (std::string_view n : words(e.names)) addUnique(it->attrs, n);
  }
  for (const Op& op : ops) {
    std::set<std::string> seen = {"op", "kKind"};
    auto claim = [&](const std::string& name) {
      if (isKeyword(name) || !seen.insert(name).second)
        fail(op.kind + ": accessor name " + name + " is a C++ keyword or taken twice");
    };
    for (const Group& g : op.groups) {
      claim(camel(g.name));
      if (g.arity != Arity::Variadic) claim(camel(g.name) + "Operand");
    }
    for (const std::string& a : op.attrs) claim(camel(a));
  }
  return ops;
}

// Every attribute the bytecode table encodes has an accessor: a name there
// that the formats and op_attrs.def do not know is a typo in one of them.
void checkEncodings(const std::vector<Op>& ops) {
  for (const Encoding& e : kEncodings) {
    auto it = std::find_if(ops.begin(), ops.end(), [&](const Op& o) { return o.kind == e.kind; });
    if (it == ops.end()) fail("encodings.def names no op kind " + std::string(e.kind));
    for (std::string_view f : words(e.fields)) {
      bool notAttr = f == "F" || f == "groups" || f.starts_with("F@") || f.starts_with("?") ||
                     f.starts_with("regions:") || f.starts_with("results@");
      if (notAttr) continue;
      std::string_view name = f.substr(0, f.find(':'));
      if (std::find(it->attrs.begin(), it->attrs.end(), name) == it->attrs.end())
        fail("encodings.def: " + it->kind + " encodes attribute " + std::string(name) +
             ", which neither its format in ops.def nor op_attrs.def names");
    }
  }
}

const char* kPreamble = R"(#pragma once
// Generated by analysis/ir/opgen from ops.def and op_attrs.def: do not edit.
// One view class per op (ForOp, PermuteOp, ...) with an accessor per operand
// group and per attribute, got with as<ForOp>(op) or, where the kind is
// known, ForOp(op). Per group or attribute name, one function across the
// kinds that have it: operands::view(op), viewOperand(op) and viewGroup(op)
// for a single operand, operands::index(op) for a variadic group,
// attrs::dim(op), and attr_names::dim where code needs the name itself.
// Groups are read by their position in the op's row; an op whose operand
// segments do not match its row has empty groups (kNoId for one operand).
#include <cassert>
#include <optional>
#include <string_view>

#include <llvm/ADT/ArrayRef.h>

#include "analysis/ir/ir.h"
#include "analysis/ir/ir_query.h"
#include "analysis/ir/op_table.h"

namespace tilesight {

// `op` seen as the op View views (as<ForOp>(op)); nullopt when it is another op.
template <class View>
std::optional<View> as(const Operation& op) {
  return is(op, View::kKind) ? std::optional<View>(View(op)) : std::nullopt;
}
)";

// A group's accessors: the group itself when variadic, else its value and its operand.
// `prefix` and `signature` make them members or free functions.
void writeGroupAccessors(std::ostream& os, const Group& g, const std::string& groupExpr, const std::string& prefix,
                         const std::string& signature) {
  std::string n = camel(g.name);
  if (g.arity == Arity::Variadic) {
    os << prefix << "llvm::ArrayRef<Operand> " << n << signature << " { return " << groupExpr
       << "; }\n";
    return;
  }
  os << prefix << "ValueId " << n << signature << " { return valueAt(" << groupExpr << ", 0); }\n";
  os << prefix << "const Operand* " << n << "Operand" << signature << " { return operandAt(" << groupExpr
     << ", 0); }\n";
}

void writeView(std::ostream& os, const Op& op) {
  std::string cls = op.kind + "Op";
  os << "\n// " << op.mnemonic << "\n"
     << "class " << cls << " {\n public:\n"
     << "  static constexpr OpKind kKind = OpKind::" << op.kind << ";\n"
     << "  // `op` (the caller knows its kind is " << op.mnemonic << ").\n"
     << "  explicit " << cls << "(const Operation& op) : op_(&op) { assert(is(op, kKind)); }\n"
     << "  const Operation& op() const { return *op_; }\n";
  // Positions in op.segments, for the code that edits an op's operands.
  for (const Group& g : op.groups) {
    std::string n = camel(g.name);
    n[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(n[0])));
    os << "  static constexpr size_t k" << n << "Group = " << g.index << ";\n";
  }
  for (const Group& g : op.groups)
    writeGroupAccessors(os, g, "operandGroupAt(*op_, " + std::to_string(g.index) + ")", "  ", "() const");
  for (const std::string& a : op.attrs)
    os << "  const Attr* " << camel(a) << "() const { return op_->attr(\"" << a << "\"); }\n";
  os << "\n private:\n  const Operation* op_;\n};\n";
}

// operands::NAME(op): group NAME of whichever kind op is, empty for the others.
void writeOperandsByName(std::ostream& os, const std::vector<Op>& ops) {
  std::map<std::string, std::vector<std::pair<const Op*, const Group*>>> byName;
  for (const Op& op : ops)
    for (const Group& g : op.groups) byName[g.name].push_back({&op, &g});
  os << "\nnamespace operands {\n";
  std::set<std::string> emitted;
  for (const auto& [name, uses] : byName) {
    bool variadic = uses.front().second->arity == Arity::Variadic;
    std::string n = camel(name);
    for (const std::string& f : variadic ? std::vector<std::string>{n} : std::vector<std::string>{n, n + "Group", n + "Operand"})
      if (isKeyword(f) || !emitted.insert(f).second) fail("operands::" + f + " is a C++ keyword or taken twice");
    std::map<size_t, std::vector<std::string>> byIndex;
    std::string kinds;
    for (const auto& [op, g] : uses) {
      if ((g->arity == Arity::Variadic) != variadic) fail("operand group " + name + " is variadic in some ops only");
      byIndex[g->index].push_back(op->kind);
      kinds += (kinds.empty() ? "" : ", ") + op->mnemonic;
    }
    // A variadic group is the accessor; a single operand's group is NAMEGroup.
    std::string fn = n + (variadic ? "" : "Group");
    os << "\n// " << name << ": " << kinds << ".\n";
    os << "inline llvm::ArrayRef<Operand> " << fn << "(const Operation& op) {\n"
       << "  if (!op.info) return {};\n  switch (op.info->kind) {\n";
    for (const auto& [index, kindList] : byIndex) {
      for (const std::string& k : kindList) os << "    case OpKind::" << k << ":\n";
      os << "      return operandGroupAt(op, " << index << ");\n";
    }
    os << "    default:\n      return {};\n  }\n}\n";
    if (variadic) continue;
    writeGroupAccessors(os, {name, Arity::One, 0}, fn + "(op)", "inline ", "(const Operation& op)");
  }
  os << "\n}  // namespace operands\n";
  // For the verifier's rules, which read a group as far as it was written
  // (rules::OpRef) where these accessors give an op that does not match its row nothing.
  os << "\n// The operand groups' names, as the op table spells them.\nnamespace group_names {\n\n";
  for (const auto& [name, uses] : byName)
    os << "inline constexpr std::string_view " << camel(name) << " = \"" << name << "\";\n";
  os << "\n}  // namespace group_names\n";
}

// attrs::NAME(op): attribute NAME of op, wherever it was written.
void writeAttrsByName(std::ostream& os, const std::vector<Op>& ops) {
  std::map<std::string, std::string> kinds;
  for (const Op& op : ops)
    for (const std::string& a : op.attrs) kinds[a] += (kinds[a].empty() ? "" : ", ") + op.mnemonic;
  for (std::string_view names : kAnyOpAttrs)
    for (std::string_view a : words(names)) kinds[std::string(a)] = "any op";
  os << "\nnamespace attrs {\n\n";
  for (const auto& [name, where] : kinds) {
    if (isKeyword(camel(name))) fail("attribute " + name + " has a C++ keyword for a name");
    os << "// " << name << ": " << where << ".\n"
       << "inline const Attr* " << camel(name) << "(const Operation& op) { return op.attr(\"" << name << "\"); }\n";
  }
  os << "\n}  // namespace attrs\n";
  // For the code that needs the name itself: a keyword attribute's default in the format (attr_values.h).
  os << "\n// The attributes' names, as the op table spells them.\nnamespace attr_names {\n\n";
  for (const auto& [name, where] : kinds)
    os << "inline constexpr std::string_view " << camel(name) << " = \"" << name << "\";\n";
  os << "\n}  // namespace attr_names\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) fail("usage: opgen OUTPUT_HEADER");
  std::vector<Op> ops = readOps();
  checkEncodings(ops);
  std::ostringstream os;
  os << kPreamble;
  for (const Op& op : ops) writeView(os, op);
  writeOperandsByName(os, ops);
  writeAttrsByName(os, ops);
  os << "\n}  // namespace tilesight\n";
  std::ifstream old(argv[1]);
  std::stringstream current;
  current << old.rdbuf();
  if (old && current.str() == os.str()) return 0;
  std::ofstream out(argv[1]);
  out << os.str();
  return out ? 0 : 1;
}
