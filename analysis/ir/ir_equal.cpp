#include "analysis/ir/ir_equal.h"

#include <algorithm>
#include <bit>

#include "analysis/ir/op_table.h"
#include "analysis/ir/printer.h"

namespace tilesight {

namespace {

bool sameType(TypeRef x, TypeRef y) { return x == y || (x && y && x->text == y->text); }

bool sameList(const std::vector<Attr>& x, const std::vector<Attr>& y) {
  return std::equal(x.begin(), x.end(), y.begin(), y.end(), sameAttr);
}

bool sameDict(const std::vector<AttrEntry>& x, const std::vector<AttrEntry>& y) {
  auto same = [](const AttrEntry& p, const AttrEntry& q) { return p.key == q.key && sameAttr(p.value, q.value); };
  return std::equal(x.begin(), x.end(), y.begin(), y.end(), same);
}

// Every value's place in definition order: results, then each region's
// block arguments and ops, in a pre-order walk of the top level.
class Numbering {
 public:
  explicit Numbering(const Program& p) : p_(p), num_(p.values.size(), kNoId) {
    for (OpId id : p.topLevel) walk(id);
  }
  uint32_t of(ValueId v) const { return v == kNoId ? kNoId : num_[v]; }

 private:
  void walk(OpId id) {
    const Operation& op = p_.op(id);
    for (ValueId v : op.results) num_[v] = next_++;
    for (const Region& r : op.regions)
      for (const Block& b : r.blocks) {
        for (ValueId v : b.args) num_[v] = next_++;
        for (OpId inner : b.ops) walk(inner);
      }
  }
  const Program& p_;
  std::vector<uint32_t> num_;
  uint32_t next_ = 0;
};

uint32_t lineOf(const Program& p, const Operation& op) {
  size_t end = std::min<size_t>(op.range.begin, p.source.size());
  return 1 + static_cast<uint32_t>(std::count(p.source.begin(), p.source.begin() + end, '\n'));
}

std::string typeName(TypeRef t) { return t ? "'" + printType(t) + "'" : "an unknown type"; }

// Attributes sorted by name (stably): a dictionary and the op's syntax may
// spell the same attributes in another order.
std::vector<const NamedAttr*> byName(const Operation& op) {
  std::vector<const NamedAttr*> out;
  for (const NamedAttr& a : op.attrs) out.push_back(&a);
  std::stable_sort(out.begin(), out.end(), [](const NamedAttr* x, const NamedAttr* y) { return x->name < y->name; });
  return out;
}

class Comparer {
 public:
  Comparer(const Program& a, const Program& b) : a_(a), b_(b), na_(a), nb_(b) {}

  bool opLists(const std::vector<OpId>& xs, const std::vector<OpId>& ys, const std::string& where) {
    for (size_t i = 0; i < xs.size() && i < ys.size(); ++i)
      if (!op(xs[i], ys[i])) return false;
    if (xs.size() == ys.size()) return true;
    diff = where + " holds " + std::to_string(xs.size()) + " ops in the first program but " +
           std::to_string(ys.size()) + " in the second";
    return false;
  }

  std::string diff;

 private:
  bool fail(const Operation& x, const Operation& y, const std::string& what) {
    diff = "op '" + std::string(x.name) + "' (line " + std::to_string(lineOf(a_, x)) + " of the first program, line " +
           std::to_string(lineOf(b_, y)) + " of the second): " + what;
    return false;
  }

  bool op(OpId ix, OpId iy) {
    const Operation& x = a_.op(ix);
    const Operation& y = b_.op(iy);
    if (x.info != y.info || (!x.info && x.name != y.name))
      return fail(x, y, "the second program has '" + std::string(y.name) + "' here");
    if (x.generic != y.generic) return fail(x, y, "one is in the generic form, the other is not");
    if (x.broken != y.broken) return fail(x, y, "one has operands of the wrong type, the other not");
    return results(x, y) && operands(x, y) && attrs(x, y) && regions(x, y);
  }

  bool results(const Operation& x, const Operation& y) {
    if (x.results.size() != y.results.size())
      return fail(x, y, std::to_string(x.results.size()) + " results vs " + std::to_string(y.results.size()));
    for (size_t i = 0; i < x.results.size(); ++i)
      if (!sameType(a_.typeOf(x.results[i]), b_.typeOf(y.results[i])))
        return fail(x, y, "result " + std::to_string(i) + " has type " + typeName(a_.typeOf(x.results[i])) + " vs " +
                              typeName(b_.typeOf(y.results[i])));
    return true;
  }

  bool operands(const Operation& x, const Operation& y) {
    if (x.operands.size() != y.operands.size())
      return fail(x, y, std::to_string(x.operands.size()) + " operands vs " + std::to_string(y.operands.size()));
    for (size_t i = 0; i < x.operands.size(); ++i)
      if (na_.of(x.operands[i].value) != nb_.of(y.operands[i].value))
        return fail(x, y, "operand " + std::to_string(i) + " uses another value");
    if (x.segments != y.segments) return fail(x, y, "the operands fall into other groups");
    return true;
  }

  bool attrs(const Operation& x, const Operation& y) {
    auto xs = byName(x), ys = byName(y);
    for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
      if (xs[i]->name != ys[i]->name)
        return fail(x, y, "attribute '" + std::string(xs[i]->name) + "' vs '" + std::string(ys[i]->name) + "'");
      if (!sameAttr(xs[i]->attr, ys[i]->attr))
        return fail(x, y, "attribute '" + std::string(xs[i]->name) + "' is " + printAttr(xs[i]->attr) + " vs " +
                              printAttr(ys[i]->attr));
    }
    if (xs.size() != ys.size())
      return fail(x, y, std::to_string(xs.size()) + " attributes vs " + std::to_string(ys.size()));
    return true;
  }

  bool regions(const Operation& x, const Operation& y) {
    if (x.regions.size() != y.regions.size())
      return fail(x, y, std::to_string(x.regions.size()) + " regions vs " + std::to_string(y.regions.size()));
    for (size_t r = 0; r < x.regions.size(); ++r) {
      const auto& xb = x.regions[r].blocks;
      const auto& yb = y.regions[r].blocks;
      if (xb.size() != yb.size())
        return fail(x, y, "region " + std::to_string(r) + " has " + std::to_string(xb.size()) + " blocks vs " +
                              std::to_string(yb.size()));
      for (size_t b = 0; b < xb.size(); ++b)
        if (!block(x, y, xb[b], yb[b], "region " + std::to_string(r) + " block " + std::to_string(b))) return false;
    }
    return true;
  }

  bool block(const Operation& x, const Operation& y, const Block& xb, const Block& yb, const std::string& where) {
    if (xb.args.size() != yb.args.size())
      return fail(x, y, where + " has " + std::to_string(xb.args.size()) + " arguments vs " +
                            std::to_string(yb.args.size()));
    for (size_t i = 0; i < xb.args.size(); ++i)
      if (!sameType(a_.typeOf(xb.args[i]), b_.typeOf(yb.args[i])))
        return fail(x, y, where + " argument " + std::to_string(i) + " has type " + typeName(a_.typeOf(xb.args[i])) +
                              " vs " + typeName(b_.typeOf(yb.args[i])));
    return opLists(xb.ops, yb.ops, "'" + std::string(x.name) + "' " + where);
  }

  const Program& a_;
  const Program& b_;
  Numbering na_, nb_;
};

}  // namespace

bool sameAttr(const Attr& a, const Attr& b) {
  if (a.kind != b.kind || !sameType(a.type, b.type)) return false;
  switch (a.kind) {
    case AttrKind::Unit: return true;
    case AttrKind::Bool: return a.i == b.i;
    case AttrKind::Int: return a.i == b.i && a.wide == b.wide && (a.s.empty() || b.s.empty() || a.s == b.s);
    case AttrKind::Float: return std::bit_cast<uint64_t>(a.f) == std::bit_cast<uint64_t>(b.f);
    case AttrKind::String:
    case AttrKind::Symbol:
    case AttrKind::Keyword:
    case AttrKind::Opaque: return a.s == b.s && sameDict(a.dict, b.dict);
    case AttrKind::Type: return true;
    case AttrKind::Array:
    case AttrKind::DenseArray: return sameList(a.elems, b.elems);
    case AttrKind::Dense: return a.i == b.i && sameList(a.elems, b.elems);
    case AttrKind::Dict: return sameDict(a.dict, b.dict);
  }
  return false;
}

std::optional<std::string> firstDifference(const Program& a, const Program& b) {
  Comparer c(a, b);
  if (c.opLists(a.topLevel, b.topLevel, "the top level")) return std::nullopt;
  return c.diff;
}

std::optional<std::string> firstDifference(const Program& a, OpId x, const Program& b, OpId y) {
  Comparer c(a, b);
  if (c.opLists({x}, {y}, "the top level")) return std::nullopt;
  return c.diff;
}

}  // namespace tilesight
