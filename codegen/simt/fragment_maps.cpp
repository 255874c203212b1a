#include "codegen/simt/fragment_maps.h"

#include "analysis/layout/wmma.h"

namespace tilesight::simt {

namespace {

using layout::IntTuple;

llvm::Error problem(const std::string& what) { return llvm::createStringError(llvm::inconvertibleErrorCode(), what); }

// v_mfma_f32_16x16x16f16: lane t, local l (4 each): A[M = t%16][K = 4(t/16) + l],
// B[K = 4(t/16) + l][N = t%16], D[M = 4(t/16) + l][N = t%16].
layout::Layout mfma(bool a) {
  IntTuple lanes = IntTuple::tuple({16, 4});
  return a ? layout::Layout{IntTuple::tuple({lanes, 4}), IntTuple::tuple({IntTuple::tuple({1, 64}), 16})}
           : layout::Layout{IntTuple::tuple({lanes, 4}), IntTuple::tuple({IntTuple::tuple({16, 4}), 1})};
}

llvm::Expected<layout::Layout> rdna(const char* target, const char* matrix) {
  auto v = layout::wmmaLayout(target, matrix);
  if (!v) return problem(v.error().text());
  return v->layout;
}

// Every element of the 16x16 operand reached by some (lane, local); exactly once when `exact`.
llvm::Error covers(const layout::Layout& l, bool exact, const char* what) {
  std::vector<int> hits(256, 0);
  for (int64_t off : layout::offsets(l, layout::size(l))) {
    if (off < 0 || off >= 256) return problem(std::string(what) + ": offset " + std::to_string(off) + " is outside 16x16");
    ++hits[off];
  }
  for (int x = 0; x < 256; ++x)
    if (hits[x] == 0 || (exact && hits[x] != 1))
      return problem(std::string(what) + ": element (" + std::to_string(x % 16) + ", " + std::to_string(x / 16) + ") is held " +
                     std::to_string(hits[x]) + " times");
  if (exact && !layout::decide(l).bijective) return problem(std::string(what) + ": not a bijection");
  return llvm::Error::success();
}

}  // namespace

llvm::Expected<FragmentMaps> fragmentMaps(MatrixUnit u) {
  FragmentMaps m;
  m.unit = u;
  if (u == MatrixUnit::Mfma) {
    m.lanes = 64;
    m.a = mfma(true), m.b = mfma(false), m.c = mfma(false);
    m.condition = "defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)";
    m.builtin = "__builtin_amdgcn_mfma_f32_16x16x16f16";
    m.extraArgs = ", 0, 0, 0";
  } else {
    const char* target = u == MatrixUnit::WmmaGfx11 ? "gfx11" : "gfx12";
    m.lanes = 32;
    for (auto [matrix, out] : {std::pair{"A", &m.a}, {"B", &m.b}, {"C", &m.c}}) {
      auto l = rdna(target, matrix);
      if (!l) return l.takeError();
      *out = *l;
    }
    m.condition = u == MatrixUnit::WmmaGfx11
                      ? "defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__) || defined(__gfx1103__)"
                      : "defined(__gfx1200__) || defined(__gfx1201__)";
    m.builtin = u == MatrixUnit::WmmaGfx11 ? "__builtin_amdgcn_wmma_f32_16x16x16_f16_w32"
                                           : "__builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12";
  }
  m.aLocals = layout::size(layout::mode(m.a, 1));
  m.bLocals = layout::size(layout::mode(m.b, 1));
  m.cLocals = layout::size(layout::mode(m.c, 1));
  if (llvm::Error e = covers(m.a, false, "A")) return e;
  if (llvm::Error e = covers(m.b, false, "B")) return e;
  if (llvm::Error e = covers(m.c, true, "C")) return e;
  return m;
}

std::string indexExpr(const layout::Layout& tv, const std::string& lane, const std::string& local) {
  std::string out;
  const char* vars[] = {lane.c_str(), local.c_str()};
  for (size_t mode = 0; mode < 2; ++mode) {
    std::vector<int64_t> shape = layout::leaves(tv.shape[mode]), stride = layout::leaves(tv.stride[mode]);
    int64_t prefix = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
      if (stride[k] != 0 && shape[k] != 1) {
        std::string x = vars[mode];
        if (prefix != 1) x = "(" + x + " / " + std::to_string(prefix) + ")";
        if (k + 1 < shape.size()) x = "(" + x + " % " + std::to_string(shape[k]) + ")";
        out += (out.empty() ? "" : " + ") + x + (stride[k] == 1 ? "" : " * " + std::to_string(stride[k]));
      }
      prefix *= shape[k];
    }
  }
  return out.empty() ? "0" : out;
}

}  // namespace tilesight::simt
