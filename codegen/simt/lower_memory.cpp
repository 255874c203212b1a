// Memory: pointer tiles (offset, loads, stores, atomics) and views
// (tensor_view, partition/strided/gather views, their shapes, loads, stores
// and atomic reductions). Every element is accessed by the thread that owns
// it; a one-element tile is read by every thread but written by thread 0
// alone. A barrier before and after each write orders it with the block's
// other accesses, as the tile block's single logical thread would (tokens
// only ever ask for less).
#include <cmath>

#include "analysis/ir/attr_values.h"
#include "analysis/semantics/view_geometry.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/simt/lowerer.h"

namespace tilesight::simt {

namespace {

Elem pointeeOf(const Lowerer& L, ValueId ptrs) { return L.type(ptrs)->element->elem; }

// Pointer units of one element (4-bit: a nibble; pointerAt), and the bytes an access of one moves.
std::string byteSize(Elem e) { return num(elemBits(e) <= 8 ? 1 : elemBits(e) / 8); }
uint64_t accessBytes(Elem e) { return elemBits(e) <= 8 ? 1 : elemBits(e) / 8; }

// The element index of the access being lowered inside perElement / viewElements.
std::string elementIndex(const Lowerer& L, ValueId tile) { return L.cyclic(tile) ? "k" : "0"; }

// Runs fill for each element of shape n (k, j in scope), or once for a
// one-element value: by every thread (reads) or by thread 0 (writes).
void perElement(Lowerer& L, int64_t n, bool writes, const std::function<void()>& fill) {
  if (n > 1) L.elements(n, fill);
  else if (writes) L.nest(Stmt{Stmt::If, "ts_tid == 0"}, fill);
  else L.nest(Stmt{Stmt::Scope}, fill);
}

// The element of value v for the current element (k) of an access over a
// tile of the same shape; an absent optional operand gives `otherwise`.
std::string elementOf(Lowerer& L, const Operand* o, const std::string& otherwise) {
  return o ? L.at(o->value) : otherwise;
}

// --- atomics ----------------------------------------------------------------------------

// The new value an atomic of `mode` stores, from the old value o and the argument v.
std::string combine(AtomicMode mode, Elem e, const std::string& o, const std::string& v) {
  bool f = isFloatElem(e);
  std::string T = f ? (e == Elem::F64 ? "double" : "float") : e == Elem::I32 ? "ts_i32" : "ts_i64";
  std::string U = e == Elem::I32 ? "ts_u32" : "ts_u64";
  std::string B = num(elemBits(e));
  switch (mode) {
    case AtomicMode::Add:
    case AtomicMode::AddF:
      return f ? std::string(e == Elem::F64 ? "TS_ADDD(" : "TS_ADDF(") + o + ", " + v + ")" : "(" + T + ")((" + U + ")" + o + " + (" + U + ")" + v + ")";
    case AtomicMode::And: return "(" + T + ")(" + o + " & " + v + ")";
    case AtomicMode::Or: return "(" + T + ")(" + o + " | " + v + ")";
    case AtomicMode::Xor: return "(" + T + ")(" + o + " ^ " + v + ")";
    case AtomicMode::Max: case AtomicMode::Min: case AtomicMode::UMax: case AtomicMode::UMin: {
      if (f) return std::string(e == Elem::F64 ? "ts_maxmind(" : "ts_maxminf(") + o + ", " + v + ", " + (mode == AtomicMode::Max ? "1" : "0") + ", 0)";
      bool max = mode == AtomicMode::Max || mode == AtomicMode::UMax;
      bool sgn = mode == AtomicMode::Max || mode == AtomicMode::Min;
      std::string less = "ts_lt((ts_i64)" + o + ", (ts_i64)" + v + ", " + B + ", " + (sgn ? "1" : "0") + ")";
      return "(" + less + " ? " + (max ? v : o) + " : " + (max ? o : v) + ")";
    }
    case AtomicMode::Xchg: return v;
  }
  return v;
}

// addf on f16 and bf16 (the spec's only 16-bit atomics): a CAS loop on the
// aligned 32-bit word that holds the element, replacing its half.
void narrowAtomicAt(Lowerer& L, Elem e, const std::string& addr, const std::function<std::string(const std::string&)>& next) {
  L.code("TS_GLOBAL ts_u32* ap = (TS_GLOBAL ts_u32*)((" + addr + ") & ~(ts_u64)3);");
  L.code("const int sh = (int)(((" + addr + ") & 2) * 8);");
  L.code("ts_u32 cur = *(volatile TS_GLOBAL ts_u32*)ap, prev;");
  std::string part = "((prev >> sh) & 0xffffu)";
  std::string updated = "(ts_u32)" + Lowerer::bitsOf(e, next(Lowerer::fromBits(e, "float", part)));
  L.code("do { prev = cur; cur = TS_CAS32(ap, prev, (prev & ~(0xffffu << sh)) | ((" + updated +
         " & 0xffffu) << sh)); } while (cur != prev);");
  L.code("old = " + Lowerer::fromBits(e, "float", part) + ";");
}

// Statements of one atomic read-modify-write at `addr` (a ts_u64 expression);
// the old value ends in `old` (declared by the caller, held type).
void atomicAt(Lowerer& L, const Operation& op, Elem e, const std::string& addr, const std::function<std::string(const std::string&)>& next) {
  if (e == Elem::F16 || e == Elem::BF16) return narrowAtomicAt(L, e, addr, next);
  if (e != Elem::I32 && e != Elem::I64 && e != Elem::F32 && e != Elem::F64)
    L.unsupported(op, "atomics on " + std::string(elemName(e)) + " (16-bit floats, 32- and 64-bit elements only)");
  bool wide = elemBits(e) == 64;
  std::string U = wide ? "ts_u64" : "ts_u32";
  L.code("TS_GLOBAL " + U + "* ap = (TS_GLOBAL " + U + "*)(" + addr + ");");
  L.code(U + " cur = *(volatile TS_GLOBAL " + U + "*)ap, prev;");
  std::string T = isFloatElem(e) ? (wide ? "double" : "float") : wide ? "ts_i64" : "ts_i32";
  L.code("do { prev = cur; cur = TS_CAS" + std::string(wide ? "64" : "32") + "(ap, prev, (" + U + ")" +
         Lowerer::bitsOf(e, next(Lowerer::fromBits(e, T, "prev"))) + "); } while (cur != prev);");
  L.code("old = " + Lowerer::fromBits(e, T, "prev") + ";");
}

std::string fenceFor(const Operation& op, bool before) {
  MemoryOrdering o = orderingOf(op).value_or(MemoryOrdering::Relaxed);
  bool need = before ? (o == MemoryOrdering::Release || o == MemoryOrdering::AcqRel)
                     : (o == MemoryOrdering::Acquire || o == MemoryOrdering::AcqRel);
  if (!need) return "";
  MemoryScope s = scopeOf(op).value_or(MemoryScope::Device);
  return "TS_FENCE(" + std::string(s == MemoryScope::TlBlk ? "0" : s == MemoryScope::Device ? "1" : "2") + ");";
}

// An atomic over a tile of pointers (rmw or cas), its old values the result.
void pointerAtomic(Lowerer& L, const Operation& op, bool cas) {
  ValueId ptrs = operands::pointers(op), r = op.results[0];
  Elem e = pointeeOf(L, ptrs);
  const Operand* mask = operands::maskOperand(op);
  std::string T = L.held(L.type(r));
  L.declare(r);
  AtomicMode mode = attrValue<AtomicMode>(op, attr_names::mode).value_or(AtomicMode::Add);
  bool uniform = !L.cyclic(r);
  L.barrier();
  auto body = [&] {
    std::string before = fenceFor(op, true), after = fenceFor(op, false);
    // A masked-off lane returns cmp from a CAS (Ops.td), 0 from an RMW (the interpreter's choice).
    L.code(T + " old = " + (cas ? L.at(operands::cmp(op)) : "0") + ";");
    std::string inside = L.guard(op, "an atomic access", L.at(ptrs), accessBytes(e), r, elementIndex(L, r));
    L.nest(Stmt{Stmt::If, elementOf(L, mask, "1") + " && " + inside}, [&] {
      if (!before.empty()) L.code(before);
      if (cas) {
        std::string U = elemBits(e) == 64 ? "ts_u64" : "ts_u32";
        if (elemBits(e) != 32 && elemBits(e) != 64) L.unsupported(op, "atomic_cas on " + std::string(elemName(e)));
        std::string cas = "TS_CAS" + std::string(elemBits(e) == 64 ? "64" : "32") + "((TS_GLOBAL " + U + "*)(" +
                          L.at(ptrs) + "), (" + U + ")" + Lowerer::bitsOf(e, L.at(operands::cmp(op))) + ", (" + U +
                          ")" + Lowerer::bitsOf(e, L.at(operands::val(op))) + ")";
        L.code("old = " + Lowerer::fromBits(e, T, cas) + ";");
      } else {
        std::string v = L.at(operands::arg(op));
        atomicAt(L, op, e, L.at(ptrs), [&](const std::string& o) { return combine(mode, e, o, v); });
      }
      if (!after.empty()) L.code(after);
    });
    if (uniform) L.code("TS_STAGE(" + T + ", 0)[0] = old;");
    else L.code(L.at(r) + " = old;");
  };
  perElement(L, L.count(r), true, body);
  L.barrier();
  if (uniform) {
    L.needStage(8);
    L.code(L.name(r) + " = TS_STAGE(" + T + ", 0)[0];");
  }
}

// --- pointers -----------------------------------------------------------------------------

// get_global: the global's buffer, a parameter of its own (Kernel::globals).
void getGlobal(Lowerer& L, const Operation& op) {
  const Attr* name = attrs::name(op);
  const Operation* global = nullptr;
  for (const Operation& g : L.program().ops)
    if (g.info && g.info->kind == OpKind::Global && attrs::symName(g) && name && attrs::symName(g)->s == name->s) global = &g;
  if (!global) L.unsupported(op, "a get_global of no global");
  std::vector<const Operation*>& globals = L.kernel().globals;
  auto at = std::find(globals.begin(), globals.end(), global);
  if (at == globals.end()) at = globals.insert(globals.end(), global);
  L.declare(op.results[0]);
  L.code(L.name(op.results[0]) + " = " + Lowerer::pointerAt(pointeeOf(L, op.results[0]), "(ts_u64)ts_g" + num(at - globals.begin())) + ";");
}

// alloca: a slice of the tile block's scratch (Kernel::scratchBytesPerBlock),
// the same memory each time the op runs.
void scratchSlice(Lowerer& L, const Operation& op) {
  TypeRef t = L.type(op.results[0]);
  Elem e = t->element->elem;
  const Attr* n = attrs::numElem(op);
  const Attr* align = attrs::alignment(op);
  uint64_t a = std::max<uint64_t>(8, align ? static_cast<uint64_t>(align->i) : 8);
  uint64_t& used = L.kernel().scratchBytesPerBlock;
  uint64_t at = (used + a - 1) / a * a;
  used = at + (static_cast<uint64_t>(n ? n->i : 0) * elemBits(e) + 7) / 8;
  L.declare(op.results[0]);
  L.code(L.name(op.results[0]) + " = " + Lowerer::pointerAt(e, "ts_scratch_block + " + num(static_cast<int64_t>(at))) + ";");
}

void offset(Lowerer& L, const Operation& op) {
  ValueId p = operands::ptr(op), o = operands::offset(op), r = op.results[0];
  std::string size = byteSize(pointeeOf(L, p));
  L.declare(r);
  auto f = [&] {
    std::string ptr = L.cyclic(p) ? L.at(p) : L.name(p), off = L.cyclic(o) ? L.at(o) : L.name(o);
    L.code(L.at(r) + " = " + ptr + " + (ts_u64)((ts_i64)" + off + " * " + size + ");");
  };
  if (L.cyclic(r)) L.elements(L.count(r), f);
  else f();
}

// The element of format e at pointer value p, held; and the statement that stores held value v there.
std::string loadExpr(Elem e, const std::string& p) {
  if (elemBits(e) == 4) return Lowerer::fromMemory(e, "ts_ld4(" + p + ")");
  return Lowerer::fromMemory(e, "TS_LD(" + Lowerer::memType(e) + ", " + p + ")");
}

std::string storeStmt(Elem e, const std::string& p, const std::string& v) {
  if (elemBits(e) == 4) return "ts_st4(" + p + ", " + Lowerer::toMemory(e, v) + ");";
  return "TS_ST(" + Lowerer::memType(e) + ", " + p + ", " + Lowerer::toMemory(e, v) + ");";
}

void loadPtr(Lowerer& L, const Operation& op) {
  ValueId src = operands::source(op), r = op.results[0];
  Elem e = pointeeOf(L, src);
  const Operand* mask = operands::maskOperand(op);
  const Operand* pad = operands::paddingValueOperand(op);
  L.declare(r);
  std::string T = L.held(L.type(r));
  perElement(L, L.count(r), false, [&] {
    std::string inside = L.guard(op, "a load", Lowerer::addressOf(e, L.at(src)), accessBytes(e), r, elementIndex(L, r));
    std::string load = inside == "1" ? loadExpr(e, L.at(src)) : "(" + inside + " ? " + loadExpr(e, L.at(src)) + " : (" + T + ")0)";
    if (mask) load = "(" + L.at(mask->value) + " ? " + load + " : " + (pad ? L.at(pad->value) : "(" + T + ")0") + ")";
    L.code(L.at(r) + " = " + load + ";");
  });
}

void storePtr(Lowerer& L, const Operation& op) {
  ValueId dst = operands::destination(op), v = operands::value(op);
  Elem e = pointeeOf(L, dst);
  const Operand* mask = operands::maskOperand(op);
  L.barrier();
  perElement(L, L.count(v), true, [&] {
    std::string inside = L.guard(op, "a store", Lowerer::addressOf(e, L.at(dst)), accessBytes(e), v, elementIndex(L, v));
    std::string when = mask ? L.at(mask->value) + (inside == "1" ? "" : " && " + inside) : inside;
    L.code((when == "1" ? "" : "if (" + when + ") ") + storeStmt(e, L.at(dst), L.at(v)));
  });
  L.barrier();
}

// --- views ---------------------------------------------------------------------------------

std::string tvVar(const Lowerer& L, ValueId tv, const char* part, size_t d) {
  return L.name(tv) + "_" + part + num(static_cast<int64_t>(d));
}

void makeTensorView(Lowerer& L, const Operation& op) {
  ValueId r = op.results[0];
  L.code("const ts_u64 " + L.name(r) + "_b = " + L.name(operands::base(op)) + ";");
  auto fill = [&](const Attr* written, llvm::ArrayRef<Operand> dynamic, const char* part) {
    size_t next = 0, d = 0;
    for (const Attr& a : written->elems) {
      std::string v;
      if (a.kind == AttrKind::Int) v = intLit(a.i);
      else {
        ValueId x = dynamic[next++].value;
        v = "(ts_i64)ts_uns((ts_i64)" + L.name(x) + ", " + num(Lowerer::intWidth(Lowerer::elemOf(L.type(x)))) + ")";
      }
      L.code("const ts_i64 " + tvVar(L, r, part, d++) + " = " + v + ";");
    }
  };
  MakeTensorViewOp mtv(op);
  fill(mtv.staticShape(), mtv.dynamicShape(), "s");
  fill(mtv.staticStrides(), mtv.dynamicStrides(), "t");
}

void shapeResults(Lowerer& L, const Operation& op, const std::function<std::string(size_t)>& f) {
  for (size_t i = 0; i < op.results.size(); ++i) {
    ValueId r = op.results[i];
    L.declare(r);
    L.code(L.name(r) + " = (" + L.held(L.type(r)) + ")ts_wrap(" + f(i) + ", " +
           num(Lowerer::intWidth(Lowerer::elemOf(L.type(r)))) + ");");
  }
}

// The value of a padded element (0 where the view does not pad: unspecified).
std::string paddingValue(Padding p, Elem e, const std::string& T) {
  if (!isFloatElem(e)) return "(" + T + ")0";
  switch (p) {
    case Padding::NegZero: return Lowerer::floatLiteral(e, -0.0);
    case Padding::NaN: return Lowerer::floatLiteral(e, NAN);
    case Padding::PosInf: return Lowerer::floatLiteral(e, INFINITY);
    case Padding::NegInf: return Lowerer::floatLiteral(e, -INFINITY);
    default: return "(" + T + ")0";
  }
}

// A view access: the statements that set `in` (inside the tensor) and `off`
// (element offset) for element k of a tile of the view's shape.
class ViewAccess {
public:
  ViewAccess(Lowerer& L, const Operation& op) : L_(L) {
    view_ = operands::view(op);
    tv_ = L.tensorOf(view_);
    type_ = L.type(view_);
    llvm::ArrayRef<Operand> idx = operands::index(op);
    for (size_t i = 0; i < idx.size(); ++i) {
      ValueId x = idx[i].value;
      bool sparse = type_->kind == TypeKind::GatherScatterView && static_cast<int64_t>(i) == type_->sparseDim;
      if (sparse) rows_ = x;
      index_.push_back(sparse ? "0" : "(ts_i64)ts_uns((ts_i64)" + L.name(x) + ", " + num(Lowerer::intWidth(Lowerer::elemOf(L.type(x)))) + ")");
    }
  }
  // Stages the gather rows, if any (before the element loop).
  void prepare() {
    if (rows_ == kNoId) return;
    L_.barrier();
    L_.needStage(L_.stageWrite(rows_, 0));
    L_.barrier();
  }
  void address(const std::vector<std::string>& c) {
    L_.code("int in = 1; ts_i64 off = 0;");
    for (size_t i = 0; i < type_->shape.size(); ++i) {
      size_t d = semantics::walkedDim(*type_, i);
      bool sparse = rows_ != kNoId && static_cast<int64_t>(i) == type_->sparseDim;
      std::string coord = sparse ? "(ts_i64)ts_uns((ts_i64)" + L_.staged(rows_, 0, c[i]) + ", " +
                                       num(Lowerer::intWidth(Lowerer::elemOf(L_.type(rows_)))) + ")"
                                 : index_[i] + " * " + num(semantics::tileStep(*type_, i)) + " + " + c[i];
      L_.code("{ const ts_i64 c = " + coord + "; in = in && c >= 0 && c < " + tvVar(L_, tv_, "s", d) + "; off += c * " +
              tvVar(L_, tv_, "t", d) + "; }");
    }
  }
  // The element's pointer value (4-bit: in nibbles), and its byte address.
  std::string pointer() const {
    return L_.name(tv_) + "_b + (ts_u64)(off * " + byteSize(elem()) + ")";
  }
  std::string address() const { return Lowerer::addressOf(elem(), pointer()); }
  Elem elem() const { return type_->tensorView->elem; }
  Padding padding() const { return type_->padding; }

private:
  Lowerer& L_;
  ValueId view_, tv_, rows_ = kNoId;  // rows: a gather view's index tile, staged at offset 0
  TypeRef type_;
  std::vector<std::string> index_;
};

void viewElements(Lowerer& L, ValueId tile, bool writes, const std::function<void(const std::vector<std::string>&)>& f) {
  const std::vector<int64_t>& shape = L.type(tile)->shape;
  perElement(L, L.count(tile), writes, [&] {
    f(L.cyclic(tile) ? coordsOf("k", shape) : std::vector<std::string>(shape.size(), "0"));
  });
}

void loadView(Lowerer& L, const Operation& op) {
  ViewAccess va(L, op);
  ValueId r = op.results[0];
  va.prepare();
  L.declare(r);
  std::string T = L.held(L.type(r));
  Elem e = va.elem();
  viewElements(L, r, false, [&](const auto& c) {
    va.address(c);
    std::string inside = L.guard(op, "a load", va.address(), accessBytes(e), r, elementIndex(L, r));
    std::string load = inside == "1" ? loadExpr(e, va.pointer()) : "(" + inside + " ? " + loadExpr(e, va.pointer()) + " : (" + T + ")0)";
    L.code(L.at(r) + " = in ? " + load + " : " + paddingValue(va.padding(), e, T) + ";");
  });
}

void storeView(Lowerer& L, const Operation& op) {
  ViewAccess va(L, op);
  ValueId v = operands::tile(op);
  va.prepare();
  L.barrier();
  Elem e = va.elem();
  viewElements(L, v, true, [&](const auto& c) {
    va.address(c);
    std::string inside = L.guard(op, "a store", va.address(), accessBytes(e), v, elementIndex(L, v));
    L.code("if (in" + (inside == "1" ? "" : " && " + inside) + ") " + storeStmt(e, va.pointer(), L.at(v)));
  });
  L.barrier();
}

void atomicReduceView(Lowerer& L, const Operation& op) {
  ViewAccess va(L, op);
  ValueId v = operands::value(op);
  va.prepare();
  L.barrier();
  Elem e = va.elem();
  AtomicMode mode = attrValue<AtomicMode>(op, attr_names::mode).value_or(AtomicMode::Add);
  std::string T = L.held(L.type(v));
  viewElements(L, v, true, [&](const auto& c) {
    va.address(c);
    std::string inside = L.guard(op, "an atomic access", va.address(), accessBytes(e), v, elementIndex(L, v));
    L.nest(Stmt{Stmt::If, inside == "1" ? "in" : "in && " + inside}, [&] {
      L.code(T + " old;");
      std::string x = L.at(v);
      atomicAt(L, op, e, va.pointer(), [&](const std::string& o) { return combine(mode, e, o, x); });
    });
  });
  L.barrier();
}

}  // namespace

bool lowerMemory(Lowerer& L, const Operation& op) {
  switch (op.info->kind) {
    case OpKind::Offset: offset(L, op); return true;
    case OpKind::LoadPtrTko: loadPtr(L, op); return true;
    case OpKind::StorePtrTko: storePtr(L, op); return true;
    case OpKind::AtomicRmwTko: pointerAtomic(L, op, false); return true;
    case OpKind::AtomicCasTko: pointerAtomic(L, op, true); return true;
    case OpKind::GetGlobal: getGlobal(L, op); return true;
    case OpKind::Alloca: scratchSlice(L, op); return true;
    case OpKind::MakeTensorView: makeTensorView(L, op); return true;
    case OpKind::MakePartitionView: case OpKind::MakeStridedView: case OpKind::MakeGatherScatterView:
      L.setTensorOf(op.results[0], L.tensorOf(op.operands[0].value));
      return true;
    case OpKind::GetTensorShape: {
      ValueId tv = L.tensorOf(op.operands[0].value);
      shapeResults(L, op, [&](size_t i) { return tvVar(L, tv, "s", i); });
      return true;
    }
    case OpKind::GetIndexSpaceShape: {
      ValueId view = op.operands[0].value, tv = L.tensorOf(view);
      const Type& t = *L.type(view);
      shapeResults(L, op, [&](size_t i) {  // semantics::indexExtent, printed: the sizes are known at run time
        std::string size = tvVar(L, tv, "s", semantics::walkedDim(t, i)), step = num(semantics::tileStep(t, i));
        return "((" + size + " + " + step + " - 1) / " + step + ")";
      });
      return true;
    }
    case OpKind::LoadViewTko: loadView(L, op); return true;
    case OpKind::StoreViewTko: storeView(L, op); return true;
    case OpKind::AtomicRedViewTko: atomicReduceView(L, op); return true;
    default: return false;
  }
}

}  // namespace tilesight::simt
