// mmaf and mmai. The portable form stages both operands and has each thread
// sum its result elements in k order, one rounding per addition, as the
// reference does. An f16, bf16 or tf32 mmaf into f32 with 16-multiple shapes
// also gets matrix-unit variants (Stmt::TensorCores): CUDA WMMA on sm_80+,
// and for f16 AMD's MFMA (CDNA) and RDNA WMMA (gfx11, gfx12), each chosen by
// the preprocessor: the operands staged as their own type in padded
// row-major layouts (staging_layout.h), each warp (wave) computing 16x16
// tiles of the result, in column chunks of the accumulator small enough to
// stage.
// Matrix units sum a tile's products in their own order, so results may
// differ from the reference in the last places (run --check's tolerance
// covers it; --no-tensor-cores keeps the reference's order).
#include <optional>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/simt/fragment_maps.h"
#include "codegen/simt/lowerer.h"
#include "codegen/simt/staging_layout.h"

namespace tilesight::simt {

namespace {

// The portable form: r (declared) from staged a and b.
void portable(Lowerer& L, const Operation& op, bool integer) {
  ValueId a = op.operands[0].value, b = op.operands[1].value, c = op.operands[2].value, r = op.results[0];
  std::vector<uint64_t> offs = L.stageAll({a, b});
  const std::vector<int64_t>& sa = L.type(a)->shape;
  const std::vector<int64_t>& sr = L.type(r)->shape;
  bool batched = sa.size() == 3;
  int64_t M = sr[sr.size() - 2], N = sr.back(), K = sa.back();
  Elem re = Lowerer::elemOf(L.type(r));
  std::string T = L.held(L.type(r));
  auto one = [&](const std::string& k) {
    std::string bi = batched ? "(" + k + ") / " + num(M * N) : "0";
    std::string m = "(" + k + ") / " + num(N) + " % " + num(M), n = "(" + k + ") % " + num(N);
    L.code(T + " s = " + (L.cyclic(c) ? L.at(c) : L.name(c)) + ";");
    std::string x = L.staged(a, offs[0], bi + " * " + num(M * K) + " + " + m + " * " + num(K) + " + q");
    std::string y = L.staged(b, offs[1], bi + " * " + num(K * N) + " + q * " + num(N) + " + " + n);
    std::string step;
    if (integer) {
      bool sa2 = attrValue<Signedness>(op, attr_names::signednessLhs).value_or(Signedness::Signed) == Signedness::Signed;
      bool sb2 = attrValue<Signedness>(op, attr_names::signednessRhs).value_or(Signedness::Signed) == Signedness::Signed;
      auto ext = [](bool sg, const std::string& v) { return sg ? "(ts_i64)" + v : "(ts_i64)(ts_u8)" + v; };
      step = "s = (" + T + ")ts_wrap((ts_i64)s + " + ext(sa2, x) + " * " + ext(sb2, y) + ", " +
             num(Lowerer::intWidth(re)) + ");";
    } else if (re == Elem::F64) {
      step = "s = TS_ADDD(s, TS_MULD((double)" + x + ", (double)" + y + "));";
    } else {
      step = "s = " + Lowerer::round(re, "TS_ADDF(s, TS_MULF(" + x + ", " + y + "))") + ";";
    }
    L.nest(Stmt{Stmt::Loop, "for (ts_i64 q = 0; q < " + num(K) + "; ++q)"}, [&] { L.code(step); });
    L.code(L.at(r) + " = s;");
  };
  if (L.cyclic(r)) L.elements(L.count(r), [&] { one("k"); });
  else L.nest(Stmt{Stmt::Scope}, [&] { one("0"); });
}

// How a matrix unit takes an operand format: the fragment's element type,
// the type it is staged as, the conversion from the held float, the k step.
struct Format {
  const char* fragment;
  const char* stored;
  const char* convert;  // a function of the held float, or "" for none
  int64_t k;
};

// The matrix units a variant can use: CUDA's WMMA, AMD's MFMA and RDNA WMMA
// (per-lane fragments from fragment_maps.h), and loops that emulate a
// fragment operation on any target (tests).
enum class Unit { Wmma, Amd, Emulated };

struct Dialect {
  Unit unit;
  Target target;
  std::string condition;  // the preprocessor test that picks the variant
  Format format;
  int warp;                          // lanes that share one fragment
  int64_t stageLimit, chunkLimit;    // bytes
  std::optional<FragmentMaps> maps;  // Amd
};

// CUDA: sm_80 lets a block opt in to 163 KiB of shared memory; AMD GPUs have
// 64 KiB of LDS per workgroup.
constexpr int64_t kCudaStageLimit = 160 * 1024, kCudaChunkLimit = 64 * 1024;
constexpr int64_t kAmdStageLimit = 64 * 1024, kAmdChunkLimit = 16 * 1024;

std::optional<Format> wmmaFormat(Elem e) {
  switch (e) {
    case Elem::F16: return Format{"__half", "__half", "__float2half_rn", 16};
    case Elem::BF16: return Format{"__nv_bfloat16", "__nv_bfloat16", "__float2bfloat16_rn", 16};
    case Elem::TF32: return Format{"nvcuda::wmma::precision::tf32", "float", "", 8};
    default: return std::nullopt;
  }
}

// The dialects an mmaf of operand format e may use (emulated: only the emulation).
std::vector<Dialect> dialectsFor(Elem e, bool emulated) {
  std::vector<Dialect> out;
  if (emulated) {
    if (std::optional<Format> f = wmmaFormat(e))
      out.push_back({Unit::Emulated, Target::OpenCL, "", Format{"float", "float", "", f->k}, 32, kCudaStageLimit,
                     kCudaChunkLimit, std::nullopt});
    return out;
  }
  if (std::optional<Format> f = wmmaFormat(e))
    out.push_back({Unit::Wmma, Target::Cuda, "TS_TENSOR_CORES", *f, 32, kCudaStageLimit, kCudaChunkLimit, std::nullopt});
  if (e == Elem::F16)
    for (MatrixUnit u : {MatrixUnit::Mfma, MatrixUnit::WmmaGfx11, MatrixUnit::WmmaGfx12}) {
      auto maps = fragmentMaps(u);
      if (!maps) {  // a map the layout algebra rejects is no variant
        llvm::consumeError(maps.takeError());
        continue;
      }
      out.push_back({Unit::Amd, Target::Hip, maps->condition, Format{"_Float16", "_Float16", "(_Float16)", 16}, maps->lanes,
                     kAmdStageLimit, kAmdChunkLimit, *maps});
    }
  return out;
}

int64_t align128(int64_t b) { return (b + 127) / 128 * 128; }

// The warp-level matrix operations of a variant.
struct Fragments {
  const Dialect& d;

  void declare(Lowerer& L) const {
    const Format& f = d.format;
    switch (d.unit) {
      case Unit::Emulated: return L.code("float fc[8];");
      case Unit::Amd:
        L.code("const int ln = TS_TID % " + num(d.warp) + ";");
        L.code("ts_h" + num(d.maps->aLocals) + " fa; ts_h" + num(d.maps->bLocals) + " fb; ts_f" + num(d.maps->cLocals) + " fc;");
        return;
      case Unit::Wmma: {
        std::string frag = "nvcuda::wmma::fragment<nvcuda::wmma::", shape = ", 16, 16, " + num(f.k) + ", ";
        L.code(frag + "matrix_a" + shape + f.fragment + ", nvcuda::wmma::row_major> fa;");
        L.code(frag + "matrix_b" + shape + f.fragment + ", nvcuda::wmma::row_major> fb;");
        L.code(frag + "accumulator" + shape + "float> fc;");
        return;
      }
    }
  }
  // The accumulator tile at `tile` (row-major, rows ld apart) into the fragment, or back.
  void move(Lowerer& L, const std::string& tile, const std::string& ld, bool load) const {
    if (d.unit == Unit::Wmma) {
      L.code(load ? "nvcuda::wmma::load_matrix_sync(fc, " + tile + ", " + ld + ", nvcuda::wmma::mem_row_major);"
                  : "nvcuda::wmma::store_matrix_sync(" + tile + ", fc, " + ld + ", nvcuda::wmma::mem_row_major);");
      return;
    }
    if (d.unit == Unit::Amd) {  // local v of lane ln holds element x of the tile (colex: row x % 16, column x / 16)
      std::string at = "(" + tile + ")[(x % 16) * " + ld + " + x / 16]";
      L.code("for (int v = 0; v < " + num(d.maps->cLocals) + "; ++v) { const int x = " + indexExpr(d.maps->c, "ln", "v") +
             "; " + (load ? "fc[v] = " + at : at + " = fc[v]") + "; }");
      return;
    }
    std::string at = "(" + tile + ")[(e / 16) * " + ld + " + e % 16]";
    L.code("for (int u = 0; u < 8; ++u) { const int e = TS_TID % 32 + 32 * u; " + (load ? "fc[u] = " + at : at + " = fc[u]") +
           "; }");
  }
  // fc += a x b for the 16 x k slice of A at a and the k x 16 slice of B at b.
  void step(Lowerer& L, const std::string& a, const std::string& lda, const std::string& b, const std::string& ldb) const {
    switch (d.unit) {
      case Unit::Wmma:
        L.code("nvcuda::wmma::load_matrix_sync(fa, " + a + ", " + lda + ");");
        L.code("nvcuda::wmma::load_matrix_sync(fb, " + b + ", " + ldb + ");");
        L.code("nvcuda::wmma::mma_sync(fc, fa, fb, fc);");
        return;
      case Unit::Amd:
        L.code("for (int v = 0; v < " + num(d.maps->aLocals) + "; ++v) { const int x = " + indexExpr(d.maps->a, "ln", "v") +
               "; fa[v] = (" + a + ")[(x % 16) * " + lda + " + x / 16]; }");
        L.code("for (int v = 0; v < " + num(d.maps->bLocals) + "; ++v) { const int x = " + indexExpr(d.maps->b, "ln", "v") +
               "; fb[v] = (" + b + ")[(x % 16) * " + ldb + " + x / 16]; }");
        L.code(std::string("fc = ") + d.maps->builtin + "(fa, fb, fc" + d.maps->extraArgs + ");");
        return;
      case Unit::Emulated:
        L.code("for (int u = 0; u < 8; ++u) { const int e = TS_TID % 32 + 32 * u; for (int q = 0; q < " + num(d.format.k) +
               "; ++q) fc[u] = TS_ADDF(fc[u], TS_MULF((" + a + ")[(e / 16) * " + lda + " + q], (" + b + ")[q * " + ldb +
               " + e % 16])); }");
        return;
    }
  }
};

// Where a variant stages what, when the op's types and shapes allow one.
struct Plan {
  const Dialect* dialect;
  int64_t batch, M, N, K, NC;  // NC: the accumulator's column chunk
  StagingLayout a, b, c;
  int64_t offB, offC;
};

std::optional<Plan> plan(Lowerer& L, const Operation& op, const Dialect& d) {
  ValueId a = op.operands[0].value, b = op.operands[1].value, c = op.operands[2].value, r = op.results[0];
  Elem ae = Lowerer::elemOf(L.type(a)), re = Lowerer::elemOf(L.type(r));
  if (Lowerer::elemOf(L.type(b)) != ae || re != Elem::F32 || !L.cyclic(c) || !L.cyclic(r) || L.threads() < d.warp)
    return std::nullopt;
  const std::vector<int64_t>& sa = L.type(a)->shape;
  const std::vector<int64_t>& sr = L.type(r)->shape;
  int64_t batch = sa.size() == 3 ? sa[0] : 1, M = sr[sr.size() - 2], N = sr.back(), K = sa.back();
  if (M % 16 || N % 16 || K % d.format.k) return std::nullopt;
  int64_t storedBytes = d.format.stored == std::string("float") ? 4 : 2;
  auto sA = stagingLayout(batch * M, K, storedBytes);
  auto sB = stagingLayout(batch * K, N, storedBytes);
  if (!sA || !sB) return llvm::consumeError(sA.takeError()), llvm::consumeError(sB.takeError()), std::nullopt;
  // The widest column chunk of the accumulator (a multiple of 16 dividing N) that fits.
  for (int64_t NC = N; NC >= 16; NC -= 16) {
    if (N % NC) continue;
    auto sC = stagingLayout(batch * M, NC, 4);
    if (!sC) {
      llvm::consumeError(sC.takeError());
      continue;
    }
    int64_t offB = align128(sA->bytes()), offC = offB + align128(sB->bytes());
    if (sC->bytes() <= d.chunkLimit && offC + sC->bytes() <= d.stageLimit)
      return Plan{&d, batch, M, N, K, NC, *sA, *sB, *sC, offB, offC};
  }
  return std::nullopt;
}

// Plan p's variant, into the current statement list: the operands staged,
// then per accumulator chunk: the chunk staged, each warp's 16x16 tiles
// computed in place, the results read back by their owners.
void emitVariant(Lowerer& L, const Operation& op, const Plan& p) {
  ValueId a = op.operands[0].value, b = op.operands[1].value, c = op.operands[2].value, r = op.results[0];
  const Dialect& d = *p.dialect;
  int64_t M = p.M, N = p.N, K = p.K, NC = p.NC;
  uint64_t bytes = static_cast<uint64_t>(p.offC + p.c.bytes());
  Kernel& k = L.kernel();
  if (d.unit == Unit::Emulated) L.needStage(bytes);
  else k.variantStageBytes[d.target] = std::max(k.variantStageBytes[d.target], bytes);
  std::string S = d.format.stored, conv = d.format.convert;
  auto cvt = [&](const std::string& x) { return conv.empty() ? x : conv + "(" + x + ")"; };
  std::string A = "TS_STAGE(" + S + ", 0)", B = "TS_STAGE(" + S + ", " + num(p.offB) + ")";
  std::string C = "TS_STAGE(float, " + num(p.offC) + ")";
  std::string ldA = num(p.a.ld), ldB = num(p.b.ld), ldC = num(p.c.ld);
  // Operands, row by row: A is (batch * M) x K, B (batch * K) x N.
  L.barrier();
  L.elements(L.count(a), [&] { L.code(A + "[(k / " + num(K) + ") * " + ldA + " + k % " + num(K) + "] = " + cvt(L.at(a)) + ";"); });
  L.elements(L.count(b), [&] { L.code(B + "[(k / " + num(N) + ") * " + ldB + " + k % " + num(N) + "] = " + cvt(L.at(b)) + ";"); });
  std::string inChunk = "(k % " + num(N) + " >= ts_c0 && k % " + num(N) + " < ts_c0 + " + num(NC) + ")";
  std::string atC = C + "[(k / " + num(N) + ") * " + ldC + " + k % " + num(N) + " - ts_c0]";
  int64_t tilesM = M / 16, tilesN = NC / 16, tiles = p.batch * tilesM * tilesN;
  Fragments frag{d};
  L.nest(Stmt{Stmt::Loop, "for (ts_i64 ts_c0 = 0; ts_c0 < " + num(N) + "; ts_c0 += " + num(NC) + ")"}, [&] {
    L.barrier();
    L.elements(L.count(c), [&] { L.code("if " + inChunk + " " + atC + " = " + L.at(c) + ";"); });
    L.barrier();
    std::string loop = "for (ts_i64 t = TS_TID / " + num(d.warp) + "; t < " + num(tiles) + "; t += " + num(L.threads() / d.warp) + ")";
    L.nest(Stmt{Stmt::Loop, loop}, [&] {
      L.code("const ts_i64 bi = t / " + num(tilesM * tilesN) + ", tm = t / " + num(tilesN) + " % " + num(tilesM) +
             ", tn = t % " + num(tilesN) + ";");
      std::string cTile = "&" + C + "[(bi * " + num(M) + " + tm * 16) * " + ldC + " + tn * 16]";
      std::string aTile = "&" + A + "[(bi * " + num(M) + " + tm * 16) * " + ldA + " + kk]";
      std::string bTile = "&" + B + "[(bi * " + num(K) + " + kk) * " + ldB + " + ts_c0 + tn * 16]";
      frag.declare(L);
      frag.move(L, cTile, ldC, true);
      L.nest(Stmt{Stmt::Loop, "for (ts_i64 kk = 0; kk < " + num(K) + "; kk += " + num(d.format.k) + ")"},
             [&] { frag.step(L, aTile, ldA, bTile, ldB); });
      frag.move(L, cTile, ldC, false);
    });
    L.barrier();
    L.elements(L.count(r), [&] { L.code("if " + inChunk + " " + L.at(r) + " = " + atC + ";"); });
  });
}

}  // namespace

void lowerMma(Lowerer& L, const Operation& op) {
  bool integer = op.info->kind == OpKind::Mmai;
  L.declare(op.results[0]);
  if (integer) return portable(L, op, true);
  Elem e = Lowerer::elemOf(L.type(op.operands[0].value));
  if (L.emulateTensorCores) {  // the variant's structure on every target (tests)
    std::vector<Dialect> emulated = dialectsFor(e, true);
    if (!emulated.empty())
      if (std::optional<Plan> p = plan(L, op, emulated[0])) return emitVariant(L, op, *p);
  }
  std::vector<Dialect> dialects = L.tensorCores ? dialectsFor(e, false) : std::vector<Dialect>{};
  std::vector<Plan> plans;
  for (const Dialect& d : dialects)
    if (std::optional<Plan> p = plan(L, op, d)) plans.push_back(*p);
  if (plans.empty()) return portable(L, op, false);
  Stmt& variants = L.nest(Stmt{Stmt::TensorCores}, [] {});
  for (const Plan& p : plans) {
    Stmt::Variant v{p.dialect->target, p.dialect->condition, {}};
    L.into(v.body, [&] { emitVariant(L, op, p); });
    variants.variants.push_back(std::move(v));
  }
  L.into(variants.orElse, [&] { portable(L, op, false); });
}

}  // namespace tilesight::simt
