#include "server/lsp/completion.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "analysis/layout/expr.h"
#include "analysis/layout/render.h"
#include "server/lsp/completion_context.h"
#include "server/lsp/op_snippets.h"

namespace tilesight::lsp {

namespace {

namespace ly = tilesight::layout;

using Item = CompletionItem;
constexpr CompletionKind kFunction = CompletionKind::Function, kVariable = CompletionKind::Variable,
                         kKeyword = CompletionKind::Keyword, kConstant = CompletionKind::Constant,
                         kTypeParameter = CompletionKind::TypeParameter;

Item plain(std::string label, CompletionKind kind, std::string detail) {
  Item it;
  it.label = std::move(label);
  it.kind = kind;
  it.detail = std::move(detail);
  return it;
}

std::vector<Item> opItems() {
  std::vector<Item> items;
  for (const OpInfo &op : OpTable::get().all()) {
    Item it = plain(std::string(op.name), kFunction, std::string(op.doc));
    it.newText = opSnippet(op);
    it.snippet = true;
    it.documentation = "**" + op.fullName + "** (" + std::string(categoryName(op.category)) +
                       ", since " + std::string(op.since) + ")\n\n" +
                       std::string(op.doc);
    items.push_back(std::move(it));
  }
  return items;
}

bool contains(Range r, uint32_t offset) {
  return r.begin <= offset && offset < r.end;
}

// Strictly between the braces.
bool inside(const Region &r, uint32_t offset) {
  return r.range.begin < offset && offset < r.range.end;
}

// Values visible at `cur`: block arguments of the regions around it and
// results of the ops before its line in those regions, up to the nearest
// isolated op (an entry sees nothing of another entry).
std::vector<Item> valueItems(const Program &p, uint32_t cur, uint32_t curLine) {
  std::vector<OpId> around;
  for (OpId id = 0; id < p.ops.size(); ++id)
    if (std::any_of(p.ops[id].regions.begin(), p.ops[id].regions.end(),
                    [&](const Region &r) { return inside(r, cur); }))
      around.push_back(id);
  std::sort(around.begin(), around.end(), [&](OpId a, OpId b) {
    return p.op(a).range.begin < p.op(b).range.begin;
  });
  auto isolated = [&](OpId id) {
    const OpInfo *info = p.op(id).info;
    return info && (info->traits & kIsolated);
  };
  auto barrier = std::find_if(around.rbegin(), around.rend(), isolated);
  std::vector<Item> items;
  std::set<std::string_view> seen; // a redefinition is reported, not offered
  auto add = [&](ValueId v) {
    const Value &value = p.value(v);
    if (value.name.empty() || !seen.insert(value.name).second)
      return;
    items.push_back(plain(std::string(value.name), kVariable,
                          value.type ? value.type->text : "unknown type"));
  };
  auto addOps = [&](const std::vector<OpId> &ops) {
    for (OpId id : ops) {
      const Operation &op = p.op(id);
      if (op.range.begin < curLine && !contains(op.range, cur))
        for (ValueId v : op.results)
          add(v);
    }
  };
  if (barrier == around.rend())
    addOps(p.topLevel);
  auto from = barrier == around.rend() ? around.begin() : barrier.base() - 1;
  for (auto it = from; it != around.end(); ++it)
    for (const Region &r : p.op(*it).regions) {
      if (!inside(r, cur))
        continue;
      for (const Block &b : r.blocks) {
        for (ValueId v : b.args)
          add(v);
        addOps(b.ops);
      }
    }
  return items;
}

std::string_view textOf(std::string_view text, Range r) {
  return text.substr(r.begin, r.end - r.begin);
}

std::vector<Item> symbolItems(const ChunkAnalysis &c, std::string_view text) {
  const Program &p = c.parsed.program;
  std::vector<Item> items;
  for (const Occurrence &o : c.parsed.side.occurrences) {
    if (o.kind != Occurrence::Symbol || !o.isDef || o.op == kNoId)
      continue;
    const OpInfo *info = p.op(o.op).info;
    if (!info || info->kind == OpKind::Module)
      continue;
    CompletionKind kind = info->kind == OpKind::Global ? kVariable : kFunction;
    items.push_back(
        plain(std::string(textOf(text, o.range)), kind, info->fullName));
  }
  return items;
}

// Attribute aliases defined before `before` (`#name = ...`).
std::vector<Item> aliasItems(const ChunkAnalysis &c, std::string_view text,
                             uint32_t before) {
  std::vector<Item> items;
  for (const AliasDef &a : c.parsed.aliases)
    if (a.nameRange.end <= before)
      items.push_back(plain(std::string(a.name), kConstant,
                            std::string(textOf(text, a.value.range))));
  return items;
}

// The functions of the layout expression language, with their signatures.
std::vector<Item> layoutFunctionItems() {
  std::vector<Item> items;
  for (const layout::FunctionSignature &f : layout::layoutFunctions())
    items.push_back(plain(f.name, kFunction, f.signature));
  return items;
}

// Evaluated #layout aliases whose definition ends before the layout being
// written starts (not the alias being defined).
std::vector<Item> layoutAliasItems(const ChunkAnalysis &c, uint32_t before) {
  std::vector<Item> items;
  for (const LayoutAliasFact &f : c.layouts)
    if (f.bodyRange.end <= before)
      items.push_back(
          plain(std::string(f.name), kConstant, ly::valueText(f.value)));
  return items;
}

std::vector<Item> keywordItems(const std::vector<std::string_view> &words,
                               std::string_view detail, CompletionKind kind) {
  std::vector<Item> items;
  for (std::string_view w : words)
    items.push_back(plain(std::string(w), kind, std::string(detail)));
  return items;
}

std::vector<Item> typeItems(const CompletionContext &cx) {
  std::vector<Item> items;
  auto append = [&](std::vector<Item> more) {
    items.insert(items.end(), more.begin(), more.end());
  };
  if (cx.typeName.empty() || cx.typeName == "tile" || cx.typeName == "ptr" ||
      cx.typeName == "tensor_view")
    append(keywordItems(elementTypeNames(), "element type", kTypeParameter));
  if (cx.typeName.empty())
    append(keywordItems(cudaTileTypeNames(), "cuda_tile type", kTypeParameter));
  else if (cx.typeName == "tile")
    append(keywordItems({"ptr"}, "cuda_tile type", kTypeParameter));
  else if (cx.typeName != "ptr" && cx.typeName != "tensor_view")
    append(keywordItems({"tensor_view"}, "cuda_tile type", kTypeParameter));
  return items;
}

// `!cuda_tile.tile`: the whole name unless `cuda_tile.` is already typed.
std::vector<Item> bangTypeItems(bool prefixTyped) {
  std::vector<Item> items =
      keywordItems(cudaTileTypeNames(), "cuda_tile type", kTypeParameter);
  if (!prefixTyped)
    for (Item &it : items)
      it.label = "cuda_tile." + it.label;
  return items;
}

void collectAttrs(const std::vector<FormatElem> &elems,
                  std::vector<Item> &items) {
  auto add = [&](Item it) {
    if (std::none_of(items.begin(), items.end(),
                     [&](const Item &i) { return i.label == it.label; }))
      items.push_back(std::move(it));
  };
  for (const FormatElem &e : elems) {
    if (e.kind == FormatElem::Optional)
      collectAttrs(e.children, items);
    if (e.kind == FormatElem::Literal &&
        std::isalpha(static_cast<unsigned char>(e.text[0])))
      add(plain(e.text, kKeyword, "keyword"));
    if (e.kind != FormatElem::Attr)
      continue;
    if (const KeywordSet *set = keywordSet(e.text)) {
      if (set->angle.empty()) {
        for (Item &it : keywordItems(set->words, set->what, kKeyword))
          add(std::move(it));
      } else {
        Item it = plain(std::string(set->angle), kKeyword,
                        std::string(set->angle) + "<...>");
        it.snippet = true;
        it.newText = std::string(set->angle) + "<${1|";
        for (size_t i = 0; i < set->words.size(); ++i)
          it.newText += (i ? "," : "") + std::string(set->words[i]);
        it.newText += "|}>";
        add(std::move(it));
      }
    } else if (e.text == "unit" || e.text == "units") {
      for (const std::string &n : e.names)
        add(plain(n, kKeyword, "flag"));
    }
  }
}

// The attribute keywords an op accepts (custom view memory ops: the memory
// ordering and scope their parser reads, and atomic modes).
std::vector<Item> attributeItems(const OpInfo &op) {
  std::vector<Item> items;
  collectAttrs(op.syntax, items);
  if (op.syntax.empty() && (op.traits & kMemory)) {
    for (const char *kind : {"ord", "scope"}) {
      const KeywordSet &set = *keywordSet(kind);
      for (Item &it : keywordItems(set.words, set.what, kKeyword))
        items.push_back(std::move(it));
    }
    if (op.kind == OpKind::AtomicRmwTko || op.kind == OpKind::AtomicCasTko ||
        op.kind == OpKind::AtomicRedViewTko) {
      const KeywordSet &set = *keywordSet("atomic");
      for (Item &it : keywordItems(set.words, set.what, kKeyword))
        items.push_back(std::move(it));
    }
  }
  return items;
}

std::vector<Item> itemsFor(const CompletionContext &cx, const ChunkAnalysis &c,
                           std::string_view text, uint32_t cur) {
  const Program &p = c.parsed.program;
  uint32_t curLine = cx.line;
  switch (cx.what) {
  case CompletionContext::Nothing:
    return {};
  case CompletionContext::Op:
    return opItems();
  case CompletionContext::Value:
    return valueItems(p, cur, curLine);
  case CompletionContext::Symbol:
    return symbolItems(c, text);
  case CompletionContext::Alias:
    return aliasItems(c, text, curLine);
  case CompletionContext::BangType:
    return bangTypeItems(cx.prefixTyped);
  case CompletionContext::Type:
    return typeItems(cx);
  case CompletionContext::Angle:
    return keywordItems(cx.keywords->words, cx.keywords->what, kKeyword);
  case CompletionContext::Operands: {
    std::vector<Item> items = attributeItems(*cx.op);
    for (Item &it : valueItems(p, cur, curLine))
      items.push_back(std::move(it));
    return items;
  }
  case CompletionContext::Layout: {
    std::vector<Item> items = layoutAliasItems(c, cx.layoutOpen);
    if (cx.prefixTyped)
      return items;
    std::vector<Item> fns = layoutFunctionItems();
    fns.insert(fns.end(), items.begin(), items.end());
    return fns;
  }
  }
  return {};
}

// Whether `typed` occurs in `label` in order (case-insensitive): the client
// filters fuzzily, so nothing it would show is left out.
bool subsequence(std::string_view typed, std::string_view label) {
  size_t i = 0;
  for (char c : label)
    if (i < typed.size() &&
        std::tolower(static_cast<unsigned char>(c)) ==
            std::tolower(static_cast<unsigned char>(typed[i])))
      ++i;
  return i == typed.size();
}

json itemJson(const FeatureContext &cx, const Item &it, Range edit) {
  std::string text = it.newText.empty() ? it.label : it.newText;
  bool snippet = it.snippet && cx.client.snippets;
  if (it.snippet && !snippet)
    text = snippetAsText(text); // a client without snippets inserts the text as is
  json j = {{"label", it.label},
            {"kind", static_cast<int>(it.kind)},
            {"textEdit", {{"range", cx.range(edit)}, {"newText", text}}}};
  if (!it.detail.empty())
    j["detail"] = it.detail;
  if (snippet)
    j["insertTextFormat"] = 2;
  if (!it.documentation.empty())
    j["documentation"] = cx.markup(it.documentation, cx.client.markdownDocs);
  return j;
}

} // namespace

Completions completionsAt(const Snapshot &snap, uint32_t cur, size_t maxItems) {
  std::string_view text = snap.source->text();
  Completions out;
  for (const ChunkAnalysis &c : snap.analysis.chunks) {
    if (cur < c.chunk.begin || cur > c.chunk.end)
      continue;
    CompletionContext context = completionContextAt(text, c.chunk.begin, cur);
    std::string_view typed = text.substr(context.begin, cur - context.begin);
    out.replaces = {context.begin, cur};
    // Filtered before any item is kept; past the cap the client asks again
    // as the prefix grows.
    for (Item &it : itemsFor(context, c, text, cur)) {
      if (!subsequence(typed, it.label))
        continue;
      if (out.items.size() == maxItems) {
        out.incomplete = true;
        break;
      }
      out.items.push_back(std::move(it));
    }
    break;
  }
  return out;
}

json completionTriggerCharacters() {
  return json::array({"%", "@", "#", "!", ".", "<"});
}

// The most items one answer carries (a file with thousands of values in
// scope would otherwise send them all on each keystroke after `%`).
constexpr size_t kMaxItems = 200;

json completion(const FeatureContext &cx, const json &params) {
  Completions found = completionsAt(cx.snap, cx.offsetOf(member(params, "position")), kMaxItems);
  json items = json::array();
  for (const Item &it : found.items)
    items.push_back(itemJson(cx, it, found.replaces));
  return {{"isIncomplete", found.incomplete}, {"items", std::move(items)}};
}

} // namespace tilesight::lsp
