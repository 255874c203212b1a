#include "analysis/syntax/parser.h"

#include <algorithm>

#include "analysis/diag/fixes.h"
#include "analysis/ir/keywords.h"
#include "analysis/source/source_text.h"

namespace tilesight {

namespace {
constexpr unsigned kMaxDepth = 200;  // deeper nesting is reported, not recursed into

// `!cuda_tile.x`, a type name or an element type: what may follow `:` and `->`.
bool startsType(const Token& t) {
  if (t.is(Tok::BangId)) return true;
  static const std::vector<std::string_view> words = [] {
    std::vector<std::string_view> w = cudaTileTypeNames();
    w.insert(w.end(), elementTypeNames().begin(), elementTypeNames().end());
    return w;
  }();
  return t.is(Tok::BareId) && std::find(words.begin(), words.end(), t.text) != words.end();
}

// What to insert right after the previous token when `k` is missing and the
// token found is one that follows it; empty when the insertion would be a
// guess (an opening bracket, a '}', or a token that does not fit after it).
std::string_view missingTokenText(Tok k, const Token& found, bool lineEnd) {
  bool operandLike = found.is(Tok::PercentId) || found.is(Tok::BareId) || found.is(Tok::AtId) ||
                     found.is(Tok::Integer) || found.is(Tok::Float) || found.is(Tok::String);
  bool follower = found.is(Tok::Colon) || found.is(Tok::Comma) || found.is(Tok::Arrow) || found.is(Tok::LBrace) ||
                  found.is(Tok::RParen) || found.is(Tok::RSquare) || found.is(Tok::Greater);
  switch (k) {
    case Tok::Comma: return !lineEnd && operandLike ? "," : "";
    case Tok::Colon: return !lineEnd && startsType(found) ? " :" : "";
    case Tok::Arrow: return !lineEnd && startsType(found) ? " ->" : "";
    case Tok::Equal: return !lineEnd && operandLike ? " =" : "";
    case Tok::RParen: return lineEnd || follower ? ")" : "";
    case Tok::RSquare: return lineEnd || follower ? "]" : "";
    case Tok::Greater: return lineEnd || follower ? ">" : "";
    default: return {};
  }
}

// `arith.addi` means cuda_tile.addi; `subbi` is a typo of an op name. The
// suggestion keeps the spelling's form (with or without the dialect).
std::optional<Fix> opNameFix(std::string_view name, Range r) {
  size_t dot = name.rfind('.');
  std::string_view mnemonic = dot == std::string_view::npos ? name : name.substr(dot + 1);
  bool cudaTile = name.starts_with("cuda_tile.");
  std::optional<std::string_view> op;
  if (dot != std::string_view::npos && !cudaTile && OpTable::get().lookup(mnemonic)) {
    op = mnemonic;
  } else {
    std::vector<std::string_view> names;
    for (const OpInfo& info : OpTable::get().all()) names.push_back(info.name);
    op = closestWord(mnemonic, names);
  }
  if (!op) return std::nullopt;
  return replaceWithFix(r, (dot == std::string_view::npos ? "" : "cuda_tile.") + std::string(*op));
}
}  // namespace

Parser::Nesting::Nesting(Parser& parser) : p(parser), ok(++parser.depth_ <= kMaxDepth) {
  if (!ok) p.error(p.tok_.range(), "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
}

bool recovered(const ParseResult& pr) {
  return pr.recoveredOutsideItems ||
         std::any_of(pr.items.begin(), pr.items.end(), [](const ItemParse& i) { return i.recovered; });
}

void parseChunk(std::string_view text, uint32_t begin, uint32_t end, ParseResult& out, DiagSink& diags) {
  // Ops and values are stored by value in vectors: size them once (about one
  // op per 40 bytes of text) so growth rarely copies them.
  out.program.ops.reserve(out.program.ops.size() + (end - begin) / 40 + 16);
  out.program.values.reserve(out.program.values.size() + (end - begin) / 40 + 16);
  out.side.occurrences.reserve(out.side.occurrences.size() + (end - begin) / 12 + 16);
  Parser p(text, begin, end, out, diags);
  p.parseTopLevel();
}

ItemParse parseModuleItem(std::string_view text, uint32_t begin, uint32_t end, OpId module, uint32_t lastEnd,
                          ParseResult& out, DiagSink& diags) {
  Parser p(text, begin, end, out, diags);
  return p.parseItemAt(module, lastEnd);
}

Parser::Parser(std::string_view text, uint32_t begin, uint32_t end, ParseResult& out, DiagSink& diags)
    : text_(text), lex_(text, begin, end), out_(out), diags_(diags) {
  lastEnd_ = begin;
  tok_ = lex_.next();
}

// --- tokens ---------------------------------------------------------------

void Parser::consume() {
  lastEnd_ = tok_.end;
  tok_ = lex_.next();
}

bool Parser::consumeIf(Tok k) {
  if (!tok_.is(k)) return false;
  consume();
  return true;
}

bool Parser::consumeKeyword(std::string_view kw) {
  if (!tok_.isKeyword(kw)) return false;
  consume();
  return true;
}

Token Parser::peekToken() {
  Lexer copy = lex_;
  return copy.next();
}


Diagnostic& Parser::error(Range r, std::string msg, std::string code) {
  return diags_.error(r, std::move(code), std::move(msg));
}

void Parser::expectedHere(std::string_view what) {
  // At the offending token, as MLIR tools report it; at end of input, after the last token.
  Range r = tok_.is(Tok::Eof) ? Range{lastEnd_, lastEnd_} : tok_.range();
  error(r, "expected " + std::string(what) + ", found " + describeToken(tok_));
}

bool Parser::expect(Tok k, std::string_view what) {
  if (consumeIf(k)) return true;
  std::string w(what.empty() ? std::string_view(tokName(k)) : what);
  // Missing punctuation is reported right after the previous token when the
  // next one starts a new line (the line that lacks it), as MLIR does.
  bool newLine = hasLineEnd(text_.substr(lastEnd_, tok_.begin - lastEnd_));
  Range r = tok_.is(Tok::Eof) || newLine ? Range{lastEnd_, lastEnd_} : tok_.range();
  Diagnostic& d = error(r, "expected " + w + ", found " + describeToken(tok_));
  if (std::string_view insert = missingTokenText(k, tok_, newLine || tok_.is(Tok::Eof)); !insert.empty())
    d.fixes.push_back(insertFix(lastEnd_, std::string(insert), std::string("insert ") + tokName(k)));
  return false;
}

bool Parser::expectKeyword(std::string_view kw) {
  if (consumeKeyword(kw)) return true;
  expectedHere("'" + std::string(kw) + "'");
  return false;
}

// --- values -----------------------------------------------------------------

bool Parser::parseValueUse(ValueUse& u) {
  if (!tok_.is(Tok::PercentId)) {
    expectedHere("an SSA value");
    return false;
  }
  u.name = tok_.text;
  u.range = tok_.range();
  consume();
  // `%x#1`: the hash must touch the name.
  if (tok_.is(Tok::HashId) && tok_.begin == u.range.end && tok_.text.size() > 1 &&
      std::isdigit(static_cast<unsigned char>(tok_.text[1]))) {
    u.range.end = tok_.end;
    u.name = text_.substr(u.range.begin, u.range.end - u.range.begin);
    consume();
  }
  return true;
}

ValueId Parser::resolve(const ValueUse& u, TypeRef expected) {
  ValueId id = kNoId;
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->names.find(llvm::StringRef(u.name));
    if (f != it->names.end()) {
      id = f->second;
      break;
    }
    if (it->isolated) break;
  }
  if (id == kNoId) {
    Diagnostic& d = error(u.range, "use of undefined value '" + std::string(u.name) + "'");
    if (auto fix = valueNameFix(u)) d.fixes.push_back(std::move(*fix));
    return kNoId;
  }
  out_.side.add({Occurrence::Value, false, u.range, id, kNoId, nullptr});
  TypeRef have = out_.program.values[id].type;
  if (expected && have && expected != have) {
    auto& d = diags_.error(u.range, "type",
                           "'" + std::string(u.name) + "' has type " + quoted(have) + ", but this operation uses it as " +
                               quoted(expected));
    d.notes.push_back({out_.program.values[id].range, "'" + std::string(u.name) + "' is defined here"});
  }
  return id;
}

// The visible name an undefined use most likely meant (`%vaule` for `%value`).
// Each search compares against every visible name, so a chunk gets a bounded
// number of comparisons: thousands of undefined uses in a large function
// (a deleted definition) must not cost seconds.
std::optional<Fix> Parser::valueNameFix(const ValueUse& u) {
  std::vector<std::string_view> names;
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    for (const auto& entry : it->names) names.push_back(std::string_view(entry.first).substr(1));
    if (it->isolated) break;
  }
  if (names.size() > typoBudget_) return std::nullopt;
  typoBudget_ -= static_cast<uint32_t>(names.size());
  auto fix = closestWord(u.name.substr(1), names);
  if (!fix) return std::nullopt;
  return replaceWithFix(u.range, "%" + std::string(*fix));
}

ValueId Parser::defineValue(std::string_view name, Range r, TypeRef t, OpId owner, uint32_t index, bool blockArg) {
  Value v;
  v.type = t;
  v.range = r;
  v.name = name;
  v.owner = owner;
  v.index = index;
  v.blockArg = blockArg;
  ValueId id = static_cast<ValueId>(out_.program.values.size());
  out_.program.values.push_back(std::move(v));
  if (!name.empty() && !scopes_.empty()) {
    // Names view the text or Program::names, both of which outlive the parse.
    auto [it, fresh] = scopes_.back().names.try_emplace(llvm::StringRef(name.data(), name.size()), id);
    if (!fresh) {
      auto& d = diags_.error(r, "syntax", "redefinition of SSA value '" + std::string(name) + "'");
      d.notes.push_back({out_.program.values[it->second].range, "previously defined here"});
      it->second = id;
    }
  }
  out_.side.add({Occurrence::Value, true, r, id, owner, nullptr});
  return id;
}

bool Parser::parseArgList(std::vector<ArgDecl>& args, bool allowAttrs) {
  if (!expect(Tok::LParen)) return false;
  if (consumeIf(Tok::RParen)) return true;
  do {
    ArgDecl a;
    if (!parseValueUse(a.name) || !expect(Tok::Colon)) return false;
    a.type = parseType();
    if (!a.type) return false;
    if (allowAttrs && tok_.is(Tok::LBrace)) {
      std::vector<NamedAttr> ignored;
      if (!parseAttrDict(ignored)) return false;
    }
    skipLocTrailer();
    args.push_back(std::move(a));
  } while (consumeIf(Tok::Comma));
  return expect(Tok::RParen);
}

// --- regions and blocks ----------------------------------------------------------

bool Parser::parseRegion(Region& region, OpId owner, const std::vector<ArgDecl>& args, bool isolated) {
  Range open = tok_.range();
  if (!expect(Tok::LBrace)) return false;
  Nesting nesting(*this);
  if (!nesting.ok) {
    recover();
    return false;
  }
  scopes_.emplace_back();
  scopes_.back().isolated = isolated;
  region.range.begin = open.begin;
  bool generic = genericRegion_;
  genericRegion_ = false;  // nested regions are not the generic op's own
  // The generic form can spell a region with no block at all: `({ })`.
  if (generic && tok_.is(Tok::RBrace) && args.empty()) {
    region.range.end = tok_.end;
    consume();
    scopes_.pop_back();
    return true;
  }
  region.blocks.emplace_back();
  region.blocks.back().range.begin = open.begin;
  for (uint32_t i = 0; i < args.size(); ++i)
    region.blocks.back().args.push_back(defineValue(args[i].name.name, args[i].name.range, args[i].type, owner, i, true));
  while (!tok_.is(Tok::RBrace) && !tok_.is(Tok::Eof)) {
    if (tok_.is(Tok::CaretId)) {  // block label (generic form): ^bb0(%a: T):
      Block* blk = &region.blocks.back();
      if (!blk->ops.empty() || !blk->args.empty()) {
        region.blocks.emplace_back();
        blk = &region.blocks.back();
      }
      out_.side.add({Occurrence::BlockLabel, true, tok_.range(), kNoId, owner, nullptr});
      consume();
      std::vector<ArgDecl> bargs;
      if (tok_.is(Tok::LParen) && !parseArgList(bargs, false)) { recover(); continue; }
      for (uint32_t i = 0; i < bargs.size(); ++i)
        region.blocks.back().args.push_back(defineValue(bargs[i].name.name, bargs[i].name.range, bargs[i].type, owner, i, true));
      if (!expect(Tok::Colon)) recover();
      continue;
    }
    parseItems(region.blocks.back(), owner, false);
  }
  region.range.end = tok_.end;
  for (Block& b : region.blocks) b.range.end = tok_.end;
  expect(Tok::RBrace, "'}' to close the region opened here");
  scopes_.pop_back();
  return true;
}

// Parses ops until a '}' / EOF / block label (the block's end).
void Parser::parseItems(Block& block, OpId owner, bool topLevel) {
  bool items = owner != kNoId && owner == moduleBody_;
  while (!tok_.is(Tok::RBrace) && !tok_.is(Tok::Eof) && !tok_.is(Tok::CaretId)) {
    if (items) {
      out_.items.push_back(parseItem(block, owner));
      continue;
    }
    uint32_t before = tok_.begin;
    if (topLevel && (tok_.is(Tok::HashId) || tok_.is(Tok::BangId))) {
      parseAliasDef();
    } else if (!parseOperation(block, owner)) {
      recover();
    }
    if (tok_.begin == before && !tok_.is(Tok::Eof) && !tok_.is(Tok::RBrace)) consume();  // always progress
  }
}

ItemParse Parser::parseItem(Block& block, OpId owner) {
  typoBudget_ = kTypoBudget;
  saidMasked_ = false;
  const Program& p = out_.program;
  ItemParse item;
  OpId first = static_cast<OpId>(p.ops.size());
  item.valueBegin = static_cast<ValueId>(p.values.size());
  item.sideBegin = static_cast<uint32_t>(out_.side.occurrences.size());
  item.diagBegin = static_cast<uint32_t>(diags_.all().size());
  uint32_t before = tok_.begin, recoveriesBefore = recoveries_;
  item.ok = parseOperation(block, owner);
  if (!item.ok) recover();
  if (tok_.begin == before && !tok_.is(Tok::Eof) && !tok_.is(Tok::RBrace)) consume();  // always progress
  item.recovered = recoveries_ != recoveriesBefore;
  itemRecoveries_ += recoveries_ - recoveriesBefore;
  item.op = p.ops.size() > first ? first : kNoId;
  item.opEnd = static_cast<OpId>(p.ops.size());
  item.valueEnd = static_cast<ValueId>(p.values.size());
  item.sideEnd = static_cast<uint32_t>(out_.side.occurrences.size());
  item.diagEnd = static_cast<uint32_t>(diags_.all().size());
  return item;
}

ItemParse Parser::parseItemAt(OpId module, uint32_t lastEnd) {
  lastEnd_ = lastEnd;
  for (size_t i = 0; i < out_.aliases.size() && out_.aliases[i].nameRange.begin < tok_.begin; ++i)
    attrAliases_[std::string(out_.aliases[i].name)] = i;
  for (const TypeAliasDef& t : out_.typeAliases)
    if (t.at < tok_.begin) typeAliases_[t.name] = t.type;
  // The scopes of a module's body: the file's and the module's, both isolated.
  scopes_.resize(2);
  scopes_[0].isolated = scopes_[1].isolated = true;
  moduleBody_ = currentOp_ = module;
  depth_ = 1;  // inside the module's region
  Block block;
  return parseItem(block, module);
}

void Parser::parseTopLevel() {
  scopes_.emplace_back();
  scopes_.back().isolated = true;
  Block top;
  parseItems(top, kNoId, true);
  while (!tok_.is(Tok::Eof)) {  // stray closing braces at top level
    errorHere("unexpected " + describeToken(tok_) + " at top level");
    ++recoveries_;
    consume();
    parseItems(top, kNoId, true);
  }
  if (recoveries_ != itemRecoveries_) out_.recoveredOutsideItems = true;
  out_.program.topLevel = std::move(top.ops);
  scopes_.pop_back();
}

void Parser::parseAliasDef() {
  bool isType = tok_.is(Tok::BangId);
  std::string name(tok_.text);
  Range r = tok_.range();
  consume();
  if (!expect(Tok::Equal)) { recover(); return; }
  out_.side.add({Occurrence::Alias, true, r, kNoId, kNoId, nullptr});
  if (isType) {
    TypeRef t = parseType();
    if (t) {
      typeAliases_[name] = t;
      out_.typeAliases.push_back({name, r.begin, t});
    }
    else recover();
    return;
  }
  Attr a;
  if (!parseAttribute(a)) {
    recover();
    return;
  }
  attrAliases_[name] = out_.aliases.size();
  out_.aliases.push_back({text_.substr(r.begin, r.end - r.begin), r, std::move(a)});
}

// --- recovery ----------------------------------------------------------------

bool Parser::atOpStart() const {
  if (tok_.is(Tok::PercentId) || tok_.is(Tok::String) || tok_.is(Tok::CaretId)) return true;
  if (tok_.is(Tok::BareId)) return OpTable::get().lookup(tok_.text) || tok_.text.find('.') != std::string_view::npos;
  return false;
}

// Skips to the next op that starts a line, or to the '}' closing the current block.
void Parser::recover() {
  ++recoveries_;
  int depth = 0;
  uint32_t start = tok_.begin;
  while (!tok_.is(Tok::Eof)) {
    if (depth == 0 && tok_.is(Tok::RBrace)) return;
    bool lineStart = hasLineEnd(text_.substr(lastEnd_, tok_.begin - lastEnd_));
    if (depth == 0 && lineStart && atOpStart() && tok_.begin != start) return;
    if (depth == 0 && lineStart && atOpStart() && tok_.begin == start && lastEnd_ < start) return;
    if (tok_.is(Tok::LBrace)) ++depth;
    if (tok_.is(Tok::RBrace)) --depth;
    consume();
  }
}

void Parser::skipLocTrailer() {
  if (!tok_.isKeyword("loc") || !peekToken().is(Tok::LParen)) return;
  consume();
  skipBalanced();
}

void Parser::skipBalanced() {
  Tok open = tok_.kind;
  Tok close = open == Tok::LParen ? Tok::RParen : open == Tok::LSquare ? Tok::RSquare
            : open == Tok::LBrace ? Tok::RBrace : open == Tok::Less ? Tok::Greater : Tok::Eof;
  consume();
  if (close == Tok::Eof) return;
  int depth = 1;
  while (depth > 0 && !tok_.is(Tok::Eof)) {
    if (tok_.is(open)) ++depth;
    else if (tok_.is(close)) --depth;
    consume();
  }
}

// --- operations -------------------------------------------------------------------

bool Parser::parseResultNames(llvm::SmallVectorImpl<ResultName>& names) {
  do {
    if (!tok_.is(Tok::PercentId)) {
      expectedHere("a result name");
      return false;
    }
    ResultName n{tok_.text, 1, tok_.range()};
    consume();
    if (tok_.is(Tok::Colon) && peekToken().is(Tok::Integer)) {
      consume();
      n.count = static_cast<uint32_t>(std::min<uint64_t>(std::strtoull(std::string(tok_.text).c_str(), nullptr, 10), 4096));
      n.range.end = tok_.end;
      consume();
    }
    names.push_back(std::move(n));
  } while (consumeIf(Tok::Comma));
  return expect(Tok::Equal);
}

bool Parser::parseOperation(Block& block, OpId parent) {
  OpState st;
  uint32_t opBegin = tok_.begin;
  if (tok_.is(Tok::PercentId) && !parseResultNames(st.resultNames)) return false;

  st.id = static_cast<OpId>(out_.program.ops.size());
  out_.program.ops.emplace_back();
  out_.program.ops[st.id].parent = parent;
  out_.program.ops[st.id].range.begin = opBegin;
  block.ops.push_back(st.id);
  OpId savedOp = currentOp_;
  currentOp_ = st.id;

  bool ok = false;
  Operation op;
  op.parent = parent;
  if (tok_.is(Tok::String)) {
    ok = parseGenericOp(st, op);
  } else if (tok_.is(Tok::BareId)) {
    std::string_view name = tok_.text;
    op.nameRange = tok_.range();
    if (name == "module" || name == "builtin.module") {  // builtin wrapper: its items are top level
      op.name = "builtin.module";
      consume();
      if (tok_.is(Tok::AtId)) consume();
      if (consumeKeyword("attributes") && !parseAttrDict(op.attrs)) { currentOp_ = savedOp; return false; }
      Range open = tok_.range();
      if (expect(Tok::LBrace)) {
        Block inner;
        parseItems(inner, st.id, true);
        op.regions.emplace_back();
        op.regions.back().range = {open.begin, tok_.end};
        op.regions.back().blocks.push_back(std::move(inner));
        ok = expect(Tok::RBrace, "'}' to close the module");
      }
    } else {
      st.info = OpTable::get().lookup(name);
      op.name = name;
      if (st.info) op.name = st.info->fullName;
      if (!st.info) {
        Diagnostic& d = error(tok_.range(), "unknown operation '" + std::string(name) + "'");
        if (auto fix = opNameFix(name, tok_.range())) d.fixes.push_back(std::move(*fix));
        consume();
      } else {
        consume();
        ok = parseCustomOpBody(st);
      }
    }
  } else {
    expectedHere("an operation");
  }
  if (ok) skipLocTrailer();
  op.range = {opBegin, lastEnd_};
  if (!st.info && !op.generic && op.name != "builtin.module") ok = false;
  finishOp(st, op, ok);
  currentOp_ = savedOp;
  return ok;
}

bool Parser::parseCustomOpBody(OpState& st) {
  const OpInfo& info = *st.info;
  st.operandGroups.resize(info.operands.size());
  st.operandTypes.resize(info.operands.size());
  st.resultTypes.resize(info.results.size());
  if (info.format == "custom") return parseCustom(st);
  return parseFormat(info.syntax, st);
}

void Parser::finishOp(OpState& st, Operation& op, bool ok) {
  op.info = st.info;
  if (op.attrs.empty()) op.attrs = std::move(st.attrs);
  else for (auto& a : st.attrs) op.attrs.push_back(std::move(a));
  for (auto& r : st.regions) op.regions.push_back(std::move(r));
  if (st.info && !op.generic) {
    if (ok) resolveOperands(st, op);
  }
  defineResults(st, op);
  Operation& slot = out_.program.ops[st.id];
  op.parent = slot.parent;
  slot = std::move(op);
  if (!ok) slot.info = nullptr;
}

void Parser::resolveOperands(OpState& st, Operation& op) {
  const OpInfo& info = *st.info;
  op.segments.assign(info.operands.size(), 0);
  for (size_t g = 0; g < info.operands.size(); ++g) {
    const auto& uses = st.operandGroups[g];
    const auto& types = st.operandTypes[g];
    op.segments[g] = static_cast<uint32_t>(uses.size());
    TypeRef built = info.operands[g].constraint.buildable(out_.program.types);
    bool listed = st.typeListed & (1u << g);
    if ((types.size() > 1 || listed) && types.size() != uses.size()) {
      error(uses.empty() ? op.nameRange : uses.front().range,
            std::to_string(uses.size()) + " operands of '" + info.operands[g].name + "' but " +
                std::to_string(types.size()) + " types");
    }
    for (size_t i = 0; i < uses.size(); ++i) {
      TypeRef expected = types.size() == uses.size() ? types[i] : types.size() == 1 ? types[0] : built;
      ValueId v = resolve(uses[i], expected);
      TypeRef have = out_.program.typeOf(v);
      if (v == kNoId || (expected && have && have != expected)) op.broken = true;
      op.operands.push_back({v, uses[i].range});
    }
  }
}

void Parser::defineResults(OpState& st, Operation& op) {
  llvm::SmallVector<TypeRef, 4> types;
  if (st.info && !op.generic) {
    for (size_t g = 0; g < st.resultTypes.size(); ++g) {
      const auto& ts = st.resultTypes[g];
      if (st.info->results[g].arity == Arity::One && ts.empty())
        types.push_back(nullptr);
      else
        types.insert(types.end(), ts.begin(), ts.end());
    }
  } else {
    if (!st.resultTypes.empty()) types.assign(st.resultTypes[0].begin(), st.resultTypes[0].end());
  }
  uint32_t bound = 0;
  for (const auto& n : st.resultNames) bound += n.count;
  bool counted = !st.resultNames.empty();
  if (counted && bound != types.size() && op.info && !st.resultTypes.empty()) {
    Range r{st.resultNames.front().range.begin, st.resultNames.back().range.end};
    error(r, "operation defines " + std::to_string(types.size()) + " result" + (types.size() == 1 ? "" : "s") +
                 " but " + std::to_string(bound) + (bound == 1 ? " name is" : " names are") + " bound");
  }
  // Define every bound name so later uses do not cascade into more errors.
  uint32_t next = 0;
  for (const auto& n : st.resultNames) {
    for (uint32_t k = 0; k < n.count; ++k, ++next) {
      TypeRef t = next < types.size() ? types[next] : nullptr;
      std::string_view key = n.name;
      if (n.count > 1)
        key = *out_.program.names.emplace_back(std::make_unique<std::string>(std::string(n.name) + "#" + std::to_string(k)));
      ValueId id = defineValue(key, n.range, t, st.id, next, false);
      if (n.count > 1 && k == 0 && !scopes_.empty())
        scopes_.back().names.try_emplace(llvm::StringRef(n.name.data(), n.name.size()), id);
      op.results.push_back(id);
    }
  }
  for (; next < types.size(); ++next) op.results.push_back(defineValue("", op.nameRange, types[next], st.id, next, false));
}

}  // namespace tilesight
