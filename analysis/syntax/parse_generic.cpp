// MLIR's generic op form: "dialect.op"(%a, %b) <{props}> ({regions}) {attrs} : (A, B) -> R
#include "analysis/ir/op_accessors.h"
#include "analysis/syntax/parser.h"

namespace tilesight {

namespace {

// Enum attributes print as integers in the generic form of I32EnumAttrs.
void normalizeEnum(NamedAttr& na) {
  static constexpr std::string_view kOrderings[] = {"weak", "relaxed", "acquire", "release", "acq_rel"};
  static constexpr std::string_view kScopes[] = {"tl_blk", "device", "sys"};
  if (na.attr.kind != AttrKind::Int) return;
  auto pick = [&](auto& names) {
    if (na.attr.i >= 0 && static_cast<size_t>(na.attr.i) < std::size(names)) {
      na.attr.kind = AttrKind::Keyword;
      na.attr.s = std::string(names[na.attr.i]);
    }
  };
  if (na.name == "memory_ordering_semantics") pick(kOrderings);
  else if (na.name == "memory_scope") pick(kScopes);
}

// Splits N values over declared groups, using `sizes` when the op spelled them.
std::vector<uint32_t> distribute(const std::vector<GroupDecl>& decls, size_t n, const Attr* sizes) {
  std::vector<uint32_t> out(decls.size(), 0);
  if (sizes && sizes->elems.size() == decls.size()) {
    for (size_t i = 0; i < decls.size(); ++i) out[i] = static_cast<uint32_t>(std::max<int64_t>(0, sizes->elems[i].i));
    return out;
  }
  size_t required = 0, variadic = 0;
  for (const auto& d : decls) {
    required += d.arity == Arity::One;
    variadic += d.arity == Arity::Variadic;
  }
  size_t extra = n > required ? n - required : 0;
  for (size_t i = 0; i < decls.size(); ++i) {
    if (decls[i].arity == Arity::One) out[i] = 1;
    else if (decls[i].arity == Arity::Variadic && variadic == 1) out[i] = static_cast<uint32_t>(extra), extra = 0;
    else if (extra > 0) out[i] = 1, --extra;
  }
  return out;
}

}  // namespace

bool Parser::parseGenericOp(OpState& st, Operation& op) {
  op.generic = true;
  op.nameRange = tok_.range();
  op.name = tok_.text.substr(1, tok_.text.size() - 2);
  st.info = OpTable::get().lookup(op.name);
  if (st.info && op.name.find('.') == std::string_view::npos) st.info = nullptr;  // "addi" alone is not ours
  consume();
  std::vector<ValueUse> uses;
  if (!expect(Tok::LParen)) return false;
  if (!tok_.is(Tok::RParen)) {
    do {
      ValueUse u;
      if (!parseValueUse(u)) return false;
      uses.push_back(std::move(u));
    } while (consumeIf(Tok::Comma));
  }
  if (!expect(Tok::RParen)) return false;
  if (tok_.is(Tok::LSquare)) skipBalanced();  // successors: not used by Tile IR
  if (tok_.is(Tok::Less)) {                   // properties
    consume();
    if (!parseAttrDict(op.attrs) || !expect(Tok::Greater)) return false;
  }
  if (tok_.is(Tok::LParen) && peekToken().is(Tok::LBrace)) {
    consume();
    do {
      Region r;
      genericRegion_ = true;
      bool ok = parseRegion(r, st.id, {}, false);
      genericRegion_ = false;
      st.regions.push_back(std::move(r));
      if (!ok) return false;
    } while (consumeIf(Tok::Comma));
    if (!expect(Tok::RParen)) return false;
  }
  if (tok_.is(Tok::LBrace) && !parseAttrDict(op.attrs)) return false;
  if (!expect(Tok::Colon)) return false;
  Range typeRange = tok_.range();
  TypeRef fn = parseType();
  if (!fn) return false;
  if (fn->kind != TypeKind::Function) {
    error(typeRange, "expected a function type (inputs) -> results, got " + quoted(fn));
    return false;
  }
  for (auto& na : op.attrs) normalizeEnum(na);
  if (fn->inputs.size() != uses.size()) {
    error(typeRange, std::to_string(uses.size()) + " operands but the signature lists " +
                         std::to_string(fn->inputs.size()) + " types");
  }
  for (size_t i = 0; i < uses.size(); ++i)
    op.operands.push_back({resolve(uses[i], i < fn->inputs.size() ? fn->inputs[i] : nullptr), uses[i].range});
  if (st.info) {
    auto segs = distribute(st.info->operands, uses.size(), attrs::operandSegmentSizes(op));
    op.segments.assign(segs.begin(), segs.end());
  }
  st.resultTypes.resize(1);
  st.resultTypes[0].assign(fn->results.begin(), fn->results.end());
  return true;
}

}  // namespace tilesight
