// The CUDA and HIP launch paths: their run-time compilers (NVRTC to a cubin,
// hiprtc to an AMDGPU code object) on a lowered kernel, which needs no GPU,
// and a launch on a device, which does. Each test skips with its reason
// when its compiler or device is missing; a launch without a device must
// fail with the reason, not crash.
#include <cstdio>
#include <cstring>
#include <map>

#include <gtest/gtest.h>

#include "codegen/cuda/launch.h"
#include "codegen/cuda/nvrtc.h"
#include "codegen/device/guard.h"
#include "codegen/device/probe.h"
#include "codegen/hip/hiprtc.h"
#include "codegen/hip/launch.h"
#include "codegen/runtime/devices.h"
#include "codegen/simt/lower.h"
#include "codegen/simt/print.h"
#include "tests/codegen/interp_ops_util.h"

namespace tilesight::testing {
namespace {

// out[k] = (k * 3) with a staged permute on the way: threads, barriers and
// shared memory all take part.
const char* kBody =
    "    %i = iota : tile<256xi32>\n"
    "    %r = reshape %i : tile<256xi32> -> tile<16x16xi32>\n"
    "    %t = permute %r [1, 0] : tile<16x16xi32> -> tile<16x16xi32>\n"
    "    %u = permute %t [1, 0] : tile<16x16xi32> -> tile<16x16xi32>\n"
    "    %f = reshape %u : tile<16x16xi32> -> tile<256xi32>\n"
    "    %c = constant <i32: 3> : tile<256xi32>\n"
    "    %m = muli %f, %c : tile<256xi32>\n";

simt::Kernel testKernel() {
  static const std::string src = kernel("%out: tile<ptr<i32>>", std::string(kBody) + store("%m", "256", "i32"));
  Analysis a = analyze(src);  // refers to src's text, as the kernel's parameter names do
  VerifiedProgram::Result vp = VerifiedProgram::of(a, a.chunks.at(0));
  EXPECT_TRUE(vp.program);
  auto k = simt::lower(*vp.program, *runtime::entriesOf(vp.program->program()).at(0));
  EXPECT_TRUE(static_cast<bool>(k));
  return k ? std::move(*k) : simt::Kernel{};
}

bool isElf(const std::vector<char>& image) { return image.size() > 20 && std::memcmp(image.data(), "\x7f" "ELF", 4) == 0; }

uint16_t elfMachine(const std::vector<char>& image) {
  uint16_t m = 0;
  std::memcpy(&m, image.data() + 18, 2);
  return m;
}

TEST(Nvrtc, CompilesALoweredKernelToACubinForSm80AndSm90) {
  std::string source = simt::printKernel(testKernel(), simt::Target::Cuda);
  EXPECT_NE(source.find("ts_guarded(ts_guard, "), std::string::npos);  // the guard, on by default
  for (const char* arch : {"sm_80", "sm_90"}) {
    cuda::Compiled c = cuda::compileCubin(source, arch);
    if (c.error.rfind("no NVRTC", 0) == 0) GTEST_SKIP() << c.error;
    ASSERT_EQ(c.error, "") << arch;
    EXPECT_TRUE(isElf(c.image)) << arch;
    EXPECT_EQ(elfMachine(c.image), 190) << arch;  // EM_CUDA
  }
}

// An f16 32x32x32 mmaf into f32, lowered: every matrix-unit variant applies.
simt::Kernel mmaKernel() {
  static const std::string src = kernel(
      "%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %out: tile<ptr<f32>>",
      load("%x", 1024, "f16", "%a") + load("%y", 1024, "f16", "%b") +
          "    %xa = reshape %x : tile<1024xf16> -> tile<32x32xf16>\n    %yb = reshape %y : tile<1024xf16> -> tile<32x32xf16>\n"
          "    %z = constant <f32: 0.0> : tile<32x32xf32>\n"
          "    %m = mmaf %xa, %yb, %z : tile<32x32xf16>, tile<32x32xf16>, tile<32x32xf32>\n" + store("%m", "32x32", "f32"));
  static Analysis a = analyze(src);
  VerifiedProgram::Result vp = VerifiedProgram::of(a, a.chunks.at(0));
  EXPECT_TRUE(vp.program);
  auto k = simt::lower(*vp.program, *runtime::entriesOf(vp.program->program()).at(0));
  EXPECT_TRUE(static_cast<bool>(k));
  return k ? std::move(*k) : simt::Kernel{};
}

TEST(Nvrtc, AnF16MatrixProductUsesTensorCoresOnSm80AndSm90AndNotBefore) {
  std::string source = simt::printKernel(mmaKernel(), simt::Target::Cuda);
  for (const char* arch : {"sm_80", "sm_90", "sm_75"}) {
    cuda::Compiled c = cuda::compileCubin(source, arch);
    if (c.error.rfind("no NVRTC", 0) == 0) GTEST_SKIP() << c.error;
    ASSERT_EQ(c.error, "") << arch;
    bool mma = c.ptx.find("mma.sync") != std::string::npos;
    EXPECT_EQ(mma, std::string(arch) != "sm_75") << arch;  // sm_75 keeps the portable loop
  }
}

TEST(Nvrtc, ARejectedSourceComesBackWithTheCompilersLog) {
  cuda::Compiled c = cuda::compileCubin("extern \"C\" __global__ void k() { undeclared_name = 1; }", "sm_90");
  if (c.error.rfind("no NVRTC", 0) == 0) GTEST_SKIP() << c.error;
  EXPECT_NE(c.error.find("rejected the generated kernel for sm_90"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("undeclared_name"), std::string::npos) << c.error;
  EXPECT_TRUE(c.image.empty());
}

TEST(Hiprtc, CompilesALoweredKernelToACodeObjectForGfx90aAndGfx1030) {
  std::string source = simt::printKernel(testKernel(), simt::Target::Hip);
  for (const char* arch : {"gfx90a", "gfx1030"}) {
    hip::CodeObject c = hip::compileCodeObject(source, arch);
    if (c.error.rfind("no hiprtc", 0) == 0) GTEST_SKIP() << c.error;
    ASSERT_EQ(c.error, "") << arch;
    EXPECT_TRUE(isElf(c.image)) << arch;
    EXPECT_EQ(elfMachine(c.image), 224) << arch;  // EM_AMDGPU
  }
}

// Pointers to f4E2M1FN elements, loaded by nibble and stored by a CAS on their word, with the guard.
std::string fourBitSource(simt::Target t) {
  static const std::string src = kernel("%p: tile<ptr<f4E2M1FN>>, %out: tile<ptr<f4E2M1FN>>",
                                        load("%x", 64, "f4E2M1FN", "%p") + store("%x", "64", "f4E2M1FN"));
  Analysis a = analyze(src);
  VerifiedProgram::Result vp = VerifiedProgram::of(a, a.chunks.at(0));
  EXPECT_TRUE(vp.program);
  auto k = simt::lower(*vp.program, *runtime::entriesOf(vp.program->program()).at(0));
  EXPECT_TRUE(static_cast<bool>(k)) << (k ? "" : llvm::toString(k.takeError()));
  std::string text = k ? simt::printKernel(*k, t) : "";
  EXPECT_NE(text.find("ts_st4("), std::string::npos);
  EXPECT_NE(text.find("ts_guarded(ts_guard, "), std::string::npos);
  return text;
}

TEST(Nvrtc, CompilesAGuardedKernelWithPointersToFourBitElements) {
  cuda::Compiled c = cuda::compileCubin(fourBitSource(simt::Target::Cuda), "sm_90");
  if (c.error.rfind("no NVRTC", 0) == 0) GTEST_SKIP() << c.error;
  ASSERT_EQ(c.error, "");
  EXPECT_TRUE(isElf(c.image));
}

TEST(Hiprtc, CompilesAGuardedKernelWithPointersToFourBitElements) {
  hip::CodeObject c = hip::compileCodeObject(fourBitSource(simt::Target::Hip), "gfx90a");
  if (c.error.rfind("no hiprtc", 0) == 0) GTEST_SKIP() << c.error;
  ASSERT_EQ(c.error, "");
  EXPECT_TRUE(isElf(c.image));
}

// The guard's words as the host fills them, and a fault record as a kernel leaves it, told.
TEST(LaunchGuard, TheTableCoversEveryBufferButThePrintsAndTheRecordIsTold) {
  runtime::HostBuffer a, prints, guard, item;
  a.name = "%a", a.bytes.assign(64, 0);
  item.name = "%list[0]", item.bytes.assign(16, 0);
  runtime::Launch l;
  l.args.push_back({&a, {}});
  l.args.push_back({nullptr, {1, 0, 0, 0}});
  l.args.push_back({&prints, {}});
  l.args.push_back({&guard, {}});
  l.indirect.push_back(&item);
  device::fillGuard(l, 3, {2});
  EXPECT_EQ(device::guardedBuffers(l, 3, {2}), (std::vector<size_t>{0, 4}));
  ASSERT_EQ(guard.bytes.size(), (7u + 4u) * 8);
  ASSERT_EQ(l.addressWords.size(), 2u);
  EXPECT_EQ(l.addressWords[1].arg, 3u);
  EXPECT_EQ(l.addressWords[1].offset, 9u * 8);
  EXPECT_EQ(l.addressWords[1].target, 4u);
  uint64_t words[11];
  std::memcpy(words, guard.bytes.data(), sizeof words);
  EXPECT_EQ(words[6], 2u);
  EXPECT_EQ(words[7], a.address());
  EXPECT_EQ(words[8], 64u);
  EXPECT_EQ(words[10], 16u);
  // Site 0 (a store of 4 bytes, tile 4x8) failed in block 5, lane 13, 68 bytes past %a's base.
  Analysis an = analyze(kernel("%out: tile<ptr<i32>>", "    %i = iota : tile<32xi32>\n    %r = reshape %i : tile<32xi32> -> tile<4x8xi32>\n"));
  simt::Kernel k;
  k.guardSites.push_back({nullptr, "a store", 4, nullptr});
  VerifiedProgram::Result vp = VerifiedProgram::of(an, an.chunks.at(0));
  ASSERT_TRUE(vp.program);
  for (const Value& v : vp.program->program().values)
    if (v.type && v.type->isTile() && v.type->shape == std::vector<int64_t>{4, 8}) k.guardSites[0].tile = v.type;
  ASSERT_TRUE(k.guardSites[0].tile);
  uint64_t record[6] = {1, 5, 13, 0x1000, 1, 68};
  std::memcpy(guard.bytes.data(), record, sizeof record);
  auto f = device::guardFault(k, l, 3, {2});
  ASSERT_TRUE(f);
  EXPECT_EQ(f->block, 5);
  EXPECT_EQ(f->message, "a store of 4 bytes at %a + 68 bytes (the buffer has 64) is outside every buffer of the run "
                        "(lane [1, 5]); the device's guard skipped it");
  record[4] = 0;  // no buffer below the address
  std::memcpy(guard.bytes.data(), record, sizeof record);
  EXPECT_NE(device::guardFault(k, l, 3, {2})->message.find("at no buffer (0x1000)"), std::string::npos);
  std::memset(guard.bytes.data(), 0, 8);
  EXPECT_FALSE(device::guardFault(k, l, 3, {2}));
}

// The disassembly of an AMDGPU code object, or empty when llvm-objdump is missing.
std::string disassemble(const std::vector<char>& image, const std::string& arch) {
  std::string path = ::testing::TempDir() + "/mma_" + arch + ".co";
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(image.data(), 1, image.size(), f);
  std::fclose(f);
  std::string text;
  if (FILE* p = popen(("llvm-objdump-14 -d --mcpu=" + arch + " " + path + " 2>/dev/null").c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
    pclose(p);
  }
  return text;
}

TEST(Hiprtc, AnF16MatrixProductUsesMfmaOnGfx90aAndNotOnGfx1030) {
  std::string source = simt::printKernel(mmaKernel(), simt::Target::Hip);
  std::map<std::string, std::string> text;
  for (const char* arch : {"gfx90a", "gfx1030"}) {
    hip::CodeObject c = hip::compileCodeObject(source, arch);
    if (c.error.rfind("no hiprtc", 0) == 0) GTEST_SKIP() << c.error;
    ASSERT_EQ(c.error, "") << arch;
    text[arch] = disassemble(c.image, arch);
  }
  if (text["gfx90a"].empty()) GTEST_SKIP() << "no llvm-objdump-14 to disassemble the code objects (both compiled)";
  EXPECT_NE(text["gfx90a"].find("v_mfma_f32_16x16x16f16"), std::string::npos);
  EXPECT_EQ(text["gfx1030"].find("mfma"), std::string::npos);
}

TEST(Hiprtc, ARejectedSourceComesBackWithTheCompilersLog) {
  hip::CodeObject c = hip::compileCodeObject("extern \"C\" __global__ void k() { undeclared_name = 1; }", "gfx90a");
  if (c.error.rfind("no hiprtc", 0) == 0) GTEST_SKIP() << c.error;
  EXPECT_NE(c.error.find("rejected the generated kernel for gfx90a"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("undeclared_name"), std::string::npos) << c.error;
}

// A launch of testKernel on `backend`'s device 0: the result checked where
// there is a device; else the launch must say why there is none.
void launchOrSayWhy(runtime::Backend backend) {
  simt::Kernel k = testKernel();
  simt::Target target = backend == runtime::Backend::Cuda ? simt::Target::Cuda : simt::Target::Hip;
  runtime::HostBuffer out;
  out.elem = Elem::I32;
  out.shape = {256};
  out.bytes.assign(256 * 4, 0xff);
  runtime::Launch l;
  l.source = simt::printKernel(k, target);
  l.kernel = k.name;
  l.threads = k.threads;
  l.stageBytes = simt::stageBytes(k, target);
  l.dynamicStage = simt::dynamicStage(k, target);
  l.args.push_back({&out, {}});
  runtime::HostBuffer guard;
  l.args.push_back({&guard, {}});
  device::fillGuard(l, 1, {});
  l.repeat = 2;
  runtime::BackendReport found = device::probe(backend);
  runtime::LaunchResult r = backend == runtime::Backend::Cuda ? cuda::launch(0, l) : hip::launch(0, l);
  if (found.devices.empty()) {
    EXPECT_NE(r.error, "") << "a launch without a device must fail";
    GTEST_SKIP() << "no " << runtime::backendName(backend) << " device: " << found.reason << " (the launch said: " << r.error << ")";
  }
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.runMs.size(), 2u);
  EXPECT_EQ(r.status[0], 0);
  for (int32_t i = 0; i < 256; ++i) {
    int32_t v = 0;
    std::memcpy(&v, out.bytes.data() + 4 * i, 4);
    ASSERT_EQ(v, 3 * i) << "element " << i;
  }
}

TEST(LaunchBuffers, AddressWordsTakeDeviceAddressesOnTheWayInAndHostOnesBack) {
  runtime::HostBuffer words, item;
  item.bytes.assign(16, 0);
  uint64_t host = item.address();
  words.bytes.assign(24, 0);
  std::memcpy(words.bytes.data() + 8, &host, 8);
  runtime::Launch l;
  l.args.push_back({&words, {}});
  l.args.push_back({nullptr, {1, 0, 0, 0}});
  l.indirect.push_back(&item);
  l.addressWords.push_back({0, 8, 2});
  EXPECT_EQ(runtime::bufferCount(l), 3u);
  EXPECT_EQ(runtime::hostBuffer(l, 1), nullptr);
  EXPECT_EQ(runtime::hostBuffer(l, 2), &item);
  std::vector<uint8_t> up = runtime::uploadBytes(l, 0, {0, 0, 0xdead0000});
  uint64_t w = 0;
  std::memcpy(&w, up.data() + 8, 8);
  EXPECT_EQ(w, 0xdead0000u);
  EXPECT_EQ(words.bytes.size(), up.size());
  words.bytes = up;  // read back unchanged: the host address again
  runtime::restoreAddressWords(l, 0, up);
  std::memcpy(&w, words.bytes.data() + 8, 8);
  EXPECT_EQ(w, host);
}

TEST(GpuLaunch, CudaRunsAKernelOrSaysWhyNot) { launchOrSayWhy(runtime::Backend::Cuda); }
TEST(GpuLaunch, HipRunsAKernelOrSaysWhyNot) { launchOrSayWhy(runtime::Backend::Hip); }

}  // namespace
}  // namespace tilesight::testing
