#include "server/lsp/signature_help.h"

#include <algorithm>
#include <cctype>

#include "analysis/ir/op_table.h"
#include "analysis/syntax/lexer.h"
#include "server/lsp/op_snippets.h"

namespace tilesight::lsp {

namespace {

// The op named on the statement before `cur` (`%r = name ...` or
// `name ...` at the line's start) and where its name ends; null when the
// cursor is not after an op name on its line.
const OpInfo *opBefore(std::string_view text, uint32_t cur, uint32_t &nameEnd) {
  uint32_t line = cur;
  while (line > 0 && text[line - 1] != '\n')
    --line;
  std::string_view s = text.substr(line, cur - line);
  size_t at = s.find('=');
  size_t from = at == std::string_view::npos || s.find('%') > at ? 0 : at + 1;
  while (from < s.size() && std::isspace(static_cast<unsigned char>(s[from])))
    ++from;
  size_t end = from;
  while (end < s.size() && (isIdentChar(s[end]) || s[end] == '.' || s[end] == '$'))
    ++end;
  if (end == from || end >= s.size()) // no name, or the cursor is still on it
    return nullptr;
  nameEnd = line + static_cast<uint32_t>(end);
  return OpTable::get().lookup(s.substr(from, end - from));
}

// Operands written between the op name and the cursor: complete `%` names
// (the one under the cursor is still being typed).
int operandsBefore(std::string_view text, uint32_t from, uint32_t cur) {
  int n = 0;
  for (uint32_t p = from; p < cur; ++p)
    if (text[p] == '%') {
      uint32_t q = p + 1;
      while (q < cur && (isIdentChar(text[q]) || text[q] == '#'))
        ++q;
      if (q < cur)
        ++n;
      p = q;
    } else if (text[p] == ':') {
      break; // the types: past the operands
    }
  return n;
}

} // namespace

json signatureHelpTriggerCharacters() { return json::array({" ", ","}); }

std::optional<Signature> signatureAt(const Snapshot &snap, uint32_t cur) {
  std::string_view text = snap.source->text();
  uint32_t nameEnd = 0;
  const OpInfo *op = opBefore(text, cur, nameEnd);
  if (!op || op->operands.empty())
    return std::nullopt;
  Signature sig{snippetAsText(opSnippet(*op)), {}, 0, std::string(op->doc)};
  size_t searchFrom = 0;
  for (const GroupDecl &g : op->operands) {
    std::string name = "%" + g.name;
    size_t at = sig.label.find(name, searchFrom);
    if (at == std::string::npos) { // a group the format spells otherwise
      sig.parameters.push_back({name, std::nullopt});
      continue;
    }
    sig.parameters.push_back({name, std::pair(at, at + name.size())});
    searchFrom = at + name.size();
  }
  sig.active = std::min<int>(operandsBefore(text, nameEnd, cur), static_cast<int>(sig.parameters.size()) - 1);
  return sig;
}

json signatureHelp(const FeatureContext &cx, const json &params) {
  std::optional<Signature> sig = signatureAt(cx.snap, cx.offsetOf(member(params, "position")));
  if (!sig)
    return nullptr;
  json parameters = json::array();
  for (const Signature::Parameter &p : sig->parameters)
    parameters.push_back({{"label", p.inLabel ? json::array({p.inLabel->first, p.inLabel->second}) : json(p.name)}});
  json out = {{"label", sig->label}, {"parameters", std::move(parameters)}};
  if (!sig->markdownDoc.empty())
    out["documentation"] = cx.markup(sig->markdownDoc, cx.client.markdownDocs);
  return {{"signatures", json::array({std::move(out)})}, {"activeSignature", 0}, {"activeParameter", sig->active}};
}

} // namespace tilesight::lsp
