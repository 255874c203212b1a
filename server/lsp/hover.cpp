#include "server/lsp/hover.h"

#include <cctype>
#include <span>

#include "analysis/ir/op_table.h"
#include "analysis/layout/render.h"
#include "server/lsp/mentions.h"
#include "server/lsp/hover_types.h"

namespace tilesight::lsp {

namespace {

namespace ly = tilesight::layout;

bool contains(Range r, uint32_t offset) {
  return r.begin <= offset && offset < r.end;
}

std::string_view textOf(const Snapshot &s, Range r) {
  return s.source->text().substr(r.begin, r.end - r.begin);
}

std::string lineNumber(const Snapshot &s, uint32_t offset) {
  return std::to_string(s.source->lineCol(offset).line + 1);
}

std::string typeText(TypeRef t) {
  return t ? "`" + t->text + "`" : "unknown (after an error)";
}

std::string opName(const Operation &op) {
  return op.info ? op.info->fullName : std::string(op.name);
}

// `%x : type` for each value, separated by commas.
std::string valueList(const Program &p,
                      const llvm::SmallVectorImpl<ValueId> &ids) {
  std::string out;
  for (ValueId id : ids) {
    if (!out.empty())
      out += ", ";
    const Value &v = p.value(id);
    out +=
        (v.name.empty() ? std::string("_") : "`" + std::string(v.name) + "`") +
        " : " + typeText(v.type);
  }
  return out;
}

std::string opHover(const Program &p, const Operation &op) {
  // An op that did not parse (operands missing...) keeps its name: the op
  // table still knows it.
  const OpInfo *info = op.info ? op.info : OpTable::get().lookup(op.name);
  std::string md = "**" + (info ? info->fullName : std::string(op.name)) + "**";
  if (info && !info->doc.empty())
    md += "\n\n" + std::string(info->doc);
  if (!op.operands.empty()) {
    llvm::SmallVector<ValueId, 4> ids;
    for (const Operand &o : op.operands)
      if (o.value != kNoId)
        ids.push_back(o.value);
    md += "\n\noperands: " +
          (ids.empty() ? std::string("none resolved") : valueList(p, ids));
  }
  if (!op.results.empty())
    md += "\n\nresults: " + valueList(p, op.results);
  if (!info && !op.generic)
    md += "\n\nnot a CUDA Tile IR op";
  return md;
}

std::string valueHover(const Snapshot &s, const Program &p, ValueId id) {
  const Value &v = p.value(id);
  std::string md =
      "**" + (v.name.empty() ? std::string("value") : std::string(v.name)) +
      "** : " + typeText(v.type);
  std::string where = "line " + lineNumber(s, v.range.begin);
  if (v.owner == kNoId)
    return md + "\n\ndefined at " + where;
  const Operation &owner = p.op(v.owner);
  if (v.blockArg)
    md += "\n\nblock argument #" + std::to_string(v.index) + " of `" +
          opName(owner) + "`, defined at " + where;
  else
    md += "\n\nresult #" + std::to_string(v.index) + " of `" + opName(owner) +
          "`, defined at " + where;
  return md;
}

std::string yesNo(bool b) { return b ? "yes" : "no"; }

std::string layoutHover(const LayoutAliasFact &f, std::string_view body) {
  const ly::Value &v = f.value;
  std::string md = "**" + std::string(f.name) + "** = `#layout<" +
                   std::string(body) + ">`\n\n";
  md += "layout: `" + ly::valueText(v) + "`";
  if (v.kind == ly::Value::Int || v.kind == ly::Value::TilerValue)
    return md;
  md += "\n\nsize " + std::to_string(ly::size(v.layout));
  if (auto cosize = ly::valueCosize(v); cosize.ok())
    md += ", cosize " + std::to_string(*cosize);
  const ly::Properties &p = f.properties;
  md += "\n\ninjective: " +
        (p.decided ? yesNo(p.injective)
                   : std::string("unknown (too large to decide)")) +
        ", surjective: " + yesNo(p.surjective) +
        ", bijective: " + yesNo(p.bijective);
  if (p.collision)
    md += "\n\ncoordinates " + ly::toString(p.collision->coord1) + " and " +
          ly::toString(p.collision->coord2) + " both map to offset " +
          std::to_string(p.collision->offset);
  if (!v.note.empty())
    md += "\n\n" + v.note;
  return md + "\n\n" + ly::renderMarkdown(v);
}

// The `#name` word around `offset`, if any (alias uses inside layout
// expressions are not in the side table: the expression is text).
std::optional<Range> aliasWordAt(std::string_view text, uint32_t offset) {
  auto word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
  };
  uint32_t b = offset;
  if (b < text.size() && text[b] == '#')
    ++b; // the cursor is on the '#'
  uint32_t e = b;
  while (b > 0 && word(text[b - 1]))
    --b;
  while (e < text.size() && word(text[e]))
    ++e;
  if (b == 0 || text[b - 1] != '#' || e == b)
    return std::nullopt;
  return Range{b - 1, e};
}

std::optional<HoverInfo> aliasHover(const Snapshot &s, const ChunkAnalysis &c,
                                    Range nameRange) {
  std::string_view name = textOf(s, nameRange);
  // The newest definition that precedes the use (or is the definition itself).
  const LayoutAliasFact *best = nullptr;
  for (const LayoutAliasFact &f : c.layouts)
    if (f.name == name && f.nameRange.begin <= nameRange.begin)
      best = &f;
  if (best)
    return HoverInfo{nameRange, layoutHover(*best, textOf(s, best->bodyRange))};
  for (const AliasDef &a : c.parsed.aliases)
    if (a.name == name)
      return HoverInfo{nameRange, "**" + std::string(name) + "** = `" +
                                      std::string(textOf(s, a.value.range)) +
                                      "`"};
  return std::nullopt;
}

// What may hold `offset`: the side-table run and the ops of the module item
// around it when that item parsed cleanly (everything it recorded lies in
// its text, and nothing else does), else the whole chunk's.
struct Candidates {
  std::span<const Occurrence> occurrences;
  OpId firstOp = 0, endOp = 0;
};

Candidates candidatesAt(const ChunkAnalysis &c, uint32_t offset) {
  const ParseResult &pr = c.parsed;
  for (const ItemParse &item : pr.items)
    if (item.ok && item.op != kNoId && contains(pr.program.op(item.op).range, offset))
      return {std::span(pr.side.occurrences).subspan(item.sideBegin, item.sideEnd - item.sideBegin), item.op,
              item.opEnd};
  return {pr.side.occurrences, 0, static_cast<OpId>(pr.program.ops.size())};
}

std::optional<HoverInfo> hoverInChunk(const Snapshot &s, const ChunkAnalysis &c,
                                      uint32_t offset) {
  const Program &p = c.parsed.program;
  Candidates near = candidatesAt(c, offset);
  // Types nest (the tensor_view inside a view type): the innermost wins.
  const Occurrence *type = nullptr;
  for (const Occurrence &o : near.occurrences) {
    if (!contains(o.range, offset))
      continue;
    if (o.kind == Occurrence::Value && o.value != kNoId)
      return HoverInfo{o.range, valueHover(s, p, o.value)};
    if (o.kind == Occurrence::Alias) {
      if (auto h = aliasHover(s, c, o.range))
        return h;
    }
    if (o.kind == Occurrence::TypeUse && o.type &&
        (!type ||
         o.range.end - o.range.begin < type->range.end - type->range.begin))
      type = &o;
  }
  if (type)
    return HoverInfo{type->range, typeHover(*type->type)};
  for (OpId id = near.firstOp; id < near.endOp; ++id)
    if (contains(p.op(id).nameRange, offset))
      return HoverInfo{p.op(id).nameRange, opHover(p, p.op(id))};
  for (const LayoutAliasFact &f : c.layouts) {
    if (!contains(f.bodyRange, offset))
      continue;
    if (auto word = aliasWordAt(s.source->text(), offset))
      return aliasHover(s, c, *word);
  }
  return std::nullopt;
}

} // namespace

std::optional<HoverInfo> hoverAt(const Snapshot &snap, uint32_t offset) {
  const ChunkAnalysis *c = chunkAt(snap, offset);
  return c ? hoverInChunk(snap, *c, offset) : std::nullopt;
}

json hover(const FeatureContext &cx, const json &params) {
  std::optional<HoverInfo> h =
      hoverAt(cx.snap, cx.offsetOf(member(params, "position")));
  if (!h)
    return nullptr;
  return {{"contents", cx.markup(h->markdown, cx.client.markdownHover)},
          {"range", cx.range(h->range)}};
}

} // namespace tilesight::lsp
