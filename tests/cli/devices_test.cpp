// `tilesight devices` and `run --device` (DESIGN §3): the cpu always, each GPU
// runtime with its devices or the reason it has none, exit 3 where a device
// was asked for and cannot run the program. Runtimes are steered through the
// environment the loaders read (LD_LIBRARY_PATH, OCL_ICD_VENDORS).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_util.h"

namespace tilesight::clitest {
namespace {

// Sets an environment variable for one scope (the child processes inherit it).
class ScopedEnv {
public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(Devices, ListsTheCpuAndEveryRuntimeWithDevicesOrAReason) {
  CliRun r = run("devices --format=json", "", {true});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["devices"].empty());
  EXPECT_EQ(j["devices"][0]["id"], "cpu");
  EXPECT_EQ(j["devices"][0]["kind"], "cpu");
  EXPECT_GT(j["devices"][0]["memory_bytes"].get<uint64_t>(), 0u);
  std::vector<std::string> names;
  for (const auto& b : j["backends"]) {
    names.push_back(b["name"]);
    size_t devices = 0;
    for (const auto& d : j["devices"]) devices += d["backend"] == b["name"];
    // Available with devices, or unavailable with the reason why.
    EXPECT_EQ(b["available"].get<bool>(), devices > 0) << b.dump();
    EXPECT_EQ(b["reason"].get<std::string>().empty(), b["available"].get<bool>()) << b.dump();
  }
  EXPECT_EQ(names, (std::vector<std::string>{"cpu", "cuda", "hip", "opencl"}));
  CliRun text = run("devices");
  EXPECT_EQ(text.status, 0);
  EXPECT_EQ(text.out.rfind("cpu ", 0), 0u) << text.out;
  for (const char* b : {"\ncuda", "\nhip", "\nopencl"}) EXPECT_NE(text.out.find(b), std::string::npos) << text.out;
}

TEST(Devices, AStubDriverIsNamedAsSuch) {
  const char* stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!std::filesystem::exists(stub)) GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda (its stub libcuda.so)";
  std::string dir = tempPath("stub");
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir + "/libcuda.so.1");
  std::filesystem::create_symlink(stub, dir + "/libcuda.so.1");
  ScopedEnv env("LD_LIBRARY_PATH", dir);
  CliRun r = run("devices");
  EXPECT_NE(r.out.find("cuda      unavailable: cuInit failed: CUDA_ERROR_STUB_LIBRARY"), std::string::npos) << r.out;
}

TEST(Devices, AnOpenClLoaderWithoutPlatformsSaysSo) {
  ScopedEnv env("OCL_ICD_VENDORS", tempPath("no-vendors"));  // ocl-icd: the folder of .icd files
  CliRun r = run("devices --format=json", "", {true});
  ASSERT_EQ(r.status, 0);
  auto j = nlohmann::json::parse(r.out);
  std::string reason = j["backends"][3]["reason"];
  EXPECT_TRUE(reason.find("no OpenCL ICD loader") != std::string::npos ||
              reason.find("finds no platform") != std::string::npos)
      << reason;
}

TEST(Devices, RunOnADeviceThatCannotRunItIsExitThree) {
  std::string f = write("k.tile", "cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n");
  {
    ScopedEnv env("OCL_ICD_VENDORS", tempPath("no-vendors"));
    CliRun none = run("run " + f + " --device opencl");
    EXPECT_EQ(none.status, 3);
    EXPECT_NE(none.out.find("no device opencl:0: "), std::string::npos) << none.out;
    EXPECT_NE(none.out.find("use --device cpu"), std::string::npos) << none.out;
  }
  CliRun high = run("run " + f + " --device hip:7");
  EXPECT_EQ(high.status, 3);
  EXPECT_NE(high.out.find("no device hip:7"), std::string::npos) << high.out;
  if (run("devices").out.find("cuda      unavailable") != std::string::npos) {  // no NVIDIA GPU here
    CliRun cuda = run("run " + f + " --device cuda");
    EXPECT_EQ(cuda.status, 3);
    EXPECT_NE(cuda.out.find("no device cuda:0: "), std::string::npos) << cuda.out;
  }
  CliRun arch = run("run " + f + " --device cpu --arch sm_90");
  EXPECT_EQ(arch.status, 2);
  EXPECT_NE(arch.out.find("--arch sm_90 applies to cuda and hip devices (this run is on cpu)"), std::string::npos) << arch.out;
  CliRun sanitizeGpu = run("run " + f + " --device opencl --sanitize");
  EXPECT_EQ(sanitizeGpu.status, 2);
  EXPECT_NE(sanitizeGpu.out.find("--sanitize runs on --device cpu only"), std::string::npos) << sanitizeGpu.out;
  EXPECT_EQ(run("run " + f + " --sanitize").status, 0);  // auto under --sanitize: the interpreter
  EXPECT_EQ(run("run " + f + " --device tpu").status, 2);
  EXPECT_EQ(run("run " + f + " --device cuda:x").status, 2);
  EXPECT_EQ(run("run " + f + " --device cpu").status, 0);
  EXPECT_EQ(run("run " + f).status, 0);  // auto: the reference interpreter
}

// A vector add in 4 tile blocks of 256 elements, with a tail the view masks.
constexpr const char* kVadd = R"(cuda_tile.module @m {
  entry @vadd(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>, %n: tile<i32>) {
    %bid, %y, %z = get_tile_block_id : tile<i32>
    %ta = make_tensor_view %a, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tb = make_tensor_view %b, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tc = make_tensor_view %c, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pa = make_partition_view %ta : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %pb = make_partition_view %tb : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %pc = make_partition_view %tc : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %x, %t1 = load_view_tko weak %pa[%bid] : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %w, %t2 = load_view_tko weak %pb[%bid] : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %s = addf %x, %w : tile<256xf32>
    %t3 = store_view_tko weak %s, %pc[%bid] : tile<256xf32>, partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
)";

bool hasOpenClDevice() {
  auto j = nlohmann::json::parse(run("devices --format=json", "", {true}).out);
  for (const auto& d : j["devices"])
    if (d["id"] == "opencl:0") return true;
  return false;
}

TEST(Devices, RunsOnOpenClAndMatchesTheCpuReference) {
  if (!hasOpenClDevice()) GTEST_SKIP() << "no OpenCL device (install-deps installs PoCL: pocl-opencl-icd)";
  std::string f = write("vadd.tile", kVadd);
  std::string out = tempPath("c.npy");
  CliRun r = run("run " + f + " --grid 4 --device opencl --check --arg a=rand:1000:f32 --arg b=rand:1000:f32:7 "
                 "--arg c=zeros:1000:f32 --arg n=1000 --out c=" + out + " --format=json", "", {true});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["device"], "opencl:0");
  EXPECT_GT(j["compile_ms"].get<double>(), 0);
  EXPECT_TRUE(j["diagnostics"].empty()) << j.dump();
  // The same sums as the interpreter's, element for element.
  CliRun cpu = run("run " + f + " --grid 4 --device cpu --arg a=rand:1000:f32 --arg b=rand:1000:f32:7 "
                   "--arg c=zeros:1000:f32 --arg n=1000 --format=json", "", {true});
  auto k = nlohmann::json::parse(cpu.out);
  EXPECT_EQ(j["outputs"][2]["mean"], k["outputs"][2]["mean"]);
  EXPECT_EQ(j["outputs"][2]["max"], k["outputs"][2]["max"]);
}

TEST(Devices, AFaultOnOpenClIsARunFaultNamingTheBlock) {
  if (!hasOpenClDevice()) GTEST_SKIP() << "no OpenCL device (install-deps installs PoCL: pocl-opencl-icd)";
  // Block x divides 7 by d - x: block 1 of 2 divides by zero when d = 1.
  std::string f = write("div.tile", R"(cuda_tile.module @m {
  entry @k(%out: tile<ptr<i32>>, %d: tile<i32>) {
    %x, %y, %z = get_tile_block_id : tile<i32>
    %c = constant <i32: 7> : tile<i32>
    %e = subi %d, %x : tile<i32>
    %q = divi %c, %e signed : tile<i32>
    %t = store_ptr_tko weak %out, %q : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
)");
  CliRun r = run("run " + f + " --grid 2 --device opencl --arg out=zeros:1:i32 --arg d=1 --format=json", "", {true});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["diagnostics"].size(), 1u) << j.dump();
  EXPECT_EQ(j["diagnostics"][0]["code"], "run.fault");
  EXPECT_EQ(j["diagnostics"][0]["message"], "tile block (1, 0, 0): division by zero");
  EXPECT_EQ(run("run " + f + " --grid 2 --device opencl --arg out=zeros:1:i32 --arg d=5").status, 0);
}

TEST(Devices, PrintsOnOpenClAsTheInterpreterDoes) {
  if (!hasOpenClDevice()) GTEST_SKIP() << "no OpenCL device (install-deps installs PoCL: pocl-opencl-icd)";
  // Each of 3 blocks prints its id and a 2x4 tile twice; blocks may interleave, a block's lines keep their order.
  std::string f = write("print.tile", R"(cuda_tile.module @m {
  entry @k() {
    %x, %y, %z = get_tile_block_id : tile<i32>
    %i = iota : tile<8xi32>
    %x1 = reshape %x : tile<i32> -> tile<1xi32>
    %b = broadcast %x1 : tile<1xi32> -> tile<8xi32>
    %s = addi %i, %b : tile<8xi32>
    %t = reshape %s : tile<8xi32> -> tile<2x4xi32>
    %f = itof %t signed : tile<2x4xi32> -> tile<2x4xf16>
    %p1 = print_tko "block %d: %d\0A", %x, %t : tile<i32>, tile<2x4xi32> -> token
    %p2 = print_tko "again %d: %.1f\0A", %x, %f : tile<i32>, tile<2x4xf16> -> token
    return
  }
}
)");
  CliRun gpu = run("run " + f + " --grid 3 --device opencl", "", {true});
  CliRun cpu = run("run " + f + " --grid 3 --device cpu --deterministic", "", {true});
  ASSERT_EQ(gpu.status, 0) << gpu.out << gpu.err;
  auto lines = [](const std::string& text) {
    std::vector<std::string> l;
    for (size_t at = 0, nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1)
      if (text.compare(at, 6, "device") != 0) l.push_back(text.substr(at, nl - at));
    return l;
  };
  std::vector<std::string> g = lines(gpu.out), c = lines(cpu.out);
  ASSERT_EQ(c.size(), 6u) << cpu.out;
  EXPECT_EQ(c[0], "block 0: [[0, 1, 2, 3], [4, 5, 6, 7]]");
  EXPECT_EQ(c[5], "again 2: [[2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0]]");
  for (const char* id : {"0", "1", "2"}) {  // per block, its two lines in program order
    auto first = std::find_if(g.begin(), g.end(), [&](const auto& l) { return l.rfind(std::string("block ") + id, 0) == 0; });
    auto second = std::find_if(g.begin(), g.end(), [&](const auto& l) { return l.rfind(std::string("again ") + id, 0) == 0; });
    ASSERT_TRUE(first != g.end() && second != g.end()) << gpu.out;
    EXPECT_LT(first - g.begin(), second - g.begin()) << gpu.out;
  }
  std::sort(g.begin(), g.end());
  std::sort(c.begin(), c.end());
  EXPECT_EQ(g, c);
}

TEST(Devices, SixteenBitAtomicAddsOnOpenClReplaceOnlyTheirHalfOfAWord) {
  if (!hasOpenClDevice()) GTEST_SKIP() << "no OpenCL device (install-deps installs PoCL: pocl-opencl-icd)";
  // 8 blocks add their id to 4 adjacent f16 and bf16 elements: two per 32-bit word, updated at once.
  std::string body;
  for (std::string t : {"f16", "bf16"}) {
    std::string p = "%out_" + t;
    body += "    %p1_" + t + " = reshape " + p + " : tile<ptr<" + t + ">> -> tile<1xptr<" + t + ">>\n"
            "    %pb_" + t + " = broadcast %p1_" + t + " : tile<1xptr<" + t + ">> -> tile<4xptr<" + t + ">>\n"
            "    %pp_" + t + " = offset %pb_" + t + ", %i : tile<4xptr<" + t + ">>, tile<4xi32> -> tile<4xptr<" + t + ">>\n"
            "    %xf_" + t + " = itof %x signed : tile<i32> -> tile<" + t + ">\n"
            "    %x1_" + t + " = reshape %xf_" + t + " : tile<" + t + "> -> tile<1x" + t + ">\n"
            "    %v_" + t + " = broadcast %x1_" + t + " : tile<1x" + t + "> -> tile<4x" + t + ">\n"
            "    %old_" + t + ", %t_" + t + " = atomic_rmw_tko relaxed device %pp_" + t + ", addf, %v_" + t +
            " : tile<4xptr<" + t + ">>, tile<4x" + t + "> -> tile<4x" + t + ">, token\n";
  }
  std::string f = write("atomic16.tile", "cuda_tile.module @m {\n  entry @k(%out_f16: tile<ptr<f16>>, %out_bf16: tile<ptr<bf16>>) {\n"
                                         "    %x, %y, %z = get_tile_block_id : tile<i32>\n    %i = iota : tile<4xi32>\n" +
                                             body + "    return\n  }\n}\n");
  CliRun r = run("run " + f + " --grid 8 --device opencl --check --arg out_f16=zeros:4:f16 --arg out_bf16=zeros:4:bf16 --format=json",
                 "", {true});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["diagnostics"].empty()) << j.dump();
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(j["outputs"][k]["min"], 28.0) << j.dump();  // 0 + 1 + ... + 7 in every element
    EXPECT_EQ(j["outputs"][k]["max"], 28.0);
  }
}

TEST(Devices, GlobalsAndAllocaOnOpenClHoldWhatTheInterpreterHolds) {
  if (!hasOpenClDevice()) GTEST_SKIP() << "no OpenCL device (install-deps installs PoCL: pocl-opencl-icd)";
  // Each of 4 blocks reads a global table, adds its id, keeps the sum in its alloca scratch and
  // copies it out: out[4 b + i] = table[i] + b.
  std::string f = write("scratch.tile", R"(cuda_tile.module @m {
  global @table <i32: [10, 20, 30, 40]> : tile<4xi32>
  entry @k(%out: tile<ptr<i32>>) {
    %x, %y, %z = get_tile_block_id : tile<i32>
    %g = get_global @table : tile<ptr<i32>>
    %s = alloca num_elem = 4, alignment = 16 : tile<ptr<i32>>
    %i = iota : tile<4xi32>
    %g1 = reshape %g : tile<ptr<i32>> -> tile<1xptr<i32>>
    %gb = broadcast %g1 : tile<1xptr<i32>> -> tile<4xptr<i32>>
    %gp = offset %gb, %i : tile<4xptr<i32>>, tile<4xi32> -> tile<4xptr<i32>>
    %t, %t1 = load_ptr_tko weak %gp : tile<4xptr<i32>> -> tile<4xi32>, token
    %x1 = reshape %x : tile<i32> -> tile<1xi32>
    %xb = broadcast %x1 : tile<1xi32> -> tile<4xi32>
    %v = addi %t, %xb : tile<4xi32>
    %s1 = reshape %s : tile<ptr<i32>> -> tile<1xptr<i32>>
    %sb = broadcast %s1 : tile<1xptr<i32>> -> tile<4xptr<i32>>
    %sp = offset %sb, %i : tile<4xptr<i32>>, tile<4xi32> -> tile<4xptr<i32>>
    %t2 = store_ptr_tko weak %sp, %v : tile<4xptr<i32>>, tile<4xi32> -> token
    %w, %t3 = load_ptr_tko weak %sp token = %t2 : tile<4xptr<i32>> -> tile<4xi32>, token
    %four = constant <i32: 4> : tile<i32>
    %base = muli %x, %four : tile<i32>
    %b1 = reshape %base : tile<i32> -> tile<1xi32>
    %bb = broadcast %b1 : tile<1xi32> -> tile<4xi32>
    %oi = addi %bb, %i : tile<4xi32>
    %o1 = reshape %out : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %o1 : tile<1xptr<i32>> -> tile<4xptr<i32>>
    %op = offset %ob, %oi : tile<4xptr<i32>>, tile<4xi32> -> tile<4xptr<i32>>
    %t4 = store_ptr_tko weak %op, %w : tile<4xptr<i32>>, tile<4xi32> -> token
    return
  }
}
)");
  std::string out = tempPath("scratch.npy");
  CliRun r = run("run " + f + " --grid 4 --device opencl --check --arg out=zeros:16:i32 --format=json --out out=" + out, "", {true});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["diagnostics"].empty()) << j.dump();
  EXPECT_EQ(j["outputs"][0]["min"], 10.0);
  EXPECT_EQ(j["outputs"][0]["max"], 43.0);
  EXPECT_EQ(j["outputs"][0]["mean"], 26.5);  // (10+20+30+40)/4 + (0+1+2+3)/4
}

TEST(Emit, PrintsOneTranslationUnitPerTargetOrSaysWhyNot) {
  std::string f = write("vadd.tile", kVadd);
  CliRun cuda = run("emit " + f + " --target cuda --arch sm_90", "", {true});
  ASSERT_EQ(cuda.status, 0) << cuda.err;
  EXPECT_NE(cuda.out.find("// Architecture: sm_90"), std::string::npos);
  EXPECT_NE(cuda.out.find("extern \"C\" __global__ void __launch_bounds__(256) vadd("), std::string::npos) << cuda.out;
  EXPECT_NE(cuda.out.find("Arguments, in order: %a (device pointer), %b (device pointer), %c (device pointer), %n (ts_i32)"),
            std::string::npos) << cuda.out;
  CliRun cl = run("emit " + f + " --target opencl", "", {true});
  EXPECT_NE(cl.out.find("__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void vadd("), std::string::npos);
  CliRun hip = run("emit " + f + " --target hip", "", {true});
  EXPECT_NE(hip.out.find("#pragma clang fp contract(off)"), std::string::npos);
  EXPECT_EQ(run("emit " + f).status, 2);
  EXPECT_EQ(run("emit " + f + " --target metal").status, 2);
  CliRun missing = run("emit " + tempPath("nope.tile") + " --target cuda");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("tilesight emit: cannot read"), std::string::npos) << missing.out;
  EXPECT_EQ(run("emit " + f + " --target cuda --entry nope").status, 2);
  // An op the lowering does not handle: exit 3, naming it and its line.
  std::string p = write("up.tile", "cuda_tile.module @m {\n  entry @k(%a: tile<f32>) {\n    %s = fma %a, %a, %a rounding<positive_inf> : tile<f32>\n    return\n  }\n}\n");
  CliRun un = run("emit " + p + " --target cuda");
  EXPECT_EQ(un.status, 3);
  EXPECT_NE(un.out.find("line 3: the SIMT lowering does not handle directed rounding ('positive_inf') in this op yet"), std::string::npos) << un.out;
  EXPECT_EQ(run("run " + p + " --device opencl --arg a=1").status, 3);  // not lowered, or no device
  std::string o = tempPath("k.cl");
  EXPECT_EQ(run("emit " + f + " --target opencl -o " + o).status, 0);
  EXPECT_TRUE(std::filesystem::file_size(o) > 1000);
}

}  // namespace
}  // namespace tilesight::clitest
