// Reduce and scan: operands, identities, results and the combining body.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/ir/op_accessors.h"
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

namespace {

// `tile<8xf32>` for a shape and an element spelling.
std::string tileText(const std::vector<int64_t>& shape, const std::string& elem) {
  return "tile<" + (shape.empty() ? "" : shapeString(shape) + "x") + elem + ">";
}

// The element type an identity attribute has; untyped numbers are i64 / f64 as in MLIR.
std::optional<Elem> identityElem(const Attr& a) {
  if (a.type) return a.type->kind == TypeKind::Scalar ? std::optional(a.type->elem) : std::nullopt;
  if (a.kind == AttrKind::Int) return Elem::I64;
  if (a.kind == AttrKind::Float) return Elem::F64;
  if (a.kind == AttrKind::Bool) return Elem::I1;
  return std::nullopt;
}

bool identityMatches(Elem operand, Elem identity) {
  // f16 and bf16 identities are accepted for each other.
  auto half = [](Elem e) { return e == Elem::F16 || e == Elem::BF16; };
  return operand == identity || (half(operand) && half(identity));
}

void checkIdentities(const OpRef& o, const std::vector<TypeRef>& ins, DiagSink& d) {
  const Attr* ids = attrs::identities(o.op);
  if (!ids) return;
  if (ids->kind != AttrKind::Array) {
    failAt(d, o, ids->range, "identities must be a list of typed numbers, one per operand");
    return;
  }
  if (ids->elems.size() != ins.size()) {
    failAt(d, o, ids->range,
           count(ids->elems.size(), "identity", "identities") + " for " + count(ins.size(), "operand") +
               "; give exactly one identity per operand");
    return;
  }
  for (size_t i = 0; i < ins.size(); ++i) {
    const Attr& id = ids->elems[i];
    auto e = identityElem(id);
    if (!e) {
      failAt(d, o, id.range, "identity " + std::to_string(i) + " is not a typed number such as 0.0 : f32");
    } else if (ins[i] && ins[i]->isTile() && !identityMatches(ins[i]->tileElem(), *e)) {
      failAt(d, o, id.range,
             "identity " + std::to_string(i) + " is " + std::string(elemName(*e)) + " but operand " +
                 std::to_string(i) + " holds " + elemStr(ins[i]));
    }
  }
}

// The shape operand i gives a result: reduce drops `dim`, scan keeps it.
std::vector<int64_t> aggregateShape(const std::vector<int64_t>& in, int64_t dim, bool isScan) {
  if (isScan) return in;
  std::vector<int64_t> out;
  for (size_t k = 0; k < in.size(); ++k)
    if (static_cast<int64_t>(k) != dim) out.push_back(in[k]);
  return out;
}

void checkAggregateResults(const OpRef& o, const std::vector<TypeRef>& ins, int64_t dim, bool isScan, DiagSink& d) {
  for (size_t i = 0; i < ins.size(); ++i) {
    TypeRef in = ins[i], res = o.result(i);
    if (!allTiles({in, res})) continue;
    auto want = aggregateShape(in->shape, dim, isScan);
    if (res->shape == want && res->element == in->element) continue;
    std::string how = isScan ? "scanning operand " + std::to_string(i)
                             : "reducing operand " + std::to_string(i) + " along dimension " + std::to_string(dim);
    fail(d, o,
         how + " gives '" + tileText(want, elemStr(in)) + "', but result " + std::to_string(i) + " is " + quoted(res));
  }
}

// Block arguments come in pairs (current, other) per operand, all 0-d tiles.
void checkBodyArgs(const OpRef& o, const Region& r, const std::vector<TypeRef>& ins, DiagSink& d) {
  const Block& body = r.blocks.front();
  size_t n = ins.size();
  if (body.args.size() != 2 * n) {
    failAt(d, o, r.range,
           "the body takes " + count(body.args.size(), "argument") + " but needs " + std::to_string(2 * n) +
               " (a pair of 0-d tiles per operand)");
    return;
  }
  bool allScalar = true;
  for (size_t k = 0; k < body.args.size(); ++k) {
    const Value& v = o.p.value(body.args[k]);
    if (v.type && !v.type->isScalarTile()) {
      failAt(d, o, v.range,
             "body argument " + std::to_string(k) + " (" + std::string(v.name) + ") must be a 0-d tile, got " + quoted(v.type));
      allScalar = false;
    }
  }
  if (!allScalar) return;
  for (size_t i = 0; i < n; ++i) {
    const Value& cur = o.p.value(body.args[2 * i]);
    const Value& other = o.p.value(body.args[2 * i + 1]);
    if (!cur.type || !other.type) continue;
    if (cur.type->element != other.type->element)
      failAt(d, o, other.range,
             "body arguments " + std::to_string(2 * i) + " and " + std::to_string(2 * i + 1) +
                 " form the pair for operand " + std::to_string(i) + " and must share an element type, got " +
                 elemStr(cur.type) + " and " + elemStr(other.type));
    if (ins[i] && ins[i]->isTile() && cur.type->element != ins[i]->element)
      failAt(d, o, cur.range,
             "body argument " + std::to_string(2 * i) + " is " + elemStr(cur.type) + " but operand " +
                 std::to_string(i) + " holds " + elemStr(ins[i]));
  }
}

void checkBodyYield(const OpRef& o, const Operation& term, const std::vector<TypeRef>& ins, DiagSink& d) {
  OpRef y{o.p, term};
  auto vals = y.group(group_names::operands);
  if (vals.size() != ins.size()) {
    auto& diag = fail(d, o,
                      "the body yields " + count(vals.size(), "value") + " but the op has " +
                          count(ins.size(), "operand") + "; yield one 0-d tile per operand");
    diag.notes.push_back({term.nameRange, "the yield"});
    return;
  }
  for (size_t i = 0; i < ins.size(); ++i) {
    TypeRef t = o.p.typeOf(vals[i]->value);
    if (!t || !ins[i] || !ins[i]->isTile() || (t->isTile() && t->element == ins[i]->element)) continue;
    auto& diag = fail(d, o,
                      "yielded value " + std::to_string(i) + " is " + quoted(t) + " but operand " + std::to_string(i) +
                          " holds " + elemStr(ins[i]));
    diag.notes.push_back({vals[i]->range, "yielded here"});
  }
}

// Only side-effect-free ops may run inside the combining body.
void checkBodyPurity(const OpRef& o, const Block& body, DiagSink& d) {
  for (OpId id : body.ops) {
    const Operation& inner = o.p.op(id);
    uint32_t traits = inner.info ? inner.info->traits : 0;
    if (traits & (kPure | kTerminator)) continue;
    OpRef in{o.p, inner};
    auto& diag = fail(d, in,
                      "only pure operations may appear in the body of '" + o.name() + "'; '" + in.name() +
                          "' has side effects or may not terminate");
    diag.notes.push_back({o.at(), "the enclosing " + o.name()});
  }
}

void checkBody(const OpRef& o, const std::vector<TypeRef>& ins, DiagSink& d) {
  if (o.op.regions.empty()) return;
  const Region& r = o.op.regions.front();
  if (r.blocks.size() != 1) {
    failAt(d, o, r.range, "the body must be exactly one block, found " + std::to_string(r.blocks.size()));
    return;
  }
  const Block& body = r.blocks.front();
  checkBodyArgs(o, r, ins, d);
  const Operation* last = body.ops.empty() ? nullptr : &o.p.op(body.ops.back());
  if (!last || !last->info || last->info->kind != OpKind::Yield)
    failAt(d, o, r.range, "the body must end with a yield of " + count(ins.size(), "0-d tile"));
  else
    checkBodyYield(o, *last, ins, d);
  checkBodyPurity(o, body, d);
}

void checkAggregate(const OpRef& o, bool isScan, DiagSink& d) {
  auto operands = o.group(group_names::operands);
  std::vector<TypeRef> ins;
  for (const Operand* u : operands) ins.push_back(o.p.typeOf(u->value));
  if (ins.empty()) {
    fail(d, o, "needs at least one operand");
    return;
  }
  bool countsMatch = o.op.results.size() == ins.size();
  if (!countsMatch)
    fail(d, o,
         count(ins.size(), "operand") + " but " + count(o.op.results.size(), "result") +
             "; there is one result per operand");
  checkIdentities(o, ins, d);
  for (size_t i = 1; i < ins.size(); ++i)
    if (allTiles({ins[0], ins[i]}) && ins[i]->shape != ins[0]->shape)
      failAt(d, o, operands[i]->range,
             "operand " + std::to_string(i) + " has shape " + shapeText(ins[i]->shape) + " but operand 0 has " +
                 shapeText(ins[0]->shape) + "; all operands must have the same shape");
  const Attr* dim = intAttr(o, attr_names::dim);
  bool dimOk = false;
  if (dim && ins[0] && ins[0]->isTile()) {
    int64_t rank = static_cast<int64_t>(ins[0]->shape.size());
    dimOk = dim->i >= 0 && dim->i < rank;
    if (!dimOk)
      failAt(d, o, dim->range,
             "dim = " + std::to_string(dim->i) + " is not a dimension of the operands (rank " + std::to_string(rank) +
                 ", valid 0 to " + std::to_string(rank - 1) + ")");
  }
  if (countsMatch && dimOk) checkAggregateResults(o, ins, dim->i, isScan, d);
  checkBody(o, ins, d);
}

}  // namespace

void reduce(const Program& p, const Operation& op, DiagSink& d) { checkAggregate(OpRef{p, op}, false, d); }

void scan(const Program& p, const Operation& op, DiagSink& d) { checkAggregate(OpRef{p, op}, true, d); }

}  // namespace tilesight::rules
