// Whole kernels on the interpreter against naive C++ references: real
// cuTile kernels of tests/corpus/real (vector add, gather, transpose,
// softmax, layer norm) and the GEMM example (a K loop with tokens).
#include <cmath>

#include "codegen/runtime/float_formats.h"
#include "tests/codegen/interp_test_util.h"

namespace tilesight::testing {
namespace {


TEST(InterpKernels, VecAddDirectWithPartialLastTile) {
  SpecRun r = runWithSpecs(testFile("corpus/real/vec_add.tile"),
                           {"a=rand:1000000:f32:1", "b=rand:1000000:f32:2", "c=zeros:1000000:f32", "a_s0=1000000",
                            "a_st0=1", "b_s0=1000000", "b_st0=1", "c_s0=1000000", "c_st0=1"},
                           {977, 1, 1});
  ASSERT_TRUE(r.ok) << r.problem;
  auto a = r.get<float>(r.before, "a"), b = r.get<float>(r.before, "b"), c = r.get<float>(r.after, "c");
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
}

TEST(InterpKernels, VecAddGatherScatterMasksTheTail) {
  SpecRun r = runWithSpecs(testFile("corpus/real/vec_add_1d_gather.tile"),
                           {"a=rand:100000:f32:3", "b=rand:100000:f32:4", "c=zeros:100000:f32", "a_s0=100000",
                            "a_st0=1", "b_s0=100000", "b_st0=1", "c_s0=100000", "c_st0=1"},
                           {98, 1, 1});
  ASSERT_TRUE(r.ok) << r.problem;
  auto a = r.get<float>(r.before, "a"), b = r.get<float>(r.before, "b"), c = r.get<float>(r.after, "c");
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
}

TEST(InterpKernels, TransposeF16IsBitExact) {
  SpecRun r = runWithSpecs(testFile("corpus/real/transpose.tile"),
                           {"x=rand:1024x512:f16:5", "y=zeros:512x1024:f16", "x_s0=1024", "x_s1=512", "x_st0=512",
                            "x_st1=1", "y_s0=512", "y_s1=1024", "y_st0=1024", "y_st1=1"},
                           {8, 4, 1});
  ASSERT_TRUE(r.ok) << r.problem;
  auto x = r.get<uint16_t>(r.before, "x"), y = r.get<uint16_t>(r.after, "y");
  for (int i = 0; i < 1024; ++i)
    for (int j = 0; j < 512; ++j) ASSERT_EQ(y[j * 1024 + i], x[i * 512 + j]) << i << "," << j;
}

TEST(InterpKernels, SoftmaxRows) {
  SpecRun r = runWithSpecs(testFile("corpus/real/softmax.tile"),
                           {"0=rand:512x128:f32:6", "1=512", "2=128", "3=128", "4=1", "5=zeros:512x128:f32", "6=512",
                            "7=128", "8=128", "9=1"},
                           {32, 1, 1});
  ASSERT_TRUE(r.ok) << r.problem;
  auto x = r.get<float>(r.before, "0"), y = r.get<float>(r.after, "5");
  for (int row = 0; row < 512; ++row) {
    double mx = -INFINITY, sum = 0;
    for (int j = 0; j < 128; ++j) mx = std::max(mx, double(x[row * 128 + j]));
    for (int j = 0; j < 128; ++j) sum += std::exp(x[row * 128 + j] - mx);
    for (int j = 0; j < 128; ++j)
      ASSERT_NEAR(y[row * 128 + j], std::exp(x[row * 128 + j] - mx) / sum, 1e-6) << row << "," << j;
  }
}

TEST(InterpKernels, LayerNormForwardWithPartialSecondTile) {
  const int M = 256, N = 1536;
  SpecRun r = runWithSpecs(testFile("corpus/real/layer_norm_fwd.tile"),
                           {"X=rand:256x1536:f32:7", "X_s0=256", "X_s1=1536", "X_st0=1536", "X_st1=1",
                            "W=rand:1536:f32:8", "W_s0=1536", "W_st0=1", "B=rand:1536:f32:9", "B_s0=1536", "B_st0=1",
                            "Y=zeros:256x1536:f32", "Y_s0=256", "Y_s1=1536", "Y_st0=1536", "Y_st1=1",
                            "Mean=zeros:256:f32", "Mean_s0=256", "Mean_st0=1", "Rstd=zeros:256:f32", "Rstd_s0=256",
                            "Rstd_st0=1", "eps=1e-5"},
                           {M, 1, 1});
  ASSERT_TRUE(r.ok) << r.problem;
  auto X = r.get<float>(r.before, "X"), W = r.get<float>(r.before, "W"), B = r.get<float>(r.before, "B");
  auto Y = r.get<float>(r.after, "Y"), mean = r.get<float>(r.after, "Mean"), rstd = r.get<float>(r.after, "Rstd");
  for (int m = 0; m < M; ++m) {
    double mu = 0, var = 0;
    for (int n = 0; n < N; ++n) mu += X[m * N + n];
    mu /= N;
    for (int n = 0; n < N; ++n) var += (X[m * N + n] - mu) * (X[m * N + n] - mu);
    var /= N;
    double rs = 1 / std::sqrt(var + 1e-5);
    ASSERT_NEAR(mean[m], mu, 1e-5) << m;
    ASSERT_NEAR(rstd[m], rs, 1e-4 * rs) << m;
    for (int n = 0; n < N; ++n) ASSERT_NEAR(Y[m * N + n], (X[m * N + n] - mu) * rs * W[n] + B[n], 1e-4) << m << "," << n;
  }
}

TEST(InterpKernels, GemmF16WithKLoopAndTokens) {
  const int M = 1024, N = 1024, K = 512;
  SpecRun r = runWithSpecs(testFile("../examples/gemm.tile"),
                           {"a=rand:1024x512:f16:10", "b=rand:512x1024:f16:11", "c=zeros:1024x1024:f32"}, {8, 8, 1});
  ASSERT_TRUE(r.ok) << r.problem;
  auto a = r.get<uint16_t>(r.before, "a"), b = r.get<uint16_t>(r.before, "b");
  auto c = r.get<float>(r.after, "c");
  std::vector<double> af(a.size()), bf(b.size());
  for (size_t i = 0; i < a.size(); ++i) af[i] = runtime::decodeFloat(Elem::F16, a[i]);
  for (size_t i = 0; i < b.size(); ++i) bf[i] = runtime::decodeFloat(Elem::F16, b[i]);
  for (int i = 0; i < M; i += 37)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += af[i * K + k] * bf[k * N + j];
      ASSERT_NEAR(c[i * N + j], s, 1e-3) << i << "," << j;
    }
}

TEST(InterpKernels, ParallelAndDeterministicRunsAgree) {
  std::vector<std::string> specs{"a=rand:1024x512:f16:12", "b=rand:512x1024:f16:13", "c=zeros:1024x1024:f32"};
  SpecRun one = runWithSpecs(testFile("../examples/gemm.tile"), specs, {8, 8, 1}, 1);
  SpecRun all = runWithSpecs(testFile("../examples/gemm.tile"), specs, {8, 8, 1}, 0);
  ASSERT_TRUE(one.ok && all.ok);
  EXPECT_EQ(one.after.at("c"), all.after.at("c"));
}

}  // namespace
}  // namespace tilesight::testing
