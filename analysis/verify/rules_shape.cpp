// Shape ops: iota, offset, broadcast, reshape, permute, cat, extract, select, pack and unpack.
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/ir/op_accessors.h"
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

namespace {

// The shared "same element type" rule of the shape ops.
void checkSameElement(const OpRef& o, TypeRef src, TypeRef res, DiagSink& d) {
  if (src->element != res->element)
    fail(d, o, "source and result must have the same element type, got " + elemStr(src) + " and " + elemStr(res));
}

// --- pack / unpack -------------------------------------------------------------------

// Bits a packed tile occupies (tf32 is stored in 32 bits); saturated at
// INT64_MAX for shapes far past the element limit (the type rules report those).
int64_t storageBits(TypeRef t) {
  Elem e = t->tileElem();
  int64_t w = e == Elem::TF32 ? 32 : elemBits(e), bits;
  return __builtin_mul_overflow(w, t->numElements(), &bits) ? INT64_MAX : bits;
}

void checkPackUnpack(const OpRef& o, DiagSink& d) {
  TypeRef src = o.type(group_names::source), res = o.result(0);
  if (!allTiles({src, res})) return;
  if (src->shape.size() != res->shape.size()) {
    fail(d, o,
         "source and result must have the same rank, got " + std::to_string(src->shape.size()) + " and " +
             std::to_string(res->shape.size()));
    return;
  }
  if (src->shape.size() != 1) {
    fail(d, o, "source and result must be 1-d tiles, got " + quoted(src) + " and " + quoted(res));
    return;
  }
  if (elemBits(src->tileElem()) == elemBits(res->tileElem())) {
    fail(d, o,
         "the element types must differ in width, but " + elemStr(src) + " and " + elemStr(res) + " both have " +
             std::to_string(elemBits(src->tileElem())) + " bits");
    return;
  }
  int64_t sb = storageBits(src), rb = storageBits(res);
  for (auto [bits, what] : {std::pair{sb, "source"}, std::pair{rb, "result"}})
    if (bits % 8 != 0) {
      fail(d, o,
           std::string("the ") + what + " tile is " + std::to_string(bits) + " bits, not a whole number of bytes");
      return;
    }
  if (sb != rb)
    fail(d, o,
         "source and result must be the same size: " + quoted(src) + " is " + std::to_string(sb / 8) + " bytes but " +
             quoted(res) + " is " + std::to_string(rb / 8) + " bytes");
}

}  // namespace

void iota(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef res = o.result(0);
  if (!allTiles({res})) return;
  if (res->shape.size() != 1) {
    fail(d, o, "the result must be a 1-d tile, got " + quoted(res));
    return;
  }
  unsigned bits = elemBits(res->tileElem());
  int64_t n = res->shape[0];
  if (bits < 63 && n > (int64_t{1} << bits))
    fail(d, o,
         std::to_string(n) + " elements cannot be numbered with " + elemStr(res) + " (at most " +
             std::to_string(int64_t{1} << bits) + " distinct values)");
}

void offset(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef ptr = o.type(group_names::ptr), off = o.type(group_names::offset), res = o.result(0);
  if (!allTiles({ptr, off, res})) return;
  if (off->shape != ptr->shape)
    failAt(d, o, operandRange(o, group_names::offset),
           "the offset tile has shape " + shapeText(off->shape) + " but the pointer tile has shape " +
               shapeText(ptr->shape) + "; they must match");
  if (res != ptr)
    fail(d, o, "the result type " + quoted(res) + " must equal the pointer operand's type " + quoted(ptr));
}

void broadcast(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type(group_names::source), res = o.result(0);
  if (!allTiles({src, res})) return;
  checkSameElement(o, src, res, d);
  if (src->shape.size() != res->shape.size()) {
    fail(d, o,
         "source and result must have the same rank, got " + std::to_string(src->shape.size()) + " and " +
             std::to_string(res->shape.size()) + "; reshape first to add size-1 dimensions");
    return;
  }
  for (size_t k = 0; k < src->shape.size(); ++k) {
    if (src->shape[k] == res->shape[k] || src->shape[k] == 1) continue;
    fail(d, o,
         "source dimension " + std::to_string(k) + " (" + std::to_string(src->shape[k]) + ") cannot broadcast to " +
             std::to_string(res->shape[k]) + "; only size-1 dimensions grow (" + shapeText(src->shape) + " -> " +
             shapeText(res->shape) + ")");
    return;
  }
}

void reshape(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type(group_names::source), res = o.result(0);
  if (!allTiles({src, res})) return;
  checkSameElement(o, src, res, d);
  if (src->numElements() != res->numElements())
    fail(d, o,
         quoted(src) + " has " + count(src->numElements(), "element") + " but " + quoted(res) + " has " +
             std::to_string(res->numElements()) + "; reshape must keep the element count");
}

void permute(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type(group_names::source), res = o.result(0);
  const Attr* perm = attrs::permutation(o.op);
  if (!allTiles({src, res})) return;
  checkSameElement(o, src, res, d);
  size_t rank = src->shape.size();
  bool sameRank = res->shape.size() == rank;
  if (!sameRank)
    fail(d, o,
         "source and result must have the same rank, got " + std::to_string(rank) + " and " +
             std::to_string(res->shape.size()));
  if (rank < 2) {
    fail(d, o, "permute needs a source of rank 2 or more, got " + quoted(src));
    return;
  }
  if (!perm) return;
  std::vector<int64_t> ps;
  for (const Attr& e : perm->elems) ps.push_back(e.i);
  if (ps.size() != rank) {
    failAt(d, o, perm->range,
           "the permutation has " + std::to_string(ps.size()) + " entries but the source has rank " +
               std::to_string(rank));
    return;
  }
  for (size_t i = 0; i < ps.size(); ++i)
    if (ps[i] < 0 || ps[i] >= static_cast<int64_t>(rank)) {
      failAt(d, o, perm->elems[i].range,
             "permutation entry " + std::to_string(i) + " (" + std::to_string(ps[i]) +
                 ") is not a dimension; valid 0 to " + std::to_string(rank - 1));
      return;
    }
  if (std::set<int64_t>(ps.begin(), ps.end()).size() != ps.size()) {
    failAt(d, o, perm->range, "the permutation " + listText(ps) + " repeats a dimension");
    return;
  }
  if (!sameRank) return;
  std::vector<int64_t> want;
  for (int64_t k : ps) want.push_back(src->shape[k]);
  if (want != res->shape)
    fail(d, o,
         "permuting " + shapeText(src->shape) + " by " + listText(ps) + " gives " + shapeText(want) +
             ", but the result shape is " + shapeText(res->shape));
}

void cat(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef lhs = o.type(group_names::lhs), rhs = o.type(group_names::rhs), res = o.result(0);
  if (!allTiles({lhs, rhs, res})) return;
  if (lhs->element != rhs->element || lhs->element != res->element)
    fail(d, o,
         "lhs, rhs and result must share an element type, got " + elemStr(lhs) + ", " + elemStr(rhs) + " and " +
             elemStr(res));
  size_t rank = lhs->shape.size();
  if (rhs->shape.size() != rank || res->shape.size() != rank) {
    fail(d, o,
         "lhs, rhs and result must have the same rank, got " + std::to_string(rank) + ", " +
             std::to_string(rhs->shape.size()) + " and " + std::to_string(res->shape.size()));
    return;
  }
  const Attr* dimAttr = intAttr(o, attr_names::dim);
  if (!dimAttr) return;
  int64_t dim = dimAttr->i;
  if (dim < 0 || dim >= static_cast<int64_t>(rank)) {
    failAt(d, o, dimAttr->range,
           "dim = " + std::to_string(dim) + " is not a dimension of rank-" + std::to_string(rank) +
               " tiles (valid 0 to " + std::to_string(static_cast<int64_t>(rank) - 1) + ")");
    return;
  }
  for (size_t k = 0; k < rank; ++k) {
    if (static_cast<int64_t>(k) == dim) continue;
    if (lhs->shape[k] != rhs->shape[k])
      fail(d, o,
           "lhs and rhs differ in dimension " + std::to_string(k) + " (" + std::to_string(lhs->shape[k]) + " vs " +
               std::to_string(rhs->shape[k]) + "); only dimension " + std::to_string(dim) + " may differ");
    else if (lhs->shape[k] != res->shape[k])
      fail(d, o,
           "result dimension " + std::to_string(k) + " is " + std::to_string(res->shape[k]) + " but the inputs have " +
               std::to_string(lhs->shape[k]));
  }
  int64_t sum = lhs->shape[dim] + rhs->shape[dim];
  if (res->shape[dim] != sum)
    fail(d, o,
         "concatenating along dimension " + std::to_string(dim) + " gives " + std::to_string(lhs->shape[dim]) + " + " +
             std::to_string(rhs->shape[dim]) + " = " + std::to_string(sum) + ", but the result has " +
             std::to_string(res->shape[dim]));
}

namespace {

// The sub-tile ops (extract, insert): `sub` tiles `whole` evenly and the
// indices pick one sub-tile per dimension; a constant index past the last
// sub-tile is a warning (undefined behaviour only when it runs).
void checkSubTile(const OpRef& o, TypeRef whole, TypeRef sub, std::string_view wholeName, std::string_view subName,
                  DiagSink& d) {
  size_t rank = whole->shape.size();
  if (sub->shape.size() != rank) {
    fail(d, o,
         std::string(wholeName) + " and " + std::string(subName) + " must have the same rank, got " +
             std::to_string(rank) + " and " + std::to_string(sub->shape.size()));
    return;
  }
  bool divisible = true;
  for (size_t k = 0; k < rank; ++k)
    if (sub->shape[k] <= 0 || whole->shape[k] % sub->shape[k] != 0) {
      fail(d, o,
           std::string(wholeName) + " dimension " + std::to_string(k) + " (" + std::to_string(whole->shape[k]) +
               ") is not a multiple of " + std::string(subName) + " dimension " + std::to_string(k) + " (" +
               std::to_string(sub->shape[k]) + ")");
      divisible = false;
    }
  auto indices = o.group(group_names::indices);
  if (indices.size() != rank) {
    fail(d, o,
         "expected one index per " + std::string(wholeName) + " dimension (" + std::to_string(rank) + "), got " +
             std::to_string(indices.size()));
    return;
  }
  if (!divisible) return;
  for (size_t k = 0; k < rank; ++k) {
    const Value& v = o.p.value(indices[k]->value);
    if (v.blockArg || v.owner == kNoId) continue;
    const Operation& def = o.p.op(v.owner);
    const Attr* lit = def.info && def.info->kind == OpKind::Constant ? attrs::value(def) : nullptr;
    if (!lit || lit->kind != AttrKind::Dense || lit->elems.size() != 1 || lit->elems[0].kind != AttrKind::Int) continue;
    auto raw = literalInt(lit->elems[0]);
    if (!raw) continue;
    int64_t idx = static_cast<int32_t>(*raw);  // an i32 index, read as signed
    int64_t subTiles = whole->shape[k] / sub->shape[k];
    if (idx >= 0 && idx < subTiles) continue;
    std::string msg = "'" + o.name() + "': index " + std::to_string(k) + " is " + std::to_string(idx) +
                      ", outside the " + count(subTiles, "sub-tile") + " along dimension " + std::to_string(k) +
                      " (valid 0 to " + std::to_string(subTiles - 1) + ")";
    auto& w = d.warning(o.onOpLine(indices[k]->range), "type", msg);
    w.notes.push_back({v.range, "the constant index is defined here"});
  }
}

}  // namespace

void extract(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type(group_names::source), res = o.result(0);
  if (!allTiles({src, res})) return;
  checkSameElement(o, src, res, d);
  checkSubTile(o, src, res, "source", "result", d);
}

void insert(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type(group_names::source), dst = o.type(group_names::destination);
  if (!allTiles({src, dst})) return;
  checkSameElement(o, src, dst, d);
  checkSubTile(o, dst, src, "destination", "source", d);
}

void select(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef cond = o.type(group_names::cond), val = o.type(group_names::valIfTrue);
  if (!allTiles({cond, val})) return;
  if (cond->shape != val->shape)
    failAt(d, o, operandRange(o, group_names::cond),
           "the condition has shape " + shapeText(cond->shape) + " but the values have shape " + shapeText(val->shape) +
               "; they must match");
  if (val->tileElem() == Elem::F4E2M1FN) fail(d, o, "f4E2M1FN values are not supported (a sub-byte element type)");
}

void pack(const Program& p, const Operation& op, DiagSink& d) { checkPackUnpack(OpRef{p, op}, d); }

void unpack(const Program& p, const Operation& op, DiagSink& d) { checkPackUnpack(OpRef{p, op}, d); }

}  // namespace tilesight::rules
