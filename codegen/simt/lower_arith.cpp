// Element-wise ops: integer and float arithmetic, comparisons, conversions,
// select, constants, iota, and the scalar ops of a tile block (its id, the
// grid, assume, assert, tokens). Each element is computed by the thread
// that owns it, with the interpreter's rules: integers wrap to their width,
// narrow floats round to their format after every op.
#include <functional>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/dense.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/simt/lowerer.h"

namespace tilesight::simt {

namespace {

using Expr = std::function<std::string(const std::vector<std::string>&)>;

// result = f(operands) element by element (operands of the result's shape).
void elementwise(Lowerer& L, const Operation& op, const std::vector<ValueId>& operands, const Expr& f) {
  ValueId r = op.results[0];
  L.declare(r);
  auto emit = [&] {
    std::vector<std::string> xs;
    for (ValueId v : operands) xs.push_back(L.at(v));
    L.code(L.at(r) + " = " + f(xs) + ";");
  };
  if (L.cyclic(r)) L.elements(L.count(r), emit);
  else emit();
}

std::vector<ValueId> operandsOf(const Operation& op) {
  std::vector<ValueId> v;
  for (const Operand& o : op.operands) v.push_back(o.value);
  return v;
}

// --- integers -------------------------------------------------------------------

const char* cmpText(Predicate p) {
  switch (p) {
    case Predicate::Equal: return "==";
    case Predicate::NotEqual: return "!=";
    case Predicate::LessThan: return "<";
    case Predicate::LessThanOrEqual: return "<=";
    case Predicate::GreaterThan: return ">";
    case Predicate::GreaterThanOrEqual: return ">=";
  }
  return "==";
}

bool lowerInteger(Lowerer& L, const Operation& op, OpKind k) {
  Elem e = Lowerer::elemOf(L.type(op.operands[0].value));
  unsigned bits = Lowerer::intWidth(e);
  std::string T = L.held(L.type(op.results[0]));
  std::string U = bits <= 32 ? "ts_u32" : "ts_u64";
  std::string B = num(bits);
  bool sgn = signednessOf(op).value_or(Signedness::Signed) == Signedness::Signed;
  std::string S = sgn ? "1" : "0";
  auto wide = [](const std::string& x) { return "(ts_i64)" + x; };
  auto wrapOp = [&](const char* o) -> Expr {
    return [=](const auto& x) {
      std::string v = "(" + U + ")" + x[0] + " " + o + " (" + U + ")" + x[1];
      return bits == 1 ? "(ts_i32)((" + v + ") & 1u)" : "(" + T + ")(" + v + ")";
    };
  };
  std::vector<ValueId> ops = operandsOf(op);
  switch (k) {
    case OpKind::Addi: elementwise(L, op, ops, wrapOp("+")); return true;
    case OpKind::Subi: elementwise(L, op, ops, wrapOp("-")); return true;
    case OpKind::Muli: elementwise(L, op, ops, wrapOp("*")); return true;
    case OpKind::Andi: elementwise(L, op, ops, [&](const auto& x) { return "(" + T + ")(" + x[0] + " & " + x[1] + ")"; }); return true;
    case OpKind::Ori: elementwise(L, op, ops, [&](const auto& x) { return "(" + T + ")(" + x[0] + " | " + x[1] + ")"; }); return true;
    case OpKind::Xori: elementwise(L, op, ops, [&](const auto& x) { return "(" + T + ")(" + x[0] + " ^ " + x[1] + ")"; }); return true;
    case OpKind::Shli:
      elementwise(L, op, ops, [&](const auto& x) { return "(" + T + ")ts_shl(" + wide(x[0]) + ", " + wide(x[1]) + ", " + B + ")"; });
      return true;
    case OpKind::Shri:
      elementwise(L, op, ops, [&](const auto& x) { return "(" + T + ")ts_shr(" + wide(x[0]) + ", " + wide(x[1]) + ", " + B + ", " + S + ")"; });
      return true;
    case OpKind::Divi: case OpKind::Remi: {
      Rounding rnd = k == OpKind::Remi ? Rounding::Zero : roundingOf(op).value_or(Rounding::Zero);
      std::string mode = rnd == Rounding::NegativeInf ? "1" : rnd == Rounding::PositiveInf ? "2" : "0";
      int id = L.faultId(std::string(k == OpKind::Divi ? "division" : "remainder") + " by zero");
      elementwise(L, op, ops, [&](const auto& x) {
        std::string args = wide(x[0]) + ", " + wide(x[1]) + ", " + B + ", " + S;
        return "(" + T + ")" + (k == OpKind::Divi ? "ts_divi(" + args + ", " + mode : "ts_remi(" + args) + ", ts_status, " + num(id) + ")";
      });
      return true;
    }
    case OpKind::Maxi: case OpKind::Mini: {
      bool max = k == OpKind::Maxi;
      elementwise(L, op, ops, [&](const auto& x) {
        std::string less = "ts_lt(" + wide(x[0]) + ", " + wide(x[1]) + ", " + B + ", " + S + ")";
        return "(" + less + " ? " + (max ? x[1] : x[0]) + " : " + (max ? x[0] : x[1]) + ")";
      });
      return true;
    }
    case OpKind::Mulhii:
      elementwise(L, op, ops, [&](const auto& x) { return "(" + T + ")ts_mulhi(" + wide(x[0]) + ", " + wide(x[1]) + ", " + B + ")"; });
      return true;
    case OpKind::Absi:
      elementwise(L, op, ops, [&](const auto& x) { return "(" + x[0] + " < 0 ? (" + T + ")(0u - (" + U + ")" + x[0] + ") : " + x[0] + ")"; });
      return true;
    case OpKind::Negi:
      elementwise(L, op, ops, [&](const auto& x) {
        return bits == 1 ? x[0] : "(" + T + ")(0u - (" + U + ")" + x[0] + ")";
      });
      return true;
    case OpKind::Cmpi: {
      const char* c = cmpText(predicateOf(op).value_or(Predicate::Equal));
      std::string f = sgn ? "ts_sgn" : "ts_uns";
      elementwise(L, op, ops, [&](const auto& x) {
        return "(ts_i32)(" + f + "(" + wide(x[0]) + ", " + B + ") " + c + " " + f + "(" + wide(x[1]) + ", " + B + "))";
      });
      return true;
    }
    default: return false;
  }
}

// --- floats -------------------------------------------------------------------------

// The smallest normal of format e, as a literal of its held type.
std::string minNormal(Elem e) {
  switch (e) {
    case Elem::F16: return "6.103515625e-05f";
    case Elem::F64: return "2.2250738585072014e-308";
    default: return "1.17549435e-38f";
  }
}

const char* ordered(Predicate p) {
  switch (p) {
    case Predicate::Equal: return "(A == B)";
    case Predicate::NotEqual: return "(A < B || A > B)";
    case Predicate::LessThan: return "(A < B)";
    case Predicate::LessThanOrEqual: return "(A <= B)";
    case Predicate::GreaterThan: return "(A > B)";
    case Predicate::GreaterThanOrEqual: return "(A >= B)";
  }
  return "0";
}
const char* unordered(Predicate p) {
  switch (p) {
    case Predicate::Equal: return "!(A < B || A > B)";
    case Predicate::NotEqual: return "!(A == B)";
    case Predicate::LessThan: return "!(A >= B)";
    case Predicate::LessThanOrEqual: return "!(A > B)";
    case Predicate::GreaterThan: return "!(A <= B)";
    case Predicate::GreaterThanOrEqual: return "!(A < B)";
  }
  return "0";
}

std::string substitute(std::string s, const std::string& a, const std::string& b) {
  std::string out;
  for (char c : s) out += c == 'A' ? a : c == 'B' ? b : std::string(1, c);
  return out;
}

const char* mathName(OpKind k) {
  switch (k) {
    case OpKind::Ceil: return "ceil";
    case OpKind::Floor: return "floor";
    case OpKind::Cos: return "cos";
    case OpKind::Cosh: return "cosh";
    case OpKind::Sin: return "sin";
    case OpKind::Sinh: return "sinh";
    case OpKind::Tan: return "tan";
    case OpKind::Log: return "log";
    case OpKind::Log2: return "log2";
    case OpKind::Tanh: return "tanh";
    case OpKind::Exp: return "exp";
    case OpKind::Exp2: return "exp2";
    case OpKind::Sqrt: return "sqrt";
    case OpKind::Absf: return "fabs";
    case OpKind::Pow: return "pow";
    case OpKind::Atan2: return "atan2";
    case OpKind::Remf: return "fmod";
    default: return nullptr;
  }
}

bool lowerFloat(Lowerer& L, const Operation& op, OpKind k) {
  Elem e = Lowerer::elemOf(L.type(op.operands[0].value));
  bool dbl = e == Elem::F64;
  std::optional<Rounding> rnd = roundingOf(op);
  bool directed = rnd && (*rnd == Rounding::Zero || *rnd == Rounding::NegativeInf || *rnd == Rounding::PositiveInf);
  std::optional<int> directedOp = k == OpKind::Addf ? 0 : k == OpKind::Subf ? 1 : k == OpKind::Mulf ? 2
                                : k == OpKind::Divf ? 3 : k == OpKind::Sqrt ? 4 : std::optional<int>{};
  if (directed && (!directedOp || e == Elem::TF32))
    L.unsupported(op, "directed rounding ('" + std::string(keywordName(*rnd)) + "') in this op");
  bool ftz = attrs::flushToZero(op) != nullptr;
  std::string zero = dbl ? "0.0" : "0.0f";
  auto flush = [&](const std::string& x) {
    if (!ftz) return x;
    return "(fabs(" + x + ") < " + minNormal(e) + " ? copysign(" + zero + ", " + x + ") : " + x + ")";
  };
  std::vector<ValueId> ops = operandsOf(op);
  auto F = [&](const Expr& body) {
    elementwise(L, op, ops, [&](const auto& x) {
      std::vector<std::string> in;
      for (const std::string& v : x) in.push_back(flush(v));
      return flush(Lowerer::round(e, body(in)));
    });
  };
  std::string sfx = dbl ? "D" : "F";
  if (directed) {  // the prelude's ts_directed* (mode 1 toward zero, 2 toward -inf, 3 toward +inf)
    std::string mode = *rnd == Rounding::Zero ? "1" : *rnd == Rounding::NegativeInf ? "2" : "3";
    std::string fn = e == Elem::F64 ? "ts_directedd(" : "ts_directedfmt(";
    std::string tail = e == Elem::F64 ? ")" : e == Elem::F32 ? ", 0)" : e == Elem::F16 ? ", 1)" : ", 2)";
    F([&](const auto& x) {
      return fn + num(*directedOp) + ", " + x[0] + ", " + (x.size() > 1 ? x[1] : std::string(dbl ? "0.0" : "0.0f")) + ", " +
             mode + tail;
    });
    return true;
  }
  switch (k) {
    case OpKind::Addf: F([&](const auto& x) { return "TS_ADD" + sfx + "(" + x[0] + ", " + x[1] + ")"; }); return true;
    case OpKind::Subf: F([&](const auto& x) { return "TS_SUB" + sfx + "(" + x[0] + ", " + x[1] + ")"; }); return true;
    case OpKind::Mulf: F([&](const auto& x) { return "TS_MUL" + sfx + "(" + x[0] + ", " + x[1] + ")"; }); return true;
    case OpKind::Divf: F([&](const auto& x) { return "(" + x[0] + " / " + x[1] + ")"; }); return true;
    case OpKind::Fma: F([&](const auto& x) { return "fma(" + x[0] + ", " + x[1] + ", " + x[2] + ")"; }); return true;
    case OpKind::Negf: F([&](const auto& x) { return "(-" + x[0] + ")"; }); return true;
    case OpKind::Fpowi:  // the integer exponent converted exactly (|n| < 2^31)
      F([&](const auto& x) { return "pow(" + x[0] + ", (" + std::string(dbl ? "double" : "float") + ")" + x[1] + ")"; });
      return true;
    case OpKind::Rsqrt: F([&](const auto& x) { return "(" + std::string(dbl ? "1.0" : "1.0f") + " / sqrt(" + x[0] + "))"; }); return true;
    case OpKind::Maxf: case OpKind::Minf: {
      std::string args = std::string(k == OpKind::Maxf ? "1" : "0") + ", " + (attrs::propagateNan(op) ? "1" : "0");
      F([&](const auto& x) { return std::string(dbl ? "ts_maxmind(" : "ts_maxminf(") + x[0] + ", " + x[1] + ", " + args + ")"; });
      return true;
    }
    case OpKind::Cmpf: {
      Predicate p = predicateOf(op).value_or(Predicate::Equal);
      bool ord = attrValue<CmpOrdering>(op, attr_names::comparisonOrdering).value_or(CmpOrdering::Ordered) == CmpOrdering::Ordered;
      elementwise(L, op, ops, [&](const auto& x) {
        return "(ts_i32)(" + substitute(ord ? ordered(p) : unordered(p), flush(x[0]), flush(x[1])) + ")";
      });
      return true;
    }
    default: break;
  }
  const char* fn = mathName(k);
  if (!fn) return false;
  F([&](const auto& x) {
    std::string args = x[0];
    for (size_t i = 1; i < x.size(); ++i) args += ", " + x[i];
    return std::string(fn) + "(" + args + ")";
  });
  return true;
}

// --- conversions ---------------------------------------------------------------------

bool lowerConversion(Lowerer& L, const Operation& op, OpKind k) {
  TypeRef from = L.type(op.operands[0].value), to = L.type(op.results[0]);
  Elem fe = Lowerer::elemOf(from), te = Lowerer::elemOf(to);
  std::string T = L.held(to);
  L.held(from);
  unsigned fb = Lowerer::intWidth(fe), tb = Lowerer::intWidth(te);
  bool sgn = signednessOf(op).value_or(Signedness::Signed) == Signedness::Signed;
  std::vector<ValueId> ops = {op.operands[0].value};
  std::optional<Rounding> rnd = roundingOf(op);
  switch (k) {
    case OpKind::Exti:
      elementwise(L, op, ops, [&](const auto& x) {
        return "(" + T + ")" + (sgn ? "ts_sgn" : "ts_uns") + "((ts_i64)" + x[0] + ", " + num(fb) + ")";
      });
      return true;
    case OpKind::Trunci:
      elementwise(L, op, ops, [&](const auto& x) { return "(" + T + ")ts_wrap((ts_i64)" + x[0] + ", " + num(tb) + ")"; });
      return true;
    case OpKind::Ftof:
      // f8E8M0FNU takes rounding<zero> or rounding<positive_inf> (the verifier asks for one).
      if (te == Elem::F8E8M0FNU && rnd && (*rnd == Rounding::Zero || *rnd == Rounding::PositiveInf)) {
        std::string mode = *rnd == Rounding::Zero ? "1" : "2";
        elementwise(L, op, ops, [&](const auto& x) { return "ts_dece8m0(ts_ence8m0((float)" + x[0] + ", " + mode + "))"; });
        return true;
      }
      if (rnd && *rnd != Rounding::NearestEven) L.unsupported(op, "directed rounding in 'ftof'");
      elementwise(L, op, ops, [&](const auto& x) { return Lowerer::round(te, "(" + T + ")" + x[0]); });
      return true;
    case OpKind::Itof:
      if (rnd && *rnd != Rounding::NearestEven) L.unsupported(op, "directed rounding in 'itof'");
      elementwise(L, op, ops, [&](const auto& x) {
        std::string v = sgn ? "ts_sgn((ts_i64)" + x[0] + ", " + num(fb) + ")" : "ts_uns((ts_i64)" + x[0] + ", " + num(fb) + ")";
        return Lowerer::round(te, "(" + T + ")" + v);
      });
      return true;
    case OpKind::Ftoi:
      if (rnd && *rnd != Rounding::NearestIntToZero) L.unsupported(op, "rounding other than toward zero in 'ftoi'");
      elementwise(L, op, ops, [&](const auto& x) {
        return "(" + T + ")ts_ftoi((double)" + x[0] + ", " + num(tb) + ", " + (sgn ? "1" : "0") + ")";
      });
      return true;
    case OpKind::Bitcast:
      elementwise(L, op, ops, [&](const auto& x) { return Lowerer::fromBits(te, T, Lowerer::bitsOf(fe, x[0])); });
      return true;
    case OpKind::PtrToInt: case OpKind::IntToPtr: case OpKind::PtrToPtr:
      // Through the byte address: a 4-bit pointee's pointers count nibbles (Lowerer::pointerAt).
      elementwise(L, op, ops, [&](const auto& x) {
        std::string a = from->isPtrTile() ? Lowerer::addressOf(from->element->elem, "(ts_u64)" + x[0]) : x[0];
        return "(" + T + ")" + (to->isPtrTile() ? Lowerer::pointerAt(to->element->elem, "(ts_u64)" + a) : a);
      });
      return true;
    default: return false;
  }
}

// --- constants and scalars -------------------------------------------------------------

std::string denseElement(const DenseValues& d, size_t i, Elem e, const std::string& T) {
  if (isFloatElem(e)) {
    if (d.isBits.size() > i && d.isBits[i]) return Lowerer::fromBits(e, T, "((ts_u64)" + std::to_string(static_cast<uint64_t>(d.ints[i])) + "u)");
    return Lowerer::floatLiteral(e, d.floats[i]);
  }
  unsigned bits = Lowerer::intWidth(e);
  int64_t v = d.ints[i];
  if (bits < 64) {
    uint64_t m = (uint64_t{1} << bits) - 1, u = static_cast<uint64_t>(v) & m;
    v = bits == 1 ? static_cast<int64_t>(u) : (u >> (bits - 1)) ? static_cast<int64_t>(u | ~m) : static_cast<int64_t>(u);
  }
  return "(" + T + ")" + intLit(v);
}

void lowerConstant(Lowerer& L, const Operation& op) {
  ValueId r = op.results[0];
  std::optional<DenseValues> d = denseValues(*attrs::value(op));
  if (!d || d->size() == 0) L.unsupported(op, "this constant's literal");
  Elem e = Lowerer::elemOf(L.type(r));
  std::string T = L.held(L.type(r));
  L.declare(r);
  int64_t n = L.count(r);
  if (d->splat || d->size() == 1) {
    std::string v = denseElement(*d, 0, e, T);
    if (n > 1) L.elements(n, [&] { L.code(L.at(r) + " = " + v + ";"); });
    else L.code(L.name(r) + " = " + v + ";");
    return;
  }
  std::string table = "t" + std::to_string(r), list;
  for (size_t i = 0; i < d->size(); ++i) list += (i ? ", " : "") + denseElement(*d, i, e, T);
  L.kernel().constants.push_back("const " + T + " " + table + "[" + std::to_string(d->size()) + "] = {" + list + "};");
  if (n > 1) L.elements(n, [&] { L.code(L.at(r) + " = " + table + "[k % " + std::to_string(d->size()) + "];"); });
  else L.code(L.name(r) + " = " + table + "[0];");
}

void gridScalars(Lowerer& L, const Operation& op, const char* macro) {
  for (size_t i = 0; i < op.results.size(); ++i) {
    L.declare(op.results[i]);
    L.code(L.name(op.results[i]) + " = (" + L.held(L.type(op.results[i])) + ")" + macro + "(" + num(static_cast<int64_t>(i)) + ");");
  }
}

// print_tko: thread 0 reserves the op's record in the print buffer and
// shares where it starts through staging memory; each thread then writes
// the elements it holds (Kernel::prints has the layout; the host formats).
void lowerPrint(Lowerer& L, const Operation& op) {
  Kernel& k = L.kernel();
  k.prints.push_back(&op);
  std::string site = num(static_cast<int64_t>(k.prints.size()));
  std::string at = "ts_pr" + site, fits = "ts_prok" + site;
  int64_t words = 1;
  for (const Operand& o : op.operands)
    if (L.type(o.value)->isTile()) words += L.count(o.value);
  L.needStage(8);
  L.barrier();
  L.code("if (ts_tid == 0) TS_STAGE(ts_u64, 0)[0] = ts_reserve(ts_print, " + num(words) + ");");
  L.barrier();
  L.code("const ts_u64 " + at + " = TS_STAGE(ts_u64, 0)[0];");
  L.code("const int " + fits + " = " + at + " + " + num(words) + " <= ts_print[1];");
  L.barrier();  // the staged word is read before any later op stages
  L.code("if (ts_tid == 0 && " + fits + ") ts_print[" + at + "] = ((ts_u64)" + site +
         " << 32) | (ts_u32)(TS_BID(0) + TS_NBLK(0) * (TS_BID(1) + TS_NBLK(1) * TS_BID(2)));");
  int64_t offset = 1;
  for (const Operand& o : op.operands) {
    ValueId v = o.value;
    if (!L.type(v)->isTile()) continue;
    Elem e = Lowerer::elemOf(L.type(v));
    auto word = [&](const std::string& x) {
      return isFloatElem(e) ? "TS_F64_BITS((double)" + x + ")" : "(ts_u64)(ts_i64)" + x;
    };
    std::string base = at + " + " + num(offset);
    if (L.cyclic(v)) L.elements(L.count(v), [&] { L.code("if (" + fits + ") ts_print[" + base + " + k] = " + word(L.at(v)) + ";"); });
    else L.code("if (ts_tid == 0 && " + fits + ") ts_print[" + base + "] = " + word(L.name(v)) + ";");
    offset += L.count(v);
  }
}

bool lowerScalarOps(Lowerer& L, const Operation& op, OpKind k) {
  switch (k) {
    case OpKind::Select:
      elementwise(L, op, operandsOf(op), [](const auto& x) { return "(" + x[0] + " ? " + x[1] + " : " + x[2] + ")"; });
      return true;
    case OpKind::Constant: lowerConstant(L, op); return true;
    case OpKind::Iota:
      elementwise(L, op, {}, [&](const auto&) { return "(" + L.held(L.type(op.results[0])) + ")" + std::string(L.cyclic(op.results[0]) ? "k" : "0"); });
      return true;
    case OpKind::Assume: {
      ValueId v = op.operands[0].value;
      if (L.type(v) && L.type(v)->isTile()) elementwise(L, op, {v}, [](const auto& x) { return x[0]; });
      else L.setTensorOf(op.results[0], L.tensorOf(v));
      return true;
    }
    case OpKind::GetTileBlockId: gridScalars(L, op, "TS_BID"); return true;
    case OpKind::GetNumTileBlocks: gridScalars(L, op, "TS_NBLK"); return true;
    // Tokens order nothing in the generated code, which runs each block's
    // memory ops in program order; one launch is one kernel (no programmatic
    // dependent launch), so grid dependency control has nothing to wait for.
    case OpKind::MakeToken: case OpKind::JoinTokens: case OpKind::GdcLaunchDependentsTko: case OpKind::GdcWaitTko:
    case OpKind::MemoryFenceAliasTko:
      return true;
    case OpKind::PrintTko: lowerPrint(L, op); return true;
    case OpKind::Assert: {
      ValueId c = op.operands[0].value;
      const Attr* m = attrs::message(op);
      int id = L.faultId("assertion failed: " + (m ? m->s : std::string()));
      std::string stmt = "if (!" + L.at(c) + ") ts_fail(ts_status, " + num(id) + ");";
      if (L.cyclic(c)) L.elements(L.count(c), [&] { L.code(stmt); });
      else L.code(stmt);
      return true;
    }
    default: return false;
  }
}

}  // namespace

bool lowerArith(Lowerer& L, const Operation& op) {
  OpKind k = op.info->kind;
  switch (op.info->category) {
    case OpCategory::Integer: return k != OpKind::Mmai && lowerInteger(L, op, k);
    case OpCategory::Float: return k != OpKind::Mmaf && k != OpKind::MmafScaled && lowerFloat(L, op, k);
    case OpCategory::Conversion: return lowerConversion(L, op, k);
    default: return lowerScalarOps(L, op, k);
  }
}

}  // namespace tilesight::simt
