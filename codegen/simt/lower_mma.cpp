// mmaf and mmai. The portable form stages both operands and has each thread
// sum its result elements in k order, one rounding per addition, as the
// reference does. For CUDA, an f16, bf16 or tf32 mmaf into f32 with
// 16-multiple shapes also gets a tensor-core variant (Stmt::TensorCores;
// sm_80+ with WMMA): the operands staged as their own type in padded
// row-major layouts (staging_layout.h), each warp computing 16x16 tiles of
// the result, in column chunks of the accumulator small enough to stage.
// Tensor cores sum a tile's products in their own order, so results may
// differ from the reference in the last places (run --check's tolerance
// covers it; --no-tensor-cores keeps the reference's order).
#include <optional>

#include "analysis/ir/attr_values.h"
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
      bool sa2 = attrValue<Signedness>(op, "signedness_lhs").value_or(Signedness::Signed) == Signedness::Signed;
      bool sb2 = attrValue<Signedness>(op, "signedness_rhs").value_or(Signedness::Signed) == Signedness::Signed;
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

// What WMMA calls an operand format: its fragment element type, the type it
// is staged as, the conversion from the held float, and the fragment's k.
struct Format {
  const char* fragment;
  const char* stored;
  const char* convert;  // a function of the held float, or "" for none
  int64_t k;
};

std::optional<Format> wmmaFormat(Elem e) {
  switch (e) {
    case Elem::F16: return Format{"__half", "__half", "__float2half_rn", 16};
    case Elem::BF16: return Format{"__nv_bfloat16", "__nv_bfloat16", "__float2bfloat16_rn", 16};
    case Elem::TF32: return Format{"nvcuda::wmma::precision::tf32", "float", "", 8};
    default: return std::nullopt;
  }
}

// The most shared memory a tensor-core variant stages (sm_80 lets a block
// opt in to 163 KiB; this leaves room for the accumulator chunks to shrink
// instead).
constexpr int64_t kTensorCoreStageLimit = 160 * 1024;
constexpr int64_t kChunkLimit = 64 * 1024;  // the accumulator chunk, in bytes

int64_t align128(int64_t b) { return (b + 127) / 128 * 128; }

// The warp-level matrix operations of the tensor-core variant: WMMA, or
// (emulated, for testing the variant's staging and chunking on any target)
// each lane summing 8 of the 16x16 accumulator tile in k order.
struct Fragments {
  Fragments(const Format& f, bool emulated) : f(f), emulated(emulated) {}
  const Format& f;
  bool emulated;

  void declare(Lowerer& L) const {
    if (emulated) return L.code("float fc[8];");
    std::string frag = "nvcuda::wmma::fragment<nvcuda::wmma::", shape = ", 16, 16, " + num(f.k) + ", ";
    L.code(frag + "matrix_a" + shape + f.fragment + ", nvcuda::wmma::row_major> fa;");
    L.code(frag + "matrix_b" + shape + f.fragment + ", nvcuda::wmma::row_major> fb;");
    L.code(frag + "accumulator" + shape + "float> fc;");
  }
  // The accumulator tile at `tile` (row-major, rows ld apart) into the fragment, or back.
  void move(Lowerer& L, const std::string& tile, const std::string& ld, bool load) const {
    if (!emulated) {
      L.code(load ? "nvcuda::wmma::load_matrix_sync(fc, " + tile + ", " + ld + ", nvcuda::wmma::mem_row_major);"
                  : "nvcuda::wmma::store_matrix_sync(" + tile + ", fc, " + ld + ", nvcuda::wmma::mem_row_major);");
      return;
    }
    std::string at = "(" + tile + ")[(e / 16) * " + ld + " + e % 16]";
    L.code("for (int u = 0; u < 8; ++u) { const int e = TS_TID % 32 + 32 * u; " +
           (load ? "fc[u] = " + at : at + " = fc[u]") + "; }");
  }
  // fc += a x b for the 16 x k slice of A at a and the k x 16 slice of B at b.
  void step(Lowerer& L, const std::string& a, const std::string& lda, const std::string& b, const std::string& ldb) const {
    if (!emulated) {
      L.code("nvcuda::wmma::load_matrix_sync(fa, " + a + ", " + lda + ");");
      L.code("nvcuda::wmma::load_matrix_sync(fb, " + b + ", " + ldb + ");");
      L.code("nvcuda::wmma::mma_sync(fc, fa, fb, fc);");
      return;
    }
    L.code("for (int u = 0; u < 8; ++u) { const int e = TS_TID % 32 + 32 * u; for (int q = 0; q < " + num(f.k) +
           "; ++q) fc[u] = TS_ADDF(fc[u], TS_MULF((" + a + ")[(e / 16) * " + lda + " + q], (" + b + ")[q * " + ldb +
           " + e % 16])); }");
  }
};

// Where a tensor-core variant stages what, when the op's types and shapes
// allow one.
struct Plan {
  Format format;
  bool emulated;
  int64_t batch, M, N, K, NC;  // NC: the accumulator's column chunk
  StagingLayout a, b, c;
  int64_t offB, offC;
};

std::optional<Plan> plan(Lowerer& L, const Operation& op, bool emulated) {
  ValueId a = op.operands[0].value, b = op.operands[1].value, c = op.operands[2].value, r = op.results[0];
  Elem ae = Lowerer::elemOf(L.type(a)), re = Lowerer::elemOf(L.type(r));
  std::optional<Format> f = wmmaFormat(ae);
  if (f && emulated) f = Format{"float", "float", "", f->k};  // held values, summed as the reference does
  if (!f || Lowerer::elemOf(L.type(b)) != ae || re != Elem::F32 || !L.cyclic(c) || !L.cyclic(r)) return std::nullopt;
  const std::vector<int64_t>& sa = L.type(a)->shape;
  const std::vector<int64_t>& sr = L.type(r)->shape;
  int64_t batch = sa.size() == 3 ? sa[0] : 1, M = sr[sr.size() - 2], N = sr.back(), K = sa.back();
  if (M % 16 || N % 16 || K % f->k) return std::nullopt;
  int64_t storedBytes = f->stored == std::string("float") ? 4 : 2;
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
    if (sC->bytes() <= kChunkLimit && offC + sC->bytes() <= kTensorCoreStageLimit)
      return Plan{*f, emulated, batch, M, N, K, NC, *sA, *sB, *sC, offB, offC};
  }
  return std::nullopt;
}

// The tensor-core variant of plan p, into the current statement list.
void emitTensorCores(Lowerer& L, const Operation& op, const Plan& p) {
  ValueId a = op.operands[0].value, b = op.operands[1].value, c = op.operands[2].value, r = op.results[0];
  const Format* f = &p.format;
  int64_t batch = p.batch, M = p.M, N = p.N, K = p.K, NC = p.NC;
  const StagingLayout *sA = &p.a, *sB = &p.b, *sC = &p.c;
  int64_t oB = p.offB, oC = p.offC;
  Kernel& k = L.kernel();
  if (p.emulated) L.needStage(oC + sC->bytes());
  else k.tensorCoreStageBytes = std::max<uint64_t>(k.tensorCoreStageBytes, oC + sC->bytes());
  std::string S = f->stored, conv = f->convert;
  auto cvt = [&](const std::string& x) { return conv.empty() ? x : conv + "(" + x + ")"; };
  std::string A = "TS_STAGE(" + S + ", 0)", B = "TS_STAGE(" + S + ", " + num(oB) + ")", C = "TS_STAGE(float, " + num(oC) + ")";
  std::string ldA = num(sA->ld), ldB = num(sB->ld), ldC = num(sC->ld);
  // Operands, row by row: A is (batch * M) x K, B (batch * K) x N.
  L.barrier();
  L.elements(L.count(a), [&] { L.code(A + "[(k / " + num(K) + ") * " + ldA + " + k % " + num(K) + "] = " + cvt(L.at(a)) + ";"); });
  L.elements(L.count(b), [&] { L.code(B + "[(k / " + num(N) + ") * " + ldB + " + k % " + num(N) + "] = " + cvt(L.at(b)) + ";"); });
  std::string inChunk = "(k % " + num(N) + " >= ts_c0 && k % " + num(N) + " < ts_c0 + " + num(NC) + ")";
  std::string atC = C + "[(k / " + num(N) + ") * " + ldC + " + k % " + num(N) + " - ts_c0]";
  int64_t tilesM = M / 16, tilesN = NC / 16, tiles = batch * tilesM * tilesN;
  L.nest(Stmt{Stmt::Loop, "for (ts_i64 ts_c0 = 0; ts_c0 < " + num(N) + "; ts_c0 += " + num(NC) + ")"}, [&] {
    L.barrier();
    L.elements(L.count(c), [&] { L.code("if " + inChunk + " " + atC + " = " + L.at(c) + ";"); });
    L.barrier();
    L.nest(Stmt{Stmt::Loop, "for (ts_i64 t = TS_TID / 32; t < " + num(tiles) + "; t += " + num(L.threads() / 32) + ")"}, [&] {
      L.code("const ts_i64 bi = t / " + num(tilesM * tilesN) + ", tm = t / " + num(tilesN) + " % " + num(tilesM) +
             ", tn = t % " + num(tilesN) + ";");
      std::string cTile = "&" + C + "[(bi * " + num(M) + " + tm * 16) * " + ldC + " + tn * 16]";
      std::string aTile = "&" + A + "[(bi * " + num(M) + " + tm * 16) * " + ldA + " + kk]";
      std::string bTile = "&" + B + "[(bi * " + num(K) + " + kk) * " + ldB + " + ts_c0 + tn * 16]";
      Fragments frag(*f, p.emulated);
      frag.declare(L);
      frag.move(L, cTile, ldC, true);
      L.nest(Stmt{Stmt::Loop, "for (ts_i64 kk = 0; kk < " + num(K) + "; kk += " + num(f->k) + ")"},
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
  if (!integer && L.emulateTensorCores) {  // the variant's structure on every target (tests)
    if (std::optional<Plan> p = plan(L, op, true)) return emitTensorCores(L, op, *p);
  }
  std::optional<Plan> p = integer || !L.tensorCores ? std::nullopt : plan(L, op, false);
  if (!p) return portable(L, op, integer);
  Stmt& variants = L.nest(Stmt{Stmt::TensorCores}, [&] { emitTensorCores(L, op, *p); });
  L.into(variants.orElse, [&] { portable(L, op, false); });
}

}  // namespace tilesight::simt
