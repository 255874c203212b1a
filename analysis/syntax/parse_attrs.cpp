// Attributes: builtin literals, arrays, dictionaries, dialect attributes, and
// the keyword-style attributes of the op table's format kinds.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "analysis/diag/fixes.h"
#include "analysis/ir/keywords.h"
#include "analysis/syntax/parser.h"

namespace tilesight {

namespace {

bool oneOf(std::string_view s, const std::vector<std::string_view>& set) {
  for (auto v : set)
    if (s == v) return true;
  return false;
}

std::string joined(const std::vector<std::string_view>& set) {
  std::string s;
  for (auto v : set) s += (s.empty() ? "" : ", ") + std::string(v);
  return s;
}

// Parses an integer token text (decimal or hex) without overflow UB.
bool toInt(std::string_view t, int64_t& v, bool& wide) {
  wide = false;
  uint64_t acc = 0;
  bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  for (size_t i = hex ? 2 : 0; i < t.size(); ++i) {
    char c = t[i];
    unsigned d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (std::tolower(c) - 'a' + 10);
    uint64_t base = hex ? 16 : 10;
    if (acc > (UINT64_MAX - d) / base) { wide = true; acc = UINT64_MAX; break; }
    acc = acc * base + d;
  }
  v = static_cast<int64_t>(acc);
  if (!hex && acc > static_cast<uint64_t>(INT64_MAX)) wide = true;
  return true;
}

// -v in two's complement: `-9223372036854775808` is INT64_MIN, and negating
// it (as any wide value) wraps instead of overflowing.
int64_t negated(int64_t v) { return static_cast<int64_t>(0 - static_cast<uint64_t>(v)); }

}  // namespace

bool Parser::parseIntValue(int64_t& v) {
  bool neg = consumeIf(Tok::Minus);
  if (!tok_.is(Tok::Integer)) {
    expectedHere("an integer");
    return false;
  }
  bool wide = false;
  toInt(tok_.text, v, wide);
  bool minInt = neg && wide && tok_.text == "9223372036854775808";  // INT64_MIN is fine
  if (wide && !minInt) error(tok_.range(), "integer " + std::string(tok_.text) + " does not fit in 64 bits");
  if (neg && !minInt) v = negated(v);
  consume();
  return true;
}

bool Parser::parseIntList(Tok close, std::vector<int64_t>& out, std::vector<Range>* ranges) {
  if (tok_.is(close)) return true;
  do {
    Range r = tok_.range();
    int64_t v = 0;
    if (!parseIntValue(v)) return false;
    out.push_back(v);
    if (ranges) ranges->push_back({r.begin, lastEnd_});
  } while (consumeIf(Tok::Comma));
  return true;
}

bool Parser::parseIntAttrs(Tok close, std::vector<Attr>& out) {
  std::vector<int64_t> values;
  std::vector<Range> ranges;
  if (!parseIntList(close, values, &ranges)) return false;
  for (size_t i = 0; i < values.size(); ++i) {
    Attr e;
    e.kind = AttrKind::Int;
    e.i = values[i];
    e.range = ranges[i];
    out.push_back(std::move(e));
  }
  return true;
}

bool Parser::parseAttrDict(std::vector<NamedAttr>& out) {
  if (!expect(Tok::LBrace)) return false;
  if (consumeIf(Tok::RBrace)) return true;
  do {
    NamedAttr na;
    na.nameRange = tok_.range();
    if (tok_.is(Tok::BareId)) na.name = tok_.text;
    else if (tok_.is(Tok::String)) na.name = tok_.text.substr(1, tok_.text.size() - 2);
    else { expectedHere("an attribute name"); return false; }
    consume();
    if (consumeIf(Tok::Equal)) {
      if (!parseAttribute(na.attr)) return false;
    } else {
      na.attr.kind = AttrKind::Unit;
      na.attr.range = na.nameRange;
    }
    out.push_back(std::move(na));
  } while (consumeIf(Tok::Comma));
  return expect(Tok::RBrace, "'}' or ',' in attribute dictionary");
}

bool Parser::parseAttribute(Attr& a) {
  Nesting nesting(*this);
  if (!nesting.ok) return false;
  uint32_t b = tok_.begin;
  auto finish = [&](bool ok) {
    a.range = {b, lastEnd_};
    // Optional `: type` suffix on numbers and some dialect attributes.
    if (ok && (a.kind == AttrKind::Int || a.kind == AttrKind::Float || a.kind == AttrKind::Bool) &&
        tok_.is(Tok::Colon) && (peekToken().is(Tok::BareId) || peekToken().is(Tok::BangId))) {
      consume();
      a.type = parseType();
      a.range.end = lastEnd_;
      if (!a.type) return false;
    }
    return ok;
  };
  switch (tok_.kind) {
    case Tok::Minus:
    case Tok::Integer:
    case Tok::Float: {
      bool neg = consumeIf(Tok::Minus);
      if (tok_.is(Tok::Integer)) {
        a.kind = AttrKind::Int;
        toInt(tok_.text, a.i, a.wide);
        if (neg) a.i = negated(a.i);
        a.f = static_cast<double>(a.i);
        a.s = (neg ? "-" : "") + std::string(tok_.text);
      } else if (tok_.is(Tok::Float)) {
        a.kind = AttrKind::Float;
        a.f = std::strtod(std::string(tok_.text).c_str(), nullptr) * (neg ? -1 : 1);
        a.s = (neg ? "-" : "") + std::string(tok_.text);
      } else {
        expectedHere("a number");
        return false;
      }
      consume();
      return finish(true);
    }
    case Tok::String:
      a.kind = AttrKind::String;
      a.s = std::string(tok_.text.substr(1, tok_.text.size() - 2));
      consume();
      return finish(true);
    case Tok::AtId:
      a.kind = AttrKind::Symbol;
      a.s = std::string(tok_.text);
      consume();
      return finish(true);
    case Tok::LSquare: {
      a.kind = AttrKind::Array;
      consume();
      if (!tok_.is(Tok::RSquare)) {
        do {
          Attr e;
          if (!parseAttribute(e)) return false;
          a.elems.push_back(std::move(e));
        } while (consumeIf(Tok::Comma));
      }
      return finish(expect(Tok::RSquare, "']' or ',' in array"));
    }
    case Tok::LBrace:
      a.kind = AttrKind::Dict;
      {
        std::vector<NamedAttr> d;
        if (!parseAttrDict(d)) return false;
        for (auto& na : d) a.dict.push_back({std::string(na.name), std::move(na.attr)});
      }
      return finish(true);
    case Tok::HashId: {
      std::string name(tok_.text);
      Range r = tok_.range();
      consume();
      if (tok_.is(Tok::Less) && tok_.begin == lastEnd_) {
        // Dialect attribute: #cuda_tile.name<...>. Keep the keyword for enums.
        std::string body = balancedText();
        a.kind = AttrKind::Opaque;
        a.s = name + body;
        std::string inner = body.substr(1, body.size() - 2);
        // `#layout<...>` keeps its expression text whole (DESIGN §4).
        bool word = !inner.empty() && name != "#layout";
        for (char c : inner) word &= isIdentChar(c);
        if (word) {
          a.kind = AttrKind::Keyword;
          a.s = inner;
        }
        return finish(true);
      }
      auto it = attrAliases_.find(name);
      if (it == attrAliases_.end()) {
        error(r, "undefined attribute alias '" + name + "'");
        return false;
      }
      out_.side.add({Occurrence::Alias, false, r, kNoId, kNoId, nullptr});
      a = out_.aliases[it->second].value;
      return finish(true);
    }
    case Tok::BareId: {
      std::string_view w = tok_.text;
      if (w == "true" || w == "false") {
        a.kind = AttrKind::Bool;
        a.i = w == "true";
        consume();
        return finish(true);
      }
      if (w == "unit") {
        a.kind = AttrKind::Unit;
        consume();
        return finish(true);
      }
      if (w == "array") {  // array<i32: 1, 2>
        consume();
        if (!expect(Tok::Less)) return false;
        a.kind = AttrKind::DenseArray;
        a.type = parseType();
        if (consumeIf(Tok::Colon) && !parseIntAttrs(Tok::Greater, a.elems)) return false;
        return finish(expect(Tok::Greater));
      }
      if (w == "loc" && peekToken().is(Tok::LParen)) {  // location attribute: kept as text
        consume();
        a.kind = AttrKind::Opaque;
        uint32_t lb = tok_.begin;
        skipBalanced();
        a.s = "loc" + std::string(text_.substr(lb, lastEnd_ - lb));
        return finish(true);
      }
      if (w == "dense" || w == "affine_map" || w == "sparse" || w == "strided" || w == "distinct") {
        consume();
        a.kind = AttrKind::Opaque;
        a.s = std::string(w) + (tok_.is(Tok::Less) ? balancedText() : "");
        bool ok = finish(true);
        if (ok && consumeIf(Tok::Colon)) ok = parseType() != nullptr;
        return ok;
      }
      if (atType()) {
        a.kind = AttrKind::Type;
        a.type = parseType();
        return finish(a.type != nullptr);
      }
      // A bare keyword (enum values inside dialect attributes).
      a.kind = AttrKind::Keyword;
      a.s = std::string(w);
      consume();
      return finish(true);
    }
    case Tok::BangId:
    case Tok::LParen:
      a.kind = AttrKind::Type;
      a.type = parseType();
      return finish(a.type != nullptr);
    default:
      expectedHere("an attribute value");
      return false;
  }
}

// `<E: literal>` of constant and global: nested lists of numbers.
bool Parser::parseDenseLiteral(Attr& a) {
  uint32_t b = tok_.begin;
  if (!expect(Tok::Less)) return false;
  a.kind = AttrKind::Dense;
  TypeRef et = parseElementType();
  if (!et) return false;
  a.s = et->text;
  a.type = et;
  if (!expect(Tok::Colon)) return false;
  // Elements: numbers, true/false, or nested [...] lists.
  std::function<bool(Attr&)> elem = [&](Attr& e) -> bool {
    Nesting nesting(*this);
    if (!nesting.ok) return false;
    e.range = tok_.range();
    if (consumeIf(Tok::LSquare)) {
      e.kind = AttrKind::Array;
      if (!tok_.is(Tok::RSquare)) {
        do {
          Attr sub;
          if (!elem(sub)) return false;
          e.elems.push_back(std::move(sub));
        } while (consumeIf(Tok::Comma));
      }
      e.range.end = tok_.end;
      return expect(Tok::RSquare, "']' or ',' in the literal");
    }
    if (tok_.isKeyword("true") || tok_.isKeyword("false")) {
      e.kind = AttrKind::Bool;
      e.i = tok_.text == "true";
      consume();
      return true;
    }
    bool neg = consumeIf(Tok::Minus);
    if (tok_.is(Tok::Integer)) {
      e.kind = AttrKind::Int;
      toInt(tok_.text, e.i, e.wide);
      if (neg) e.i = negated(e.i);
      e.s = (neg ? "-" : "") + std::string(tok_.text);
    } else if (tok_.is(Tok::Float)) {
      e.kind = AttrKind::Float;
      e.f = std::strtod(std::string(tok_.text).c_str(), nullptr) * (neg ? -1 : 1);
      e.s = (neg ? "-" : "") + std::string(tok_.text);
    } else if (tok_.is(Tok::BareId) && (tok_.text == "inf" || tok_.text == "nan")) {
      e.kind = AttrKind::Float;
      e.f = (tok_.text == "inf" ? HUGE_VAL : NAN) * (neg ? -1 : 1);
      e.s = (neg ? "-" : "") + std::string(tok_.text);
    } else {
      expectedHere("a number in the literal");
      return false;
    }
    e.range = {e.range.begin, tok_.end};
    consume();
    return true;
  };
  Attr body;
  if (!elem(body)) return false;
  if (body.kind == AttrKind::Array) a.elems = std::move(body.elems), a.i = 1;  // i = 1: written as a list
  else a.elems.push_back(std::move(body));
  if (!expect(Tok::Greater)) return false;
  a.range = {b, lastEnd_};
  return true;
}

// Attributes written in the op table's keyword styles (see op_table.h).
bool Parser::parseAttrOfKind(std::string_view kind, std::string_view name, std::vector<NamedAttr>& attrs) {
  NamedAttr na;
  na.name = name;
  na.nameRange = tok_.range();
  Attr& a = na.attr;
  a.range = tok_.range();
  auto keyword = [&](const KeywordSet& set) -> bool {
    if (tok_.is(Tok::BareId) && oneOf(tok_.text, set.words)) {
      a.kind = AttrKind::Keyword;
      a.s = std::string(tok_.text);
      consume();
      return true;
    }
    Diagnostic& d = error(tok_.range(), "expected " + std::string(set.what) + " (" + joined(set.words) + "), found " +
                                            describeToken(tok_));
    if (tok_.is(Tok::BareId))
      if (auto w = closestWord(tok_.text, set.words)) d.fixes.push_back(replaceWithFix(tok_.range(), std::string(*w)));
    return false;
  };
  // `rounding<zero>`: absent (0) unless the leading word is there.
  auto angleKeyword = [&](const KeywordSet& set) -> int {
    if (!tok_.isKeyword(set.angle)) return 0;
    uint32_t b = tok_.begin;
    consume();
    if (!expect(Tok::Less) || !keyword(set) || !expect(Tok::Greater)) return -1;
    a.range = {b, lastEnd_};
    return 1;
  };
  int got = 1;
  if (const KeywordSet* set = keywordSet(kind)) {
    if (!set->angle.empty()) got = angleKeyword(*set);
    else if (kind == "scope?" && !tok_.is(Tok::BareId)) return true;
    else got = keyword(*set) ? 1 : -1;
  } else if (kind == "unit") {
    if (!tok_.isKeyword(name)) return true;
    consume();
    a.kind = AttrKind::Unit;
  } else if (kind == "vis") {
    if (!tok_.isKeyword("public") && !tok_.isKeyword("private")) return true;
    a.kind = AttrKind::Keyword;
    a.s = std::string(tok_.text);
    consume();
  } else if (kind == "int") {
    a.kind = AttrKind::Int;
    if (!parseIntValue(a.i)) return false;
  } else if (kind == "bool") {
    if (!tok_.isKeyword("true") && !tok_.isKeyword("false")) { expectedHere("true or false"); return false; }
    a.kind = AttrKind::Bool;
    a.i = tok_.text == "true";
    consume();
  } else if (kind == "str") {
    if (!tok_.is(Tok::String)) { expectedHere("a string"); return false; }
    a.kind = AttrKind::String;
    a.s = std::string(tok_.text.substr(1, tok_.text.size() - 2));
    consume();
  } else if (kind == "sym") {
    if (!tok_.is(Tok::AtId)) { expectedHere("a symbol name (@name)"); return false; }
    a.kind = AttrKind::Symbol;
    a.s = std::string(tok_.text);
    out_.side.add({Occurrence::Symbol, false, tok_.range(), kNoId, currentOp_, nullptr});
    consume();
  } else if (kind == "arr") {
    a.kind = AttrKind::DenseArray;
    if (!expect(Tok::LSquare) || !parseIntAttrs(Tok::RSquare, a.elems) || !expect(Tok::RSquare)) return false;
  } else if (kind == "dense") {
    if (!parseDenseLiteral(a)) return false;
  } else if (kind == "attr") {
    if (!parseAttribute(a)) return false;
  } else if (kind == "hints") {
    // <sm_100 = {num_cta_in_cga = 2}, ...>
    a.kind = AttrKind::Dict;
    if (!expect(Tok::Less)) return false;
    if (!tok_.is(Tok::Greater)) {
      do {
        if (!tok_.is(Tok::BareId)) { expectedHere("an architecture name such as sm_100"); return false; }
        std::string arch(tok_.text);
        consume();
        Attr d;
        if (!expect(Tok::Equal) || !parseAttribute(d)) return false;
        a.dict.push_back({std::move(arch), std::move(d)});
      } while (consumeIf(Tok::Comma));
    }
    if (!expect(Tok::Greater)) return false;
  } else if (kind == "assume") {
    // div_by<16>, div_by<8, every 2 along 0>, same_elements<[2, 2]>, bounded<0, ?>
    std::string_view w = tok_.is(Tok::BareId) || tok_.is(Tok::HashId) ? tok_.text : std::string_view();
    if (w.starts_with("#cuda_tile.")) w.remove_prefix(11);
    const KeywordSet& preds = assumePredicates();
    if (!oneOf(w, preds.words)) {
      Diagnostic& d = error(tok_.range(), "unknown assume predicate " + describeToken(tok_) +
                                              "; expected div_by, same_elements or bounded");
      if (auto fix = closestWord(w, preds.words))
        d.fixes.push_back(replaceWithFix({tok_.end - static_cast<uint32_t>(w.size()), tok_.end}, std::string(*fix)));
      return false;
    }
    a.kind = AttrKind::Keyword;
    a.s = std::string(w);
    consume();
    if (!expect(Tok::Less)) return false;
    auto param = [&](const char* key) -> bool {
      Attr v;
      v.range = tok_.range();
      if (consumeIf(Tok::Question)) v.kind = AttrKind::Unit;
      else if (tok_.is(Tok::LSquare)) { if (!parseAttribute(v)) return false; }
      else { v.kind = AttrKind::Int; if (!parseIntValue(v.i)) return false; }
      v.range.end = lastEnd_;
      a.dict.push_back({key, std::move(v)});
      return true;
    };
    if (a.s == "div_by") {
      if (!param("divisor")) return false;
      if (consumeIf(Tok::Comma)) {
        if (!expectKeyword("every") || !param("every") || !expectKeyword("along") || !param("along")) return false;
      }
    } else if (a.s == "same_elements") {
      if (!param("values")) return false;
    } else {
      if (!param("lb") || !expect(Tok::Comma) || !param("ub")) return false;
    }
    if (!expect(Tok::Greater)) return false;
  } else {
    error(tok_.range(), "internal: unknown attribute kind '" + std::string(kind) + "'");
    return false;
  }
  if (got < 0) return false;
  if (got == 0) return true;  // optional and absent
  a.range.end = std::max(a.range.end, lastEnd_);
  attrs.push_back(std::move(na));
  return true;
}

}  // namespace tilesight
