// Interprets the op table's format strings (see ir/op_table.h).
#include "analysis/syntax/parser.h"

namespace tilesight {

namespace {

Tok punctTok(std::string_view lit) {
  if (lit == ",") return Tok::Comma;
  if (lit == "=") return Tok::Equal;
  if (lit == ":") return Tok::Colon;
  if (lit == "->") return Tok::Arrow;
  if (lit == "[") return Tok::LSquare;
  if (lit == "]") return Tok::RSquare;
  if (lit == "(") return Tok::LParen;
  if (lit == ")") return Tok::RParen;
  if (lit == "<") return Tok::Less;
  if (lit == ">") return Tok::Greater;
  return Tok::BareId;
}

bool literalMatches(const Token& t, std::string_view lit) {
  Tok k = punctTok(lit);
  return k == Tok::BareId ? t.isKeyword(lit) : t.is(k);
}

}  // namespace

bool Parser::parseFormat(const std::vector<FormatElem>& elems, OpState& st) {
  const OpInfo& info = *st.info;
  for (const FormatElem& e : elems) {
    switch (e.kind) {
      case FormatElem::Literal: {
        if (literalMatches(tok_, e.text)) {
          consume();
          break;
        }
        if (punctTok(e.text) == Tok::BareId) expectedHere("'" + e.text + "'");
        else expect(punctTok(e.text), "'" + e.text + "'");
        return false;
      }
      case FormatElem::Operand: {
        ValueUse u;
        if (!parseValueUse(u)) return false;
        st.operandGroups[e.operandIdx[0]].push_back(u);
        break;
      }
      case FormatElem::OperandList: {
        int g = e.operandIdx[0];
        if (!tok_.is(Tok::PercentId)) break;
        do {
          ValueUse u;
          if (!parseValueUse(u)) return false;
          st.operandGroups[g].push_back(std::move(u));
        } while (tok_.is(Tok::Comma) && peekToken().is(Tok::PercentId) && (consume(), true));
        break;
      }
      case FormatElem::Optional: {
        bool present;
        if (!e.anchor.empty()) {
          int g = info.operandGroup(e.anchor);  // rare: only [?x] groups
          present = g >= 0 && !st.operandGroups[g].empty();
        } else {
          const FormatElem& first = e.children.front();
          if (first.kind == FormatElem::Literal) present = literalMatches(tok_, first.text);
          else present = tok_.is(Tok::PercentId);
          // `[ ',' %x ]`: a comma that starts the next element is not ours.
          if (present && first.kind == FormatElem::Literal && e.children.size() > 1 &&
              (e.children[1].kind == FormatElem::Operand || e.children[1].kind == FormatElem::OperandList))
            present = peekToken().is(Tok::PercentId);
        }
        if (present && !parseFormat(e.children, st)) return false;
        break;
      }
      case FormatElem::Attr:
        if (e.text == "units") {
          while (tok_.is(Tok::BareId)) {
            bool matched = false;
            for (const auto& n : e.names)
              if (tok_.text == n) {
                NamedAttr na{n, {}, tok_.range()};
                na.attr.range = tok_.range();
                st.attrs.push_back(std::move(na));
                consume();
                matched = true;
                break;
              }
            if (!matched) break;
          }
        } else if (!parseAttrOfKind(e.text, e.names[0], st.attrs)) {
          return false;
        }
        break;
      case FormatElem::AttrDict:
        if (tok_.is(Tok::LBrace) && !parseAttrDict(st.attrs)) return false;
        break;
      case FormatElem::AttrDictKw:
        if (consumeKeyword("attributes") && !parseAttrDict(st.attrs)) return false;
        break;
      case FormatElem::Types: {
        TypeRef t = parseType();
        if (!t) return false;
        for (size_t i = 0; i < e.names.size(); ++i) {
          if (e.operandIdx[i] >= 0) st.operandTypes[e.operandIdx[i]] = {t};
          if (e.resultIdx[i] >= 0) st.resultTypes[e.resultIdx[i]] = {t};
        }
        break;
      }
      case FormatElem::TypeList: {
        std::vector<TypeRef> ts;
        if (!parseTypeList(ts)) return false;
        if (e.operandIdx[0] >= 0) {
          st.operandTypes[e.operandIdx[0]].assign(ts.begin(), ts.end());
          st.typeListed |= 1u << e.operandIdx[0];
        }
        if (e.resultIdx[0] >= 0) st.resultTypes[e.resultIdx[0]].assign(ts.begin(), ts.end());
        break;
      }
      case FormatElem::Region:
      case FormatElem::ArgRegion: {
        std::vector<ArgDecl> args;
        if (e.kind == FormatElem::ArgRegion && !parseArgList(args, false)) return false;
        Region region;
        bool ok = parseRegion(region, st.id, args, false);
        st.regions.push_back(std::move(region));
        if (!ok) return false;
        break;
      }
    }
  }
  return true;
}

}  // namespace tilesight
