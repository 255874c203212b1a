// Ops that move elements between threads: broadcast, permute, cat,
// extract, reduce, scan, the matrix products, pack and unpack. The sources go to the
// block's staging memory (a barrier before, so the previous staging op's
// readers are done, and one after the writes); then each thread reads the
// elements its result slots need. reshape keeps every element on its
// thread (row-major index k is unchanged), so it is a copy.
#include "analysis/ir/attr_values.h"
#include "analysis/semantics/lane_maps.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/simt/lowerer.h"

namespace tilesight::simt {

namespace {

using Coords = std::vector<std::string>;

// r = f(coordinates of each result element), read from staged sources.
void gather(Lowerer& L, ValueId r, const std::function<std::string(const Coords&)>& f) {
  L.declare(r);
  const std::vector<int64_t>& shape = L.type(r)->shape;
  if (L.cyclic(r)) L.elements(L.count(r), [&] { L.code(L.at(r) + " = " + f(coordsOf("k", shape)) + ";"); });
  else L.code(L.name(r) + " = " + f(Coords(shape.size(), "0")) + ";");
}

// The source coordinates (of a source of `rank` dimensions) that result
// coordinates c read through a map of dimensions.
Coords sourceCoords(const semantics::DimSources& dims, const Coords& c, size_t rank) {
  Coords src(rank, "0");
  for (size_t i = 0; i < c.size() && i < dims.size(); ++i)
    if (dims[i]) src[*dims[i]] = c[i];
  return src;
}

void copy(Lowerer& L, const Operation& op) {
  ValueId r = op.results[0], s = op.operands[0].value;
  L.declare(r);
  if (L.cyclic(r)) L.elements(L.count(r), [&] { L.code(L.at(r) + " = " + L.at(s) + ";"); });
  else L.code(L.name(r) + " = " + L.name(s) + ";");
}

void broadcast(Lowerer& L, const Operation& op) {
  ValueId r = op.results[0], s = op.operands[0].value;
  if (!L.cyclic(s)) {  // one element to all: no thread needs another's
    L.declare(r);
    if (L.cyclic(r)) L.elements(L.count(r), [&] { L.code(L.at(r) + " = " + L.name(s) + ";"); });
    else L.code(L.name(r) + " = " + L.name(s) + ";");
    return;
  }
  uint64_t off = L.stageAll({s})[0];
  const std::vector<int64_t>& from = L.type(s)->shape;
  semantics::DimSources dims = semantics::broadcastDims(from, L.type(r)->shape);
  gather(L, r, [&](const Coords& c) { return L.staged(s, off, indexOf(sourceCoords(dims, c, from.size()), from)); });
}

void permute(Lowerer& L, const Operation& op) {
  ValueId r = op.results[0], s = op.operands[0].value;
  uint64_t off = L.stageAll({s})[0];
  const std::vector<int64_t>& from = L.type(s)->shape;
  semantics::DimSources dims = semantics::permuteDims(*PermuteOp(op).permutation(), L.type(r)->shape.size());
  gather(L, r, [&](const Coords& c) { return L.staged(s, off, indexOf(sourceCoords(dims, c, from.size()), from)); });
}

void cat(Lowerer& L, const Operation& op) {
  ValueId r = op.results[0], a = op.operands[0].value, b = op.operands[1].value;
  std::vector<uint64_t> offs = L.stageAll({a, b});
  size_t d = static_cast<size_t>(attrs::dim(op)->i);
  const std::vector<int64_t>& sa = L.type(a)->shape;
  const std::vector<int64_t>& sb = L.type(b)->shape;
  std::string split = std::to_string(semantics::catSplit(sa, d));
  gather(L, r, [&](const Coords& c) {
    Coords cb = c;
    cb[d] = "(" + c[d] + " - " + split + ")";
    return "(" + c[d] + " < " + split + " ? " + L.staged(a, offs[0], indexOf(c, sa)) + " : " +
           L.staged(b, offs[1], indexOf(cb, sb)) + ")";
  });
}

void extract(Lowerer& L, const Operation& op) {
  ValueId r = op.results[0], s = op.operands[0].value;
  llvm::ArrayRef<Operand> idx = operands::indices(op);
  uint64_t off = L.stageAll({s})[0];
  const std::vector<int64_t>& from = L.type(s)->shape;
  const std::vector<int64_t>& to = L.type(r)->shape;
  gather(L, r, [&](const Coords& c) {
    Coords src(c.size());
    for (size_t i = 0; i < c.size(); ++i)
      src[i] = "(" + c[i] + " + (ts_i64)ts_uns((ts_i64)" + L.name(idx[i].value) + ", 32) * " + std::to_string(to[i]) + ")";
    return L.staged(s, off, indexOf(src, from));
  });
}

// insert: the destination, except where the coordinates fall in the sub-tile
// the indices name, which comes from the source.
void insert(Lowerer& L, const Operation& op) {
  ValueId r = op.results[0], s = op.operands[0].value, d = op.operands[1].value;
  llvm::ArrayRef<Operand> idx = operands::indices(op);
  std::vector<uint64_t> offs = L.stageAll({s, d});
  const std::vector<int64_t>& sub = L.type(s)->shape;
  const std::vector<int64_t>& whole = L.type(r)->shape;
  gather(L, r, [&](const Coords& c) {
    Coords in(c.size());
    std::string inside = "1";
    for (size_t i = 0; i < c.size(); ++i) {
      in[i] = "(" + c[i] + " - (ts_i64)ts_uns((ts_i64)" + L.name(idx[i].value) + ", 32) * " + std::to_string(sub[i]) + ")";
      inside += " && (ts_u64)" + in[i] + " < " + std::to_string(sub[i]) + "u";
    }
    return "((" + inside + ") ? " + L.staged(s, offs[0], indexOf(in, sub)) + " : " +
           L.staged(d, offs[1], indexOf(c, whole)) + ")";
  });
}

// --- reduce and scan ------------------------------------------------------------------

// A reduce/scan identity as written: `0.0 : f32`, or an integer that a
// float type reads as a bit pattern (`0xFF800000 : f32` is -inf).
std::string identityOf(Lowerer& L, const Attr& a, TypeRef type) {
  Elem e = Lowerer::elemOf(type);
  std::string T = L.held(type);
  if (isFloatElem(e) && a.kind == AttrKind::Int)
    return Lowerer::fromBits(e, T, "((ts_u64)" + std::to_string(static_cast<uint64_t>(a.i)) + "u)");
  if (isFloatElem(e)) return Lowerer::floatLiteral(e, a.f);
  return "(" + T + ")ts_wrap(" + intLit(a.i) + ", " + num(Lowerer::intWidth(e)) + ")";
}

// The body of a reduce or scan, once per position t along the dimension:
// element args read from staging at base + t * inner, accumulator args
// the variables accs; its yield assigns the accumulators.
void stepBody(Lowerer& L, const Operation& op, const std::vector<uint64_t>& offs, const std::vector<std::string>& accs,
              const std::string& line, const ShapeSplit& s) {
  const Block& body = op.regions[0].blocks[0];
  for (size_t i = 0; i < op.operands.size(); ++i) {
    ValueId e = body.args[2 * i], a = body.args[2 * i + 1];
    L.code(L.held(L.type(e)) + " " + L.name(e) + " = " +
           L.staged(op.operands[i].value, offs[i], line + " + t * " + std::to_string(s.inner)) + ";");
    L.code(L.held(L.type(a)) + " " + L.name(a) + " = " + accs[i] + ";");
  }
  L.frames.push_back({OpKind::If, {}, accs});
  L.lowerBlock(body);
  L.frames.pop_back();
}

void reduce(Lowerer& L, const Operation& op) {
  std::vector<ValueId> srcs;
  for (const Operand& o : op.operands) srcs.push_back(o.value);
  std::vector<uint64_t> offs = L.stageAll(srcs);
  ShapeSplit s = splitAround(L.type(srcs[0])->shape, static_cast<size_t>(attrs::dim(op)->i));
  const Attr* ids = attrs::identities(op);
  const Block& body = op.regions[0].blocks[0];
  for (ValueId r : op.results) L.declare(r);
  auto one = [&](const std::string& kExpr) {
    std::vector<std::string> accs;
    for (size_t i = 0; i < srcs.size(); ++i) {
      accs.push_back("acc" + std::to_string(i));
      L.code(L.held(L.type(body.args[2 * i + 1])) + " " + accs[i] + " = " + identityOf(L, ids->elems[i], L.type(body.args[2 * i + 1])) + ";");
    }
    std::string line = "(" + kExpr + ") / " + std::to_string(s.inner) + " * " + std::to_string(s.len * s.inner) + " + (" +
                       kExpr + ") % " + std::to_string(s.inner);
    L.nest(Stmt{Stmt::Loop, "for (ts_i64 t = 0; t < " + std::to_string(s.len) + "; ++t)"},
           [&] { stepBody(L, op, offs, accs, line, s); });
    for (size_t i = 0; i < op.results.size(); ++i) L.code(L.at(op.results[i]) + " = " + accs[i] + ";");
  };
  int64_t n = L.count(op.results[0]);
  if (n > 1) L.elements(n, [&] { one("k"); });
  else L.nest(Stmt{Stmt::Scope}, [&] { one("0"); });
}

// Each line (outer, inner position) is scanned by one thread into a second
// staging area; then every thread reads its own elements.
void scan(Lowerer& L, const Operation& op) {
  std::vector<ValueId> srcs;
  for (const Operand& o : op.operands) srcs.push_back(o.value);
  std::vector<uint64_t> offs = L.stageAll(srcs);
  uint64_t outOff = offs.back();  // the scanned lines follow the staged sources
  std::vector<uint64_t> outs;
  for (ValueId r : op.results) {
    outs.push_back(outOff);
    outOff += Lowerer::align8(static_cast<uint64_t>(L.count(r)) * L.heldBytes(L.type(r)));
  }
  L.needStage(outOff);
  ShapeSplit s = splitAround(L.type(srcs[0])->shape, static_cast<size_t>(attrs::dim(op)->i));
  bool reverse = attrs::reverse(op) && attrs::reverse(op)->i;
  const Attr* ids = attrs::identities(op);
  const Block& body = op.regions[0].blocks[0];
  int64_t lines = s.outer * s.inner;
  L.nest(Stmt{Stmt::Loop, "for (ts_i64 l = ts_tid; l < " + std::to_string(lines) + "; l += " + std::to_string(L.threads()) + ")"}, [&] {
    std::vector<std::string> accs;
    for (size_t i = 0; i < srcs.size(); ++i) {
      accs.push_back("acc" + std::to_string(i));
      L.code(L.held(L.type(body.args[2 * i + 1])) + " " + accs[i] + " = " + identityOf(L, ids->elems[i], L.type(body.args[2 * i + 1])) + ";");
    }
    std::string line = "l / " + std::to_string(s.inner) + " * " + std::to_string(s.len * s.inner) + " + l % " + std::to_string(s.inner);
    std::string header = reverse ? "for (ts_i64 t = " + std::to_string(s.len - 1) + "; t >= 0; --t)"
                                 : "for (ts_i64 t = 0; t < " + std::to_string(s.len) + "; ++t)";
    L.nest(Stmt{Stmt::Loop, header}, [&] {
      stepBody(L, op, offs, accs, line, s);
      for (size_t i = 0; i < op.results.size(); ++i)
        L.code("TS_STAGE(" + L.held(L.type(op.results[i])) + ", " + std::to_string(outs[i]) + ")[" + line + " + t * " +
               std::to_string(s.inner) + "] = " + accs[i] + ";");
    });
  });
  L.barrier();
  for (size_t i = 0; i < op.results.size(); ++i) {
    ValueId r = op.results[i];
    gather(L, r, [&](const Coords& c) { return L.staged(r, outs[i], indexOf(c, L.type(r)->shape)); });
  }
}

// --- matrix products -------------------------------------------------------------------

// result = acc + lhs x rhs (batched when rank 3), each element summed in k
// order with one rounding per step, as the interpreter does.
// mmaf_scaled: every block of K / groups consecutive k shares one scale per
// row of lhs and per column of rhs; each product is (a * sa) * (b * sb),
// summed in k order in f32, as the reference does.
void mmaScaled(Lowerer& L, const Operation& op) {
  ValueId a = op.operands[0].value, b = op.operands[1].value, c = op.operands[2].value;
  ValueId as = op.operands[3].value, bs = op.operands[4].value, r = op.results[0];
  std::vector<uint64_t> offs = L.stageAll({a, b, as, bs});
  const std::vector<int64_t>& sa = L.type(a)->shape;
  const std::vector<int64_t>& sr = L.type(r)->shape;
  bool batched = sa.size() == 3;
  int64_t M = sr[sr.size() - 2], N = sr.back(), K = sa.back(), G = L.type(as)->shape.back();
  std::string block = num(G ? K / G : K);
  L.declare(r);
  auto one = [&](const std::string& k) {
    std::string bi = batched ? "(" + k + ") / " + num(M * N) : "0";
    std::string m = "(" + k + ") / " + num(N) + " % " + num(M), n = "(" + k + ") % " + num(N);
    L.code("float s = " + (L.cyclic(c) ? L.at(c) : L.name(c)) + ";");
    std::string x = L.staged(a, offs[0], bi + " * " + num(M * K) + " + " + m + " * " + num(K) + " + q");
    std::string y = L.staged(b, offs[1], bi + " * " + num(K * N) + " + q * " + num(N) + " + " + n);
    std::string xs = L.staged(as, offs[2], "(" + bi + " * " + num(M) + " + " + m + ") * " + num(G) + " + q / " + block);
    std::string ys = L.staged(bs, offs[3], "(" + bi + " * " + num(G) + " + q / " + block + ") * " + num(N) + " + " + n);
    L.nest(Stmt{Stmt::Loop, "for (ts_i64 q = 0; q < " + num(K) + "; ++q)"},
           [&] { L.code("s = TS_ADDF(s, TS_MULF(TS_MULF(" + x + ", " + xs + "), TS_MULF(" + y + ", " + ys + ")));"); });
    L.code(L.at(r) + " = s;");
  };
  if (L.cyclic(r)) L.elements(L.count(r), [&] { one("k"); });
  else L.nest(Stmt{Stmt::Scope}, [&] { one("0"); });
}

// pack (elements to bytes) and unpack (bytes to elements), rank 1: prints
// semantics::repackSource as C (the piece at bit b of result element c is
// stream bit c * rbits + b, in source element bit / sbits at bit % sbits).
void repack(Lowerer& L, const Operation& op) {
  ValueId s = op.operands[0].value, r = op.results[0];
  Elem se = Lowerer::elemOf(L.type(s)), re = Lowerer::elemOf(L.type(r));
  unsigned sbits = elemBits(se), rbits = elemBits(re);
  uint64_t off = L.stageAll({s})[0];
  std::string T = L.held(L.type(r));
  gather(L, r, [&](const Coords& c) {
    std::string v = "((ts_u64)0";
    for (unsigned b = 0; b < rbits; b += semantics::kRepackPieceBits) {
      std::string bit = "((" + c[0] + ") * " + num(rbits) + " + " + num(b) + ")";
      std::string piece = Lowerer::bitsOf(se, L.staged(s, off, bit + " / " + num(sbits)));
      v += " | (((" + piece + " >> (" + bit + " % " + num(sbits) + ")) & " +
           num((1u << semantics::kRepackPieceBits) - 1) + "u) << " + num(b) + ")";
    }
    return Lowerer::fromBits(re, T, v + ")");
  });
}

}  // namespace

bool lowerShape(Lowerer& L, const Operation& op) {
  switch (op.info->kind) {
    case OpKind::Reshape: copy(L, op); return true;
    case OpKind::Broadcast: broadcast(L, op); return true;
    case OpKind::Permute: permute(L, op); return true;
    case OpKind::Cat: cat(L, op); return true;
    case OpKind::Extract: extract(L, op); return true;
    case OpKind::Insert: insert(L, op); return true;
    case OpKind::Reduce: reduce(L, op); return true;
    case OpKind::Scan: scan(L, op); return true;
    case OpKind::Mmaf: case OpKind::Mmai: lowerMma(L, op); return true;
    case OpKind::MmafScaled: mmaScaled(L, op); return true;
    case OpKind::Pack: case OpKind::Unpack: repack(L, op); return true;
    default: return false;
  }
}

}  // namespace tilesight::simt
