// The lowering's driver: the kernel's parameters and thread count, the
// walk over regions, the value and type helpers every family shares, and
// control flow (if, for, loop and their terminators).
#include "codegen/simt/lower.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/simt/lowerer.h"

namespace tilesight::simt {

std::string intLit(int64_t v) {
  if (v == INT64_MIN) return "((ts_i64)(-9223372036854775807 - 1))";
  return "((ts_i64)" + std::to_string(v) + ")";
}

std::vector<std::string> coordsOf(const std::string& k, const std::vector<int64_t>& shape) {
  std::vector<std::string> c(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    std::string q = stride == 1 ? k : "(" + k + " / " + std::to_string(stride) + ")";
    c[i] = i == 0 ? q : "(" + q + " % " + std::to_string(shape[i]) + ")";
    stride *= shape[i];
  }
  return c;
}

std::string indexOf(const std::vector<std::string>& c, const std::vector<int64_t>& shape) {
  if (c.empty()) return "0";
  std::string s = c[0];
  for (size_t i = 1; i < c.size(); ++i) s = "(" + s + ") * " + std::to_string(shape[i]) + " + " + c[i];
  return s;
}

Stmt& Lowerer::nest(Stmt s, const std::function<void()>& fill) {
  out_->push_back(std::move(s));
  size_t at = out_->size() - 1;
  std::vector<Stmt>* saved = out_;
  std::vector<Stmt> body;
  out_ = &body;
  fill();
  out_ = saved;
  (*out_)[at].body = std::move(body);
  return (*out_)[at];
}

void Lowerer::into(std::vector<Stmt>& body, const std::function<void()>& fill) {
  std::vector<Stmt>* saved = out_;
  out_ = &body;
  fill();
  out_ = saved;
}

int64_t Lowerer::count(ValueId v) const {
  TypeRef t = type(v);
  return t && t->isTile() ? t->numElements() : 1;
}

Elem Lowerer::elemOf(TypeRef tile) { return tile->isPtrTile() ? Elem::I64 : tile->tileElem(); }

unsigned Lowerer::intWidth(Elem e) { return e == Elem::I1 ? 1 : elemBits(e); }

namespace {

// The prelude's TS_ name of a small sign/exponent/mantissa format, or null.
const char* smallFormat(Elem e) {
  switch (e) {
    case Elem::F8E4M3FN: return "TS_E4M3";
    case Elem::F8E5M2: return "TS_E5M2";
    case Elem::F4E2M1FN: return "TS_E2M1";
    default: return nullptr;
  }
}

}  // namespace

std::string Lowerer::held(TypeRef tile) const {
  if (tile->isPtrTile()) return "ts_u64";
  switch (tile->tileElem()) {
    case Elem::I1: case Elem::I32: return "ts_i32";
    case Elem::I8: return "ts_i8";
    case Elem::I16: return "ts_i16";
    case Elem::I64: return "ts_i64";
    case Elem::F16: case Elem::BF16: case Elem::F32: case Elem::TF32: return "float";
    case Elem::F8E4M3FN: case Elem::F8E5M2: case Elem::F8E8M0FNU: case Elem::F4E2M1FN: return "float";
    case Elem::F64: return "double";
    default: throw Unsupported(0, "element type " + std::string(elemName(tile->tileElem())));
  }
}

std::string Lowerer::memType(Elem e) {
  switch (e) {
    case Elem::I1: return "ts_u8";
    case Elem::I8: return "ts_i8";
    case Elem::I16: return "ts_i16";
    case Elem::I32: return "ts_i32";
    case Elem::I64: return "ts_i64";
    case Elem::F16: case Elem::BF16: return "ts_u16";
    case Elem::F8E4M3FN: case Elem::F8E5M2: case Elem::F8E8M0FNU: return "ts_u8";
    case Elem::TF32: return "ts_u32";
    case Elem::F32: return "float";
    case Elem::F64: return "double";
    default: throw Unsupported(0, "memory of element type " + std::string(elemName(e)));
  }
}

std::string Lowerer::round(Elem e, const std::string& x) {
  switch (e) {
    case Elem::F16: return "ts_rf16(" + x + ")";
    case Elem::BF16: return "ts_rbf16(" + x + ")";
    case Elem::TF32: return "ts_rtf32(" + x + ")";
    case Elem::F8E8M0FNU: return "ts_dece8m0(ts_ence8m0(" + x + ", 0))";
    default: return smallFormat(e) ? "ts_roundf(" + x + ", " + smallFormat(e) + ")" : x;
  }
}

std::string Lowerer::fromMemory(Elem e, const std::string& bits) {
  switch (e) {
    case Elem::I1: return "((ts_i32)((" + bits + ") & 1))";
    case Elem::F16: return "ts_h2f(" + bits + ")";
    case Elem::BF16: return "ts_bf2f(" + bits + ")";
    case Elem::TF32: return "TS_BITS_F32(" + bits + ")";
    case Elem::F8E8M0FNU: return "ts_dece8m0((ts_u32)(" + bits + "))";
    default: return smallFormat(e) ? "ts_decf((ts_u32)(" + bits + "), " + smallFormat(e) + ")" : bits;
  }
}

std::string Lowerer::toMemory(Elem e, const std::string& v) {
  switch (e) {
    case Elem::I1: return "(ts_u8)((" + v + ") & 1)";
    case Elem::F16: return "(ts_u16)ts_f2h(" + v + ")";
    case Elem::BF16: return "(ts_u16)ts_f2bf(" + v + ")";
    case Elem::TF32: return "TS_F32_BITS(" + v + ")";
    case Elem::F8E8M0FNU: return "(ts_u8)ts_ence8m0(" + v + ", 0)";
    default: return smallFormat(e) ? "(ts_u8)ts_encf(" + v + ", " + smallFormat(e) + ")" : v;
  }
}

std::string Lowerer::bitsOf(Elem e, const std::string& x) {
  switch (e) {
    case Elem::F32: case Elem::TF32: return "(ts_u64)TS_F32_BITS(" + x + ")";
    case Elem::F16: return "(ts_u64)ts_f2h(" + x + ")";
    case Elem::BF16: return "(ts_u64)ts_f2bf(" + x + ")";
    case Elem::F64: return "TS_F64_BITS(" + x + ")";
    case Elem::F8E8M0FNU: return "(ts_u64)ts_ence8m0(" + x + ", 0)";
    default:
      if (smallFormat(e)) return "(ts_u64)ts_encf(" + x + ", " + smallFormat(e) + ")";
      return "ts_uns((ts_i64)" + x + ", " + num(intWidth(e)) + ")";
  }
}

std::string Lowerer::fromBits(Elem e, const std::string& T, const std::string& x) {
  switch (e) {
    case Elem::F32: case Elem::TF32: return "TS_BITS_F32((ts_u32)" + x + ")";
    case Elem::F16: return "ts_h2f((ts_u32)" + x + ")";
    case Elem::BF16: return "ts_bf2f((ts_u32)" + x + ")";
    case Elem::F64: return "TS_BITS_F64(" + x + ")";
    case Elem::F8E8M0FNU: return "ts_dece8m0((ts_u32)" + x + ")";
    default:
      if (smallFormat(e)) return "ts_decf((ts_u32)" + x + ", " + smallFormat(e) + ")";
      return "(" + T + ")ts_wrap((ts_i64)" + x + ", " + num(intWidth(e)) + ")";
  }
}

std::string Lowerer::floatLiteral(Elem e, double v) {
  bool dbl = e == Elem::F64;
  if (std::isnan(v)) return dbl ? "TS_BITS_F64(0x7ff8000000000000u)" : "TS_BITS_F32(0x7fc00000u)";
  if (std::isinf(v)) {
    if (dbl) return v > 0 ? "TS_BITS_F64(0x7ff0000000000000u)" : "TS_BITS_F64(0xfff0000000000000u)";
    return v > 0 ? "TS_BITS_F32(0x7f800000u)" : "TS_BITS_F32(0xff800000u)";
  }
  char buf[64];
  if (dbl) std::snprintf(buf, sizeof buf, "%a", v);
  else std::snprintf(buf, sizeof buf, "%af", static_cast<double>(static_cast<float>(v)));
  return round(e, buf);
}

std::string Lowerer::pointerAt(Elem pointee, const std::string& a) {
  return elemBits(pointee) == 4 ? "((ts_u64)(" + a + ") * 2u)" : a;
}

std::string Lowerer::addressOf(Elem pointee, const std::string& p) {
  return elemBits(pointee) == 4 ? "((ts_u64)(" + p + ") >> 1)" : p;
}

std::string Lowerer::guard(const Operation& op, const char* what, const std::string& addr, uint64_t bytes, ValueId tile,
                           const std::string& k) {
  if (!guarded) return "1";
  k_.guarded = true;
  k_.guardSites.push_back({&op, what, bytes, type(tile)});
  return "ts_guarded(ts_guard, " + addr + ", " + num(static_cast<int64_t>(bytes)) + ", " +
         num(static_cast<int64_t>(k_.guardSites.size() - 1)) + ", " + k + ")";
}

uint64_t Lowerer::heldBytes(TypeRef tile) const {
  held(tile);  // rejects what the lowering does not hold
  if (tile->isPtrTile()) return 8;
  switch (tile->tileElem()) {
    case Elem::I8: return 1;
    case Elem::I16: return 2;
    case Elem::I64: case Elem::F64: return 8;
    default: return 4;
  }
}

void Lowerer::declare(ValueId v) {
  TypeRef t = type(v);
  if (!t || !t->isTile()) return;
  int64_t n = count(v);
  std::string decl = held(t) + " " + name(v);
  if (n > 1) decl += "[" + std::to_string((n + threads() - 1) / threads()) + "]";
  code(decl + ";");
}

uint64_t Lowerer::stageWrite(ValueId v, uint64_t off) {
  std::string T = held(type(v));
  int64_t n = count(v);
  if (n > 1) elements(n, [&] { code("TS_STAGE(" + T + ", " + std::to_string(off) + ")[k] = " + at(v) + ";"); });
  else code("if (ts_tid == 0) TS_STAGE(" + T + ", " + std::to_string(off) + ")[0] = " + name(v) + ";");
  return align8(static_cast<uint64_t>(n) * heldBytes(type(v)));
}

std::vector<uint64_t> Lowerer::stageAll(const std::vector<ValueId>& values) {
  barrier();
  std::vector<uint64_t> offs{0};
  for (ValueId v : values) offs.push_back(offs.back() + stageWrite(v, offs.back()));
  needStage(offs.back());
  barrier();
  return offs;
}

std::string Lowerer::staged(ValueId v, uint64_t off, const std::string& idx) const {
  return "TS_STAGE(" + held(type(v)) + ", " + std::to_string(off) + ")[" + idx + "]";
}

int Lowerer::faultId(std::string message) {
  k_.faults.push_back(std::move(message));
  return static_cast<int>(k_.faults.size() - 1);
}

void Lowerer::unsupported(const Operation& op, const std::string& what) const { throw Unsupported(op.range.begin, what); }

void Lowerer::lowerBlock(const Block& b) {
  for (OpId id : b.ops) lowerOp(p_.op(id));
}

void Lowerer::lowerOp(const Operation& op) {
  try {
    if (lowerArith(*this, op) || lowerShape(*this, op) || lowerMemory(*this, op) || lowerControl(*this, op)) return;
  } catch (Unsupported& u) {
    if (u.at == 0) u.at = op.range.begin;
    throw;
  }
  unsupported(op, "'" + std::string(op.info->name) + "'");
}

namespace {

// Copies src's elements into variable `dst` (same shape).
void assign(Lowerer& L, const std::string& dst, ValueId src) {
  if (L.cyclic(src)) L.elements(L.count(src), [&] { L.code(dst + "[j] = " + L.at(src) + ";"); });
  else L.code(dst + " = " + L.name(src) + ";");
}

// A variable like v's, named `var`, initialised from init (or not).
void declareLike(Lowerer& L, ValueId like, const std::string& var, ValueId init) {
  int64_t n = L.count(like);
  std::string decl = L.held(L.type(like)) + " " + var;
  if (n > 1) decl += "[" + std::to_string((n + L.threads() - 1) / L.threads()) + "]";
  L.code(decl + ";");
  if (init != kNoId) assign(L, var, init);
}

bool isData(const Lowerer& L, ValueId v) { return L.type(v) && L.type(v)->isTile(); }

Lowerer::Frame* innermost(Lowerer& L, bool loop) {
  for (size_t i = L.frames.size(); i-- > 0;) {
    bool isLoop = L.frames[i].kind != OpKind::If;
    if (isLoop == loop) return &L.frames[i];
  }
  return nullptr;
}

// Assigns a terminator's operands to vars (tokens and views carry nothing;
// views passed through loops are not lowered).
void assignAll(Lowerer& L, const Operation& term, const std::vector<std::string>& vars) {
  for (size_t i = 0; i < term.operands.size() && i < vars.size(); ++i) {
    ValueId v = term.operands[i].value;
    if (isData(L, v)) assign(L, vars[i], v);
    else if (L.type(v) && !L.type(v)->isToken()) L.unsupported(term, "a view carried by '" + std::string(term.info->name) + "'");
  }
}

std::vector<std::string> resultVars(Lowerer& L, const Operation& op) {
  std::vector<std::string> vars;
  for (ValueId r : op.results) {
    vars.push_back(L.name(r));
    if (isData(L, r)) L.declare(r);
  }
  return vars;
}

void lowerIf(Lowerer& L, const Operation& op) {
  std::vector<std::string> results = resultVars(L, op);
  L.frames.push_back({OpKind::If, {}, results});
  Stmt& s = L.nest(Stmt{Stmt::If, L.name(op.operands[0].value)}, [&] { L.lowerBlock(op.regions[0].blocks[0]); });
  if (op.regions.size() > 1 && !op.regions[1].blocks.empty()) {
    std::vector<Stmt> orElse;
    L.into(orElse, [&] { L.lowerBlock(op.regions[1].blocks[0]); });
    s.orElse = std::move(orElse);
  }
  L.frames.pop_back();
}

// Block arguments of a loop body: fresh copies of the carried variables at
// the top of each iteration, so `continue` can assign them in any order.
void bindCarried(Lowerer& L, const Block& body, size_t first, const std::vector<std::string>& carried) {
  for (size_t i = first; i < body.args.size(); ++i) {
    ValueId a = body.args[i];
    if (!isData(L, a)) continue;
    L.declare(a);
    int64_t n = L.count(a);
    if (n > 1) L.elements(n, [&] { L.code(L.name(a) + "[j] = " + carried[i - first] + "[j];"); });
    else L.code(L.name(a) + " = " + carried[i - first] + ";");
  }
}

void lowerFor(Lowerer& L, const Operation& op) {
  llvm::ArrayRef<Operand> init = operands::initValues(op);
  std::vector<std::string> carried;
  for (size_t i = 0; i < op.results.size(); ++i) {
    ValueId r = op.results[i];
    carried.push_back(L.name(r));
    if (isData(L, r)) declareLike(L, r, L.name(r), init[i].value);
  }
  const Block& body = op.regions[0].blocks[0];
  std::string iv = "i" + std::to_string(body.args[0]);
  Elem e = Lowerer::elemOf(L.type(body.args[0]));
  unsigned bits = Lowerer::intWidth(e);
  auto bound = [&](ValueId v) { return "ts_sgn((ts_i64)" + L.name(v) + ", " + std::to_string(bits) + ")"; };
  ForOp loop(op);
  L.frames.push_back({OpKind::For, carried, {}});
  std::string header = "for (ts_i64 " + iv + " = " + bound(loop.lowerBound()) + "; " + iv + " < " + bound(loop.upperBound()) +
                       "; " + iv + " += " + bound(loop.step()) + ")";
  L.nest(Stmt{Stmt::Loop, header}, [&] {
    L.code(L.held(L.type(body.args[0])) + " " + L.name(body.args[0]) + " = (" + L.held(L.type(body.args[0])) +
           ")ts_wrap(" + iv + ", " + std::to_string(bits) + ");");
    bindCarried(L, body, 1, carried);
    L.lowerBlock(body);
  });
  L.frames.pop_back();
}

void lowerLoop(Lowerer& L, const Operation& op) {
  llvm::ArrayRef<Operand> init = operands::initValues(op);
  const Block& body = op.regions[0].blocks[0];
  std::vector<std::string> carried;
  for (size_t i = 0; i < body.args.size(); ++i) {
    ValueId a = body.args[i];
    std::string var = "c" + std::to_string(a);
    carried.push_back(var);
    if (isData(L, a)) declareLike(L, a, var, i < init.size() ? init[i].value : kNoId);
  }
  std::vector<std::string> results = resultVars(L, op);
  L.frames.push_back({OpKind::Loop, carried, results});
  L.nest(Stmt{Stmt::Loop, "while (1)"}, [&] {
    bindCarried(L, body, 0, carried);
    L.lowerBlock(body);
  });
  L.frames.pop_back();
}

void lowerTerminator(Lowerer& L, const Operation& op, OpKind k) {
  switch (k) {
    case OpKind::Yield: {
      Lowerer::Frame* f = innermost(L, false);
      if (!f) L.unsupported(op, "'yield' outside an if");
      assignAll(L, op, f->results);
      return;
    }
    case OpKind::Continue: {
      Lowerer::Frame* f = innermost(L, true);
      if (!f) L.unsupported(op, "'continue' outside a loop");
      assignAll(L, op, f->carried);
      L.code("continue;");
      return;
    }
    case OpKind::Break: {
      Lowerer::Frame* f = innermost(L, true);
      if (!f || f->kind != OpKind::Loop) L.unsupported(op, "'break' outside a loop");
      assignAll(L, op, f->results);
      L.code("break;");
      return;
    }
    case OpKind::Return: L.code("return;"); return;
    default: return;
  }
}

unsigned threadsFor(const Program& p, unsigned maxThreads) {
  int64_t most = 1;
  for (const Value& v : p.values)
    if (v.type && v.type->isTile()) most = std::max(most, v.type->numElements());
  unsigned t = 32;
  while (t < most && t < maxThreads) t *= 2;
  return t;
}

Param paramOf(Lowerer& L, ValueId a, size_t i) {
  TypeRef t = L.type(a);
  std::string n(L.program().value(a).name);
  Param p;
  p.name = n.empty() ? std::to_string(i) : n.substr(n[0] == '%' ? 1 : 0);
  if (!t || !t->isTile() || !t->isScalarTile()) throw Unsupported(L.program().value(a).range.begin, "an entry argument that is not a scalar tile");
  if (t->isPtrTile()) {
    p.kind = Param::Pointer;
    return p;
  }
  Elem e = t->tileElem();
  p.kind = isFloatElem(e) ? Param::Float : Param::Integer;
  p.ctype = L.held(t);
  p.bits = isFloatElem(e) ? elemBits(e) : Lowerer::intWidth(e);
  return p;
}

}  // namespace

bool lowerControl(Lowerer& L, const Operation& op) {
  OpKind k = op.info->kind;
  switch (k) {
    case OpKind::If: lowerIf(L, op); return true;
    case OpKind::For: lowerFor(L, op); return true;
    case OpKind::Loop: lowerLoop(L, op); return true;
    case OpKind::Yield: case OpKind::Continue: case OpKind::Break: case OpKind::Return:
      lowerTerminator(L, op, k);
      return true;
    default: return false;
  }
}

llvm::Expected<Kernel> lower(const VerifiedProgram& vp, const Operation& entry, const LowerOptions& options) {
  const Program& p = vp.program();
  Kernel k;
  // The symbol as a C identifier (MLIR symbols may hold '$', '.', '-').
  for (char c : attrs::symName(entry)->s)
    if (c != '@' && c != '"') k.name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  static const std::set<std::string> reserved = {
      "kernel", "__kernel", "global", "local", "constant", "private", "main", "if", "else", "for", "while", "do",
      "return", "break", "continue", "switch", "case", "default", "goto", "int", "char", "short", "long", "float",
      "double", "half", "bool", "void", "signed", "unsigned", "const", "static", "extern", "inline", "struct", "union",
      "enum", "typedef", "sizeof", "volatile", "register", "auto", "class", "template", "namespace", "new", "delete"};
  if (k.name.empty() || std::isdigit(static_cast<unsigned char>(k.name[0])) || reserved.count(k.name) ||
      k.name.rfind("ts_", 0) == 0)
    k.name = "k_" + k.name;
  k.threads = threadsFor(p, options.maxThreads);
  Lowerer L(p, k);
  L.tensorCores = options.tensorCores;
  L.emulateTensorCores = options.emulateTensorCores;
  L.guarded = options.guard;
  try {
    const Block& body = entry.regions[0].blocks[0];
    for (size_t i = 0; i < body.args.size(); ++i) {
      ValueId a = body.args[i];
      Param prm;
      try {
        prm = paramOf(L, a, i);
      } catch (Unsupported& u) {  // a refusal of the argument's type: at the argument (else the entry)
        if (u.at == 0) u.at = p.value(a).range.begin ? p.value(a).range.begin : entry.range.begin;
        throw;
      }
      std::string arg = "a" + std::to_string(i);
      if (prm.kind == Param::Pointer)
        L.code("const ts_u64 " + L.name(a) + " = " + Lowerer::pointerAt(L.type(a)->element->elem, "(ts_u64)" + arg) + ";");
      else if (prm.bits == 1) L.code("const ts_i32 " + L.name(a) + " = " + arg + " & 1;");
      else L.code("const " + prm.ctype + " " + L.name(a) + " = " + arg + ";");
      k.params.push_back(std::move(prm));
    }
    L.lowerBlock(body);
  } catch (const Unsupported& u) {
    size_t line = 1;
    for (size_t i = 0; i < u.at && i < p.source.size(); ++i) line += p.source[i] == '\n';
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "line " + std::to_string(line) + ": the SIMT lowering does not handle " +
                                       u.what() + " yet (run it with --device cpu)");
  }
  return k;
}

}  // namespace tilesight::simt
