// Types: short (`tile<4xf32>`) and long (`!cuda_tile.tile<4xf32>`) spellings,
// builtin scalars, function types, and anything else kept as opaque text.
#include <cctype>
#include <utility>

#include "analysis/diag/fixes.h"
#include "analysis/ir/keywords.h"
#include "analysis/source/source_text.h"
#include "analysis/syntax/parser.h"

namespace tilesight {

namespace {
bool isCudaTileTypeName(std::string_view n) {
  for (std::string_view t : cudaTileTypeNames())
    if (n == t) return true;
  return false;
}
}  // namespace

bool Parser::atType() const {
  if (tok_.is(Tok::BangId) || tok_.is(Tok::LParen)) return true;
  return tok_.is(Tok::BareId) && isTypeKeyword(tok_.text);
}

uint32_t Parser::typeSpanEnd() const {
  std::string_view name = tok_.text;
  if (tok_.is(Tok::BangId) && name.starts_with("!cuda_tile.")) name.remove_prefix(11);
  else if (!tok_.is(Tok::BareId)) return 0;
  if (name == "token" || !isCudaTileTypeName(name) || tok_.end >= lex_.end() || text_[tok_.end] != '<') return 0;
  int depth = 0;
  for (uint32_t p = tok_.end; p < lex_.end(); ++p) {
    char c = text_[p];
    if (c == '<') ++depth;
    else if (c == '>' && --depth == 0) return p + 1;
    else if (isLineEnd(c) || c == '{' || c == '}' || c == '%') return 0;
  }
  return 0;
}

TypeRef Parser::parseType() {
  uint32_t end = typeSpanEnd();
  if (end == 0) return parseTypeUncached();
  uint32_t begin = tok_.begin;
  llvm::StringRef key(text_.data() + begin, end - begin);
  auto hit = typeCache_.find(key);
  if (hit != typeCache_.end()) {
    for (const auto& [r, t] : hit->second.uses)
      out_.side.add({Occurrence::TypeUse, false, {r.begin + begin, r.end + begin}, kNoId, kNoId, t});
    lex_.resetTo(end);
    lastEnd_ = end;
    tok_ = lex_.next();
    return hit->second.type;
  }
  size_t occBefore = out_.side.occurrences.size();
  size_t diagsBefore = diags_.all().size();
  TypeRef t = parseTypeUncached();
  if (t && lastEnd_ == end && diags_.all().size() == diagsBefore) {
    CachedType c{t, {}};
    for (size_t i = occBefore; i < out_.side.occurrences.size(); ++i) {
      const Occurrence& o = out_.side.occurrences[i];
      c.uses.push_back({{o.range.begin - begin, o.range.end - begin}, o.type});
    }
    typeCache_.try_emplace(key, std::move(c));
  }
  return t;
}

TypeRef Parser::parseTypeUncached() {
  Nesting nesting(*this);
  if (!nesting.ok) return nullptr;
  Range start = tok_.range();
  std::string_view name;
  if (tok_.is(Tok::BangId)) {
    std::string_view t = tok_.text;
    if (t.starts_with("!cuda_tile.")) {
      name = t.substr(11);
    } else {
      auto alias = typeAliases_.find(std::string(t));
      if (alias != typeAliases_.end()) {
        out_.side.add({Occurrence::Alias, false, tok_.range(), kNoId, kNoId, nullptr});
        consume();
        return alias->second;
      }
      std::string text(t);
      consume();
      if (tok_.is(Tok::Less) && tok_.begin == lastEnd_) text += balancedText();
      return out_.program.types.opaque(text);
    }
  } else if (tok_.is(Tok::BareId)) {
    name = tok_.text;
  } else if (tok_.is(Tok::LParen)) {
    return parseFunctionType();
  } else {
    expectedHere("a type");
    return nullptr;
  }
  if (!isCudaTileTypeName(name)) {
    if (auto e = elemFromName(name)) {
      consume();
      return out_.program.types.scalar(*e);
    }
    if (tok_.is(Tok::BangId)) {
      Diagnostic& d = error(tok_.range(), "unknown cuda_tile type '" + std::string(name) + "'");
      if (auto fix = closestWord(name, cudaTileTypeNames()))
        d.fixes.push_back(replaceWithFix({tok_.end - static_cast<uint32_t>(name.size()), tok_.end}, std::string(*fix)));
      consume();
      return nullptr;
    }
    // Builtin types we do not model (tensor<...>, i7, index, none): keep the text.
    std::string text(name);
    consume();
    if (tok_.is(Tok::Less) && tok_.begin == lastEnd_) text += balancedText();
    if (text == "none" || text.find('<') != std::string::npos ||
        (text.size() > 1 && text[0] == 'i' && std::isdigit(static_cast<unsigned char>(text[1]))) ||
        text == "index" || text == "bf16" || text.starts_with("f"))
      return out_.program.types.opaque(text);
    error(start, "unknown type '" + text + "'");
    return nullptr;
  }
  consume();
  if (name == "token") {
    out_.side.add({Occurrence::TypeUse, false, start, kNoId, kNoId, out_.program.types.token()});
    return out_.program.types.token();
  }
  if (!tok_.is(Tok::Less)) {
    expectedHere("'<' after '" + std::string(name) + "'");
    return nullptr;
  }
  TypeRef t = nullptr;
  if (name == "tile") t = parseTileBody(start);
  else if (name == "ptr") {
    consume();
    TypeRef e = parseElementType();
    if (e && e->kind != TypeKind::Scalar) {
      error(start, "pointee of a ptr must be a number type, got " + quoted(e), "type");
      e = nullptr;
    }
    if (!expect(Tok::Greater)) return nullptr;
    t = e ? out_.program.types.ptr(e->elem) : nullptr;
  } else if (name == "tensor_view") t = parseTensorViewBody();
  else if (name == "partition_view") t = parseViewBody(TypeKind::PartitionView);
  else if (name == "strided_view") t = parseViewBody(TypeKind::StridedView);
  else t = parseViewBody(TypeKind::GatherScatterView);
  if (t) out_.side.add({Occurrence::TypeUse, false, {start.begin, lastEnd_}, kNoId, kNoId, t});
  return t;
}

bool Parser::parseTypeList(std::vector<TypeRef>& out) {
  do {
    TypeRef t = parseType();
    if (!t) return false;
    out.push_back(t);
  } while (consumeIf(Tok::Comma));
  return true;
}

// Text of a balanced <...> group starting at the current '<'.
std::string Parser::balancedText() {
  uint32_t b = tok_.begin;
  skipBalanced();
  return std::string(text_.substr(b, lastEnd_ - b));
}

// Dimension lists such as `4x8x` (in tile<4x8xf32>) or `64x64` (in tile=(64x64)).
// MLIR lexes `4x8xf32` as `4` + `x8xf32`, so we scan characters here.
bool Parser::parseDims(std::vector<int64_t>& dims, bool allowDynamic, bool trailingX) {
  uint32_t pos = tok_.begin;
  const uint32_t end = lex_.end();
  auto at = [&](uint32_t p) { return p < end ? text_[p] : '\0'; };
  while (true) {
    char c = at(pos);
    uint32_t dimBegin = pos;
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      bool overflow = false;
      while (std::isdigit(static_cast<unsigned char>(at(pos)))) {
        if (v > (INT64_MAX - 9) / 10) overflow = true;
        else v = v * 10 + (at(pos) - '0');
        ++pos;
      }
      if (overflow) {
        error({dimBegin, pos}, "dimension is too large");
        v = INT64_MAX;
      }
      dims.push_back(v);
    } else if (c == '?') {
      if (!allowDynamic) error({pos, pos + 1}, "expected static shape: '?' is not allowed here");
      dims.push_back(kDynamic);
      ++pos;
    } else {
      break;
    }
    if (at(pos) == 'x') {
      ++pos;
      continue;
    }
    if (trailingX) {
      lex_.resetTo(pos);
      tok_ = lex_.next();
      expectedHere("'x' in dimension list");
      return false;
    }
    break;
  }
  lex_.resetTo(pos);
  tok_ = lex_.next();
  return true;
}

TypeRef Parser::parseElementType() {
  if (tok_.is(Tok::BareId) && tok_.text == "ptr") return parseType();
  if (tok_.is(Tok::BangId) && tok_.text == "!cuda_tile.ptr") return parseType();
  if (tok_.is(Tok::BareId)) {
    if (auto e = elemFromName(tok_.text)) {
      consume();
      return out_.program.types.scalar(*e);
    }
    Diagnostic& d = error(tok_.range(), "'" + std::string(tok_.text) + "' is not a Tile IR element type", "type");
    if (auto fix = closestWord(tok_.text, elementTypeNames()))
      d.fixes.push_back(replaceWithFix(tok_.range(), std::string(*fix)));
    consume();
    return nullptr;
  }
  expectedHere("an element type");
  return nullptr;
}

TypeRef Parser::parseTileBody(Range start) {
  consume();  // '<'
  std::vector<int64_t> dims;
  if (!parseDims(dims, false, true)) return nullptr;
  TypeRef e = parseElementType();
  if (!expect(Tok::Greater)) return nullptr;
  if (!e) return nullptr;
  for (int64_t d : dims)
    if (d == kDynamic) return nullptr;
  return out_.program.types.tile(std::move(dims), e);
}

TypeRef Parser::parseTensorViewBody() {
  consume();  // '<'
  std::vector<int64_t> dims, strides;
  if (!parseDims(dims, true, true)) return nullptr;
  TypeRef e = parseElementType();
  if (!e) return nullptr;
  if (e->kind != TypeKind::Scalar) {
    error(tok_.range(), "tensor_view element type must be a number type, got " + quoted(e), "type");
    return nullptr;
  }
  if (consumeIf(Tok::Comma)) {
    Range kw = tok_.range();
    if (!expectKeyword("strides") || !expect(Tok::Equal) || !expect(Tok::LSquare)) return nullptr;
    if (dims.empty()) error(kw, "a 0-d tensor_view takes no strides", "type");
    if (!tok_.is(Tok::RSquare)) {
      do {
        if (consumeIf(Tok::Question)) { strides.push_back(kDynamic); continue; }
        Range r = tok_.range();
        int64_t v = 0;
        if (!parseIntValue(v)) return nullptr;
        if (v <= 0) error(r, "tensor_view strides must be strictly positive, got " + std::to_string(v), "type");
        strides.push_back(v);
      } while (consumeIf(Tok::Comma));
    }
    if (!expect(Tok::RSquare)) return nullptr;
  } else if (!dims.empty()) {
    expectedHere("', strides=[...]' (a tensor_view of rank " + std::to_string(dims.size()) + " needs strides)");
    return nullptr;
  }
  if (!expect(Tok::Greater)) return nullptr;
  return out_.program.types.tensorView(e->elem, std::move(dims), std::move(strides));
}

static Padding paddingFromName(std::string_view n, bool& ok) {
  ok = true;
  for (auto p = static_cast<unsigned>(Padding::Zero); p <= static_cast<unsigned>(Padding::NegInf); ++p)
    if (paddingName(static_cast<Padding>(p)) == n) return static_cast<Padding>(p);
  ok = false;
  return Padding::None;
}

TypeRef Parser::parseViewBody(TypeKind kind) {
  consume();  // '<'
  std::vector<int64_t> tile, traversal, dimMap;
  Padding pad = Padding::None;
  if (tok_.is(Tok::BareId) && tok_.text == "masked") {
    if (!std::exchange(saidMasked_, true))
      diags_.warning(tok_.range(), "syntax",
                     "`masked` is how bytecode decoders print a view that pads its partial tiles without printing "
                     "the padding value; NVIDIA's text form names it (`padding_value = zero, ` before the "
                     "tensor_view). Every `masked` view of this program is read as padding with an unknown value: "
                     "the checks take the padded elements as defined, `run` as unspecified");
    consume();
    pad = Padding::Unknown;
  }
  if (!expectKeyword("tile") || !expect(Tok::Equal) || !expect(Tok::LParen)) return nullptr;
  if (!parseDims(tile, false, false) || !expect(Tok::RParen) || !expect(Tok::Comma)) return nullptr;
  if (kind == TypeKind::StridedView) {
    if (!expectKeyword("traversal_strides") || !expect(Tok::Equal) || !expect(Tok::LSquare) ||
        !parseIntList(Tok::RSquare, traversal) || !expect(Tok::RSquare) || !expect(Tok::Comma))
      return nullptr;
  }
  if (pad == Padding::None && consumeKeyword("padding_value")) {
    if (!expect(Tok::Equal)) return nullptr;
    bool ok = false;
    pad = paddingFromName(tok_.is(Tok::BareId) ? tok_.text : std::string_view(), ok);
    if (!ok) {
      Diagnostic& d = error(tok_.range(), "unknown padding_value " + describeToken(tok_) +
                                              "; expected one of zero, neg_zero, nan, pos_inf, neg_inf");
      if (auto fix = tok_.is(Tok::BareId) ? closestWord(tok_.text, paddingValues().words) : std::nullopt)
        d.fixes.push_back(replaceWithFix(tok_.range(), std::string(*fix)));
      return nullptr;
    }
    consume();
    if (!expect(Tok::Comma)) return nullptr;
  }
  Range tvRange = tok_.range();
  TypeRef tv = parseType();
  if (!tv) return nullptr;
  if (tv->kind != TypeKind::TensorView) {
    error(tvRange, "a view is built on a tensor_view, got " + quoted(tv), "type");
    return nullptr;
  }
  int64_t sparse = -1;
  if (kind == TypeKind::GatherScatterView) {
    if (!expect(Tok::Comma) || !expectKeyword("sparse_dim") || !expect(Tok::Equal) || !parseIntValue(sparse))
      return nullptr;
  } else if (consumeIf(Tok::Comma)) {
    if (!expectKeyword("dim_map") || !expect(Tok::Equal) || !expect(Tok::LSquare) ||
        !parseIntList(Tok::RSquare, dimMap) || !expect(Tok::RSquare))
      return nullptr;
  } else {
    for (size_t i = 0; i < tile.size(); ++i) dimMap.push_back(static_cast<int64_t>(i));
  }
  if (!expect(Tok::Greater)) return nullptr;
  auto& ctx = out_.program.types;
  if (kind == TypeKind::PartitionView) return ctx.partitionView(std::move(tile), pad, tv, std::move(dimMap));
  if (kind == TypeKind::StridedView) return ctx.stridedView(std::move(tile), std::move(traversal), pad, tv, std::move(dimMap));
  return ctx.gatherScatterView(std::move(tile), pad, tv, sparse);
}

TypeRef Parser::parseFunctionType() {
  std::vector<TypeRef> inputs, results;
  consume();  // '('
  if (!tok_.is(Tok::RParen) && !parseTypeList(inputs)) return nullptr;
  if (!expect(Tok::RParen) || !expect(Tok::Arrow)) return nullptr;
  if (consumeIf(Tok::LParen)) {
    if (!tok_.is(Tok::RParen) && !parseTypeList(results)) return nullptr;
    if (!expect(Tok::RParen)) return nullptr;
  } else {
    TypeRef r = parseType();
    if (!r) return nullptr;
    results.push_back(r);
  }
  return out_.program.types.function(std::move(inputs), std::move(results));
}

}  // namespace tilesight
