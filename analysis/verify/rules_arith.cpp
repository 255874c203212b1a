// Integer and float arithmetic, comparisons and matrix ops.
#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "analysis/ir/op_accessors.h"
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

namespace {

// "a, b or c"
std::string joined(const std::vector<std::string_view>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + std::string(words[i]);
  return out;
}

bool contains(const std::vector<std::string_view>& set, std::string_view w) {
  return std::find(set.begin(), set.end(), w) != set.end();
}

// Where to point at an attribute: the attribute itself, else the op name.
Range attrRange(const OpRef& o, std::string_view name) {
  const Attr* a = o.attr(name);
  return a ? a->range : o.at();
}

// Rounding modes a float op accepts and whether `full` is f32-only (it is
// for divf; for tanh/exp `full` is the ordinary, any-precision mode), from
// the kind its format gives `rounding_mode` (rnd_ieee, rnd_divf, ...); the
// default is the format's too (OpInfo::attrDefault).
struct RoundingSpec {
  std::vector<std::string_view> allowed;
  bool fullNeedsF32 = false;
};

RoundingSpec roundingSpec(const OpInfo& info) {
  std::vector<std::string_view> ieee = {"nearest_even", "zero", "negative_inf", "positive_inf"};
  const FormatElem* attr = info.attrSyntax(attr_names::roundingMode);
  std::string_view kind = attr ? std::string_view(attr->text) : std::string_view();
  if (kind == "rnd_ieee") return {ieee};
  if (kind == "rnd_divf") {
    ieee.insert(ieee.end(), {"approx", "full"});
    return {ieee, true};
  }
  if (kind == "rnd_sqrt") {
    ieee.push_back("approx");
    return {ieee};
  }
  if (kind == "rnd_tanh" || kind == "rnd_exp") return {{"approx", "full"}};
  return {};  // maxf, minf, exp2, rsqrt: no rounding attribute
}

void checkRounding(const OpRef& o, Elem elem, DiagSink& d) {
  RoundingSpec spec = roundingSpec(*o.op.info);
  if (spec.allowed.empty()) return;
  std::string mode = o.keyword(attr_names::roundingMode);
  Range at = attrRange(o, attr_names::roundingMode);
  if (!contains(spec.allowed, mode)) {
    failAt(d, o, at, "rounding<" + mode + "> is not accepted here; use one of " + joined(spec.allowed));
    return;
  }
  bool f32Only = mode == "approx" || (mode == "full" && spec.fullNeedsF32);
  if (f32Only && elem != Elem::F32)
    failAt(d, o, at, "rounding<" + mode + "> is only available for f32, but the elements are " +
                         std::string(elemName(elem)));
}

// A matrix operand under its declared name (for messages).
struct MatOperand {
  std::string_view name;
  const Operand* use;
  TypeRef type;
};

// Matrix ops take (B x) M x K times (B x) K x N into (B x) M x N. Returns false
// when the ranks are unusable, so the caller skips the per-dimension checks.
bool checkMmaRanks(const OpRef& o, const std::vector<MatOperand>& ops, DiagSink& d) {
  size_t rank = ops.front().type->shape.size();
  bool same = std::all_of(ops.begin(), ops.end(), [&](const MatOperand& m) { return m.type->shape.size() == rank; });
  if (!same) {
    std::string list;
    for (const auto& m : ops)
      list += (list.empty() ? "" : ", ") + std::string(m.name) + " " + shapeText(m.type->shape) + " (rank " +
              std::to_string(m.type->shape.size()) + ")";
    fail(d, o, "operands must all have the same rank, got " + list);
    return false;
  }
  if (rank != 2 && rank != 3) {
    fail(d, o, "operands must be 2-D matrices or 3-D batches of matrices, got rank " + std::to_string(rank));
    return false;
  }
  return true;
}

void requireDimsEqual(const OpRef& o, DiagSink& d, std::string_view what, const MatOperand& a, size_t ad,
                      const MatOperand& b, size_t bd) {
  int64_t x = a.type->shape[ad], y = b.type->shape[bd];
  if (x == y) return;
  failAt(d, o, b.use->range,
         std::string(what) + " mismatch: dim " + std::to_string(ad) + " of " + std::string(a.name) + " is " +
             std::to_string(x) + " but dim " + std::to_string(bd) + " of " + std::string(b.name) + " is " +
             std::to_string(y) + " (" + std::string(a.name) + " " + shapeText(a.type->shape) + ", " +
             std::string(b.name) + " " + shapeText(b.type->shape) + ")");
}

void checkMmaDims(const OpRef& o, const MatOperand& lhs, const MatOperand& rhs, const MatOperand& acc, DiagSink& d) {
  size_t batched = lhs.type->shape.size() == 3;
  size_t row = batched, col = batched + 1;
  if (batched) {
    requireDimsEqual(o, d, "batch", lhs, 0, rhs, 0);
    requireDimsEqual(o, d, "batch", lhs, 0, acc, 0);
  }
  requireDimsEqual(o, d, "K", lhs, col, rhs, row);
  requireDimsEqual(o, d, "M", lhs, row, acc, row);
  requireDimsEqual(o, d, "N", rhs, col, acc, col);
}

// Same element type on lhs and rhs; the accumulator is the result.
bool checkMmaElems(const OpRef& o, const MatOperand& lhs, const MatOperand& rhs, const MatOperand& acc, DiagSink& d) {
  if (o.result(0) && o.result(0) != acc.type)
    fail(d, o, "result type " + quoted(o.result(0)) + " must be the accumulator type " + quoted(acc.type));
  if (lhs.type->element == rhs.type->element) return true;
  failAt(d, o, rhs.use->range,
         "lhs and rhs must have the same element type, got " + elemStr(lhs.type) + " and " + elemStr(rhs.type));
  return false;
}

// lhs, rhs, acc (and more) with their types; empty when an operand is missing.
std::vector<MatOperand> matOperands(const OpRef& o, std::initializer_list<std::string_view> names) {
  std::vector<MatOperand> out;
  for (auto n : names) {
    const Operand* u = o.operand(n);
    TypeRef t = u ? o.p.typeOf(u->value) : nullptr;
    if (!t || !t->isTile()) return {};
    out.push_back({n, u, t});
  }
  return out;
}

std::vector<Elem> mmafAccumulators(Elem in) {
  switch (in) {
    case Elem::F8E4M3FN:
    case Elem::F8E5M2:
    case Elem::F16: return {Elem::F16, Elem::F32};
    case Elem::BF16:
    case Elem::TF32:
    case Elem::F32: return {Elem::F32};
    case Elem::F64: return {Elem::F64};
    default: return {};
  }
}

std::string elemList(const std::vector<Elem>& es) {
  std::vector<std::string_view> names;
  for (Elem e : es) names.push_back(elemName(e));
  return joined(names);
}

// mmaf_scaled: scales are (B x) M x K/s and (B x) K/s x N with a block size s
// fixed by the element types.
void checkScaleShapes(const OpRef& o, const std::vector<MatOperand>& m, DiagSink& d) {
  const auto &lhs = m[0], &rhs = m[1], &ls = m[3], &rs = m[4];
  size_t batched = lhs.type->shape.size() == 3;
  size_t row = batched, col = batched + 1;
  if (batched) {
    requireDimsEqual(o, d, "batch", lhs, 0, ls, 0);
    requireDimsEqual(o, d, "batch", rhs, 0, rs, 0);
  }
  requireDimsEqual(o, d, "M", lhs, row, ls, row);
  requireDimsEqual(o, d, "N", rhs, col, rs, col);
  requireDimsEqual(o, d, "scaled K", ls, col, rs, row);
}

void checkScaleBlocks(const OpRef& o, const std::vector<MatOperand>& m, DiagSink& d) {
  const auto &lhs = m[0], &ls = m[3];
  Elem in = lhs.type->tileElem(), scale = ls.type->tileElem();
  size_t col = lhs.type->shape.size() == 3 ? 2 : 1;
  int64_t k = lhs.type->shape[col], sk = ls.type->shape[col];
  if (sk <= 0 || k % sk != 0) {
    failAt(d, o, ls.use->range,
           "dim " + std::to_string(col) + " of lhs_scale (" + std::to_string(sk) + ") must divide K = " +
               std::to_string(k) + " (lhs " + shapeText(lhs.type->shape) + ", lhs_scale " +
               shapeText(ls.type->shape) + ")");
    return;
  }
  int64_t block = k / sk;
  std::string got = "K / scale K = " + std::to_string(k) + " / " + std::to_string(sk) + " = " + std::to_string(block);
  if ((in == Elem::F8E4M3FN || in == Elem::F8E5M2) && block != 32)
    failAt(d, o, ls.use->range, std::string(elemName(in)) + " inputs need a scale block size of 32, got " + got);
  if (in == Elem::F4E2M1FN && scale == Elem::F8E4M3FN && block != 16)
    failAt(d, o, ls.use->range, "f4E2M1FN inputs with f8E4M3FN scales need a scale block size of 16, got " + got);
  if (in == Elem::F4E2M1FN && scale == Elem::F8E8M0FNU && block != 16 && block != 32)
    failAt(d, o, ls.use->range,
           "f4E2M1FN inputs with f8E8M0FNU scales need a scale block size of 16 or 32, got " + got);
}

}  // namespace

void divi(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  std::string mode = o.keyword(attr_names::rounding);
  Range at = attrRange(o, attr_names::rounding);
  if (mode != "zero" && mode != "negative_inf" && mode != "positive_inf")
    failAt(d, o, at, "rounding<" + mode + "> is not an integer division mode; use zero, negative_inf or positive_inf");
  else if (mode == "negative_inf" && o.keyword(attr_names::signedness) == "unsigned")
    failAt(d, o, at, "rounding<negative_inf> (floor division) cannot be combined with unsigned division");
}

void negi(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  if (o.keyword(attr_names::overflow) == "no_unsigned_wrap")
    failAt(d, o, attrRange(o, attr_names::overflow), "overflow<no_unsigned_wrap> is not supported for negation");
}

void floatModifiers(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef t = o.result(0);
  if (!t || !t->isTile()) return;
  Elem elem = t->tileElem();
  checkRounding(o, elem, d);
  if (attrs::flushToZero(o.op) && elem != Elem::F32)
    failAt(d, o, attrRange(o, attr_names::flushToZero),
           "flush_to_zero is only available for f32, but the elements are " + std::string(elemName(elem)));
}

void cmpResult(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef lhs = o.type(group_names::lhs), rhs = o.type(group_names::rhs), res = o.result(0);
  if (!lhs || !rhs || !res) return;
  if (lhs != rhs)
    failAt(d, o, o.operand(group_names::rhs)->range,
           "both operands must have the same type, got " + quoted(lhs) + " and " + quoted(rhs));
  if (lhs->isTile() && res->isTile() && lhs->shape != res->shape)
    fail(d, o, "the i1 result must have the operand shape " + shapeText(lhs->shape) + ", got " +
                   shapeText(res->shape));
}

void fpowi(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type(group_names::source), exp = o.type(group_names::exponent);
  if (!allTiles({src, exp})) return;
  if (src->shape != exp->shape)
    failAt(d, o, o.operand(group_names::exponent)->range,
           "the exponent has shape " + shapeText(exp->shape) + " but the source has shape " +
               shapeText(src->shape) + "; they must match");
}

void mmaf(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  auto m = matOperands(o, {group_names::lhs, group_names::rhs, group_names::acc});
  if (m.empty()) return;
  bool sameElems = checkMmaElems(o, m[0], m[1], m[2], d);
  if (checkMmaRanks(o, m, d)) checkMmaDims(o, m[0], m[1], m[2], d);
  if (!sameElems) return;
  Elem in = m[0].type->tileElem(), acc = m[2].type->tileElem();
  auto allowed = mmafAccumulators(in);
  if (std::find(allowed.begin(), allowed.end(), acc) == allowed.end())
    failAt(d, o, m[2].use->range,
           std::string(elemName(in)) + " inputs accumulate into " + elemList(allowed) + ", not " +
               std::string(elemName(acc)));
}

void mmai(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  auto m = matOperands(o, {group_names::lhs, group_names::rhs, group_names::acc});
  if (m.empty()) return;
  checkMmaElems(o, m[0], m[1], m[2], d);
  if (checkMmaRanks(o, m, d)) checkMmaDims(o, m[0], m[1], m[2], d);
  if (m[2].type->tileElem() != Elem::I32)
    failAt(d, o, m[2].use->range, "i8 inputs accumulate into i32, not " + elemStr(m[2].type));
}

void mmafScaled(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  auto m = matOperands(o, {group_names::lhs, group_names::rhs, group_names::acc, group_names::lhsScale, group_names::rhsScale});
  if (m.empty()) return;
  bool elemsOk = checkMmaElems(o, m[0], m[1], m[2], d);
  Elem in = m[0].type->tileElem(), scale = m[3].type->tileElem();
  if (scale != m[4].type->tileElem()) {
    failAt(d, o, m[4].use->range,
           "lhs_scale and rhs_scale must have the same element type, got " + elemStr(m[3].type) + " and " +
               elemStr(m[4].type));
    elemsOk = false;
  }
  if (elemsOk && scale == Elem::F8E4M3FN && in != Elem::F4E2M1FN) {
    failAt(d, o, m[3].use->range, "f8E4M3FN scales go with f4E2M1FN inputs only, got " + elemStr(m[0].type));
    elemsOk = false;
  }
  if (!checkMmaRanks(o, m, d)) return;
  checkMmaDims(o, m[0], m[1], m[2], d);
  checkScaleShapes(o, m, d);
  if (elemsOk) checkScaleBlocks(o, m, d);  // block sizes depend on a valid element combination
}

}  // namespace tilesight::rules
