#include "analysis/verify/verify_util.h"

#include "analysis/source/source_text.h"

namespace tilesight::rules {

std::vector<const Operand*> OpRef::group(std::string_view name) const {
  std::vector<const Operand*> out;
  if (!op.info) return out;
  int g = op.info->operandGroup(name);
  if (g < 0 || op.segments.size() != op.info->operands.size()) return out;
  size_t start = 0;
  for (int i = 0; i < g; ++i) start += op.segments[i];
  for (size_t i = 0; i < op.segments[g] && start + i < op.operands.size(); ++i) out.push_back(&op.operands[start + i]);
  return out;
}

const Operand* OpRef::operand(std::string_view name) const {
  auto g = group(name);
  return g.empty() ? nullptr : g.front();
}

TypeRef OpRef::type(std::string_view operandName) const {
  const Operand* o = operand(operandName);
  return o ? p.typeOf(o->value) : nullptr;
}

std::string OpRef::keyword(std::string_view attrName) const {
  const Attr* a = op.attr(attrName);
  if (a && a->kind == AttrKind::Keyword) return a->s;
  return op.info ? std::string(op.info->attrDefault(attrName)) : std::string();
}

Range OpRef::onOpLine(Range r) const {
  uint32_t b = op.range.begin;
  if (r.begin < b || r.begin > p.source.size()) return op.nameRange;
  return !hasLineEnd(p.source.substr(b, r.begin - b)) ? r : op.nameRange;
}

Diagnostic& fail(DiagSink& d, const OpRef& o, const std::string& msg) {
  return d.error(o.at(), "type", "'" + o.name() + "': " + msg);
}

Diagnostic& failAt(DiagSink& d, const OpRef& o, Range r, const std::string& msg) {
  Range at = o.onOpLine(r);
  auto& diag = d.error(at, "type", "'" + o.name() + "': " + msg);
  if (at.begin != r.begin) diag.notes.push_back({r, "here"});
  return diag;
}

std::string elemStr(TypeRef t) {
  if (!t || !t->element) return "?";
  const std::string& s = t->element->text;
  return s.starts_with("!cuda_tile.") ? s.substr(11) : s;
}

std::string shapeText(const std::vector<int64_t>& shape) { return shape.empty() ? "scalar" : shapeString(shape); }

std::string count(size_t n, std::string_view one, std::string_view many) {
  std::string word(n == 1 ? one : many);
  if (n != 1 && many.empty()) word = std::string(one) + "s";
  return std::to_string(n) + " " + word;
}

std::string listText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

Range operandRange(const OpRef& o, std::string_view name) {
  const Operand* u = o.operand(name);
  return u ? u->range : o.at();
}

bool allTiles(std::initializer_list<TypeRef> ts) {
  for (TypeRef t : ts)
    if (!t || !t->isTile()) return false;
  return true;
}

const Attr* intAttr(const OpRef& o, std::string_view name) {
  const Attr* a = o.attr(name);
  return a && a->kind == AttrKind::Int ? a : nullptr;
}

bool isHexLiteral(std::string_view s) {
  if (s.starts_with("-")) s.remove_prefix(1);
  return s.starts_with("0x") || s.starts_with("0X");
}

std::optional<int64_t> literalInt(const Attr& e) {
  if (!e.wide) return e.i;
  std::string_view s = e.s;
  if (s == "-9223372036854775808") return INT64_MIN;
  if (s.starts_with("-") || isHexLiteral(s)) return std::nullopt;
  if (s.size() < 20 || (s.size() == 20 && s <= "18446744073709551615")) return e.i;
  return std::nullopt;
}

}  // namespace tilesight::rules
