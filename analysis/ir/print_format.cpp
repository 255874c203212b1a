// Prints an op from its compiled format (op_table.h): the inverse of
// syntax/parse_format.cpp, element by element.
#include <algorithm>

#include "analysis/ir/print_writer.h"

namespace tilesight::print {

namespace {

struct FormatState {
  Writer& w;
  const Operation& op;
  Claims claims;
  std::vector<const FormatElem*> shown;  // optional groups that print
  size_t region = 0;                     // next region of the op
};

bool present(const FormatElem& opt, const FormatState& s);

// Whether elements hold something the op has: an operand or an attribute.
bool holdsSomething(const std::vector<FormatElem>& elems, const FormatState& s) {
  for (const FormatElem& e : elems) {
    switch (e.kind) {
      case FormatElem::Operand:
      case FormatElem::OperandList:
        if (!operandGroup(s.op, e.operandIdx[0]).empty()) return true;
        break;
      case FormatElem::Attr:
        for (const std::string& n : e.names)
          if (s.claims.available(n, e.text)) return true;
        break;
      case FormatElem::Optional:
        if (present(e, s)) return true;
        break;
      default: break;
    }
  }
  return false;
}

// An anchored group prints when its operand group is there; another one when
// it holds something (the parser decides on its first token, which is then
// what this prints first).
bool present(const FormatElem& opt, const FormatState& s) {
  if (opt.anchor.empty()) return holdsSomething(opt.children, s);
  int g = s.op.info->operandGroup(opt.anchor);
  return g >= 0 && !operandGroup(s.op, g).empty();
}

// First pass: the attributes the format spells, and the optional groups that
// print. The dictionary can come before attributes it must leave out.
void claim(const std::vector<FormatElem>& elems, FormatState& s) {
  for (const FormatElem& e : elems) {
    if (e.kind == FormatElem::Attr) {
      for (const std::string& n : e.names) s.claims.take(n, e.text);
    } else if (e.kind == FormatElem::Optional && present(e, s)) {
      s.shown.push_back(&e);
      claim(e.children, s);
    }
  }
}

// `t(result=lhs=rhs)`: the type of the first listed group that has a value.
TypeRef groupType(const FormatElem& e, const FormatState& s) {
  for (size_t i = 0; i < e.names.size(); ++i) {
    if (e.operandIdx[i] >= 0)
      if (auto os = operandGroup(s.op, e.operandIdx[i]); !os.empty()) return s.w.program().typeOf(os[0].value);
    if (e.resultIdx[i] >= 0)
      if (auto rs = resultGroup(s.op, e.resultIdx[i]); !rs.empty()) return s.w.program().typeOf(rs[0]);
  }
  return nullptr;
}

std::vector<TypeRef> groupTypes(const FormatElem& e, const FormatState& s) {
  if (e.operandIdx[0] >= 0) return s.w.typesOf(operandGroup(s.op, e.operandIdx[0]));
  return s.w.typesOf(resultGroup(s.op, e.resultIdx[0]));
}

void emitRegion(const FormatElem& e, FormatState& s) {
  if (s.region >= s.op.regions.size()) return;
  const Region& r = s.op.regions[s.region++];
  bool args = e.kind == FormatElem::ArgRegion;
  if (args) s.w.word(r.blocks.empty() ? "()" : s.w.argList(r.blocks.front()));
  s.w.region(r, args ? EntryArgs::ByOp : EntryArgs::ByLabel);
}

void emit(const std::vector<FormatElem>& elems, FormatState& s) {
  for (const FormatElem& e : elems) {
    switch (e.kind) {
      case FormatElem::Literal: s.w.word(e.text); break;
      case FormatElem::Operand:
      case FormatElem::OperandList: s.w.values(operandGroup(s.op, e.operandIdx[0])); break;
      case FormatElem::Optional:
        if (std::find(s.shown.begin(), s.shown.end(), &e) != s.shown.end()) emit(e.children, s);
        break;
      case FormatElem::Attr:
        for (const std::string& n : e.names)
          if (const Attr* a = s.claims.claimed(n)) s.w.word(kindText(e.text, n, *a));
        break;
      case FormatElem::AttrDict: s.w.attrDict(s.op, s.claims, false); break;
      case FormatElem::AttrDictKw: s.w.attrDict(s.op, s.claims, true); break;
      case FormatElem::Types: s.w.type(groupType(e, s)); break;
      case FormatElem::TypeList: s.w.types(groupTypes(e, s)); break;
      case FormatElem::Region:
      case FormatElem::ArgRegion: emitRegion(e, s); break;
    }
  }
}

}  // namespace

void formatOp(Writer& w, const Operation& op) {
  FormatState s{w, op, Claims(op), {}, 0};
  claim(op.info->syntax, s);
  emit(op.info->syntax, s);
}

}  // namespace tilesight::print
