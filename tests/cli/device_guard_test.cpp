// `run --device opencl`'s guard (issue 33): an access outside every buffer
// of the run is a run.fault with the tile block, the lane and the address,
// never a write into the host's memory; `--no-guard` turns it off. Pointers
// to 4-bit elements run on a device as on the cpu, and a refusal of the
// lowering names the line of what it refuses. The OpenCL tests skip with
// their reason where there is no OpenCL device (PoCL).
#include <filesystem>
#include <regex>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_util.h"

namespace tilesight::clitest {
namespace {

bool hasOpenClDevice() {
  auto j = nlohmann::json::parse(run("devices --format=json", "", {true}).out);
  for (const auto& d : j["devices"])
    if (d["id"] == "opencl:0") return true;
  return false;
}

#define REQUIRE_OPENCL() \
  if (!hasOpenClDevice()) GTEST_SKIP() << "no OpenCL device (install-deps installs PoCL: pocl-opencl-icd)"

// Lane k of 32 stores k to out[k + d]: with out shorter than 32 + d, a scatter past the buffer.
const char* const kScatter = R"(cuda_tile.module @m {
  entry @scatter(%out: tile<ptr<i32>>, %d: tile<i64>) {
    %p1 = reshape %out : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pb = broadcast %p1 : tile<1xptr<i32>> -> tile<32xptr<i32>>
    %i = iota : tile<32xi64>
    %d1 = reshape %d : tile<i64> -> tile<1xi64>
    %db = broadcast %d1 : tile<1xi64> -> tile<32xi64>
    %o = addi %i, %db : tile<32xi64>
    %pp = offset %pb, %o : tile<32xptr<i32>>, tile<32xi64> -> tile<32xptr<i32>>
    %v = trunci %i : tile<32xi64> -> tile<32xi32>
    %t = store_ptr_tko weak %pp, %v : tile<32xptr<i32>>, tile<32xi32> -> token
    return
  }
}
)";

// The run.fault diagnostics of a JSON report.
std::vector<std::string> faults(const CliRun& r) {
  std::vector<std::string> out;
  auto j = nlohmann::json::parse(r.out);
  for (const auto& d : j["diagnostics"])
    if (d["code"] == "run.fault") out.push_back(d["message"].get<std::string>() + " @" + std::to_string(d["line"].get<int>()));
  return out;
}

TEST(DeviceGuard, AScatterPastTheBufferIsARunFaultWithTheLaneAndTheAddress) {
  REQUIRE_OPENCL();
  std::string f = write("scatter.tile", kScatter);
  std::string out = tempPath("out.npy");
  // 31 elements: lane 31 alone is outside, so the record is the same on every run.
  CliRun r = run("run " + f + " --device opencl --arg out=zeros:31:i32 --arg d=0 --format=json --out out=" + out, "", {true});
  ASSERT_EQ(r.status, 1) << r.out << r.err;
  std::vector<std::string> got = faults(r);
  ASSERT_EQ(got.size(), 1u) << r.out;
  EXPECT_EQ(got[0], "tile block (0, 0, 0): a store of 4 bytes at %out + 124 bytes (the buffer has 124) is outside every "
                    "buffer of the run (lane [31]); the device's guard skipped it @11");
  // The other lanes stored; the buffer's file holds its 31 elements and no more.
  EXPECT_EQ(std::filesystem::file_size(out), 128u + 31 * 4);
  // The interpreter reports the same access.
  CliRun cpu = run("run " + f + " --device cpu --arg out=zeros:31:i32 --arg d=0 --format=json", "", {true});
  EXPECT_EQ(cpu.status, 1) << cpu.out;
  ASSERT_EQ(faults(cpu).size(), 1u) << cpu.out;
  EXPECT_NE(faults(cpu)[0].find("a store of 4 bytes at %out + 124 bytes (the buffer has 124) is outside every buffer"),
            std::string::npos) << cpu.out;
  // Inside the buffer: no fault.
  EXPECT_EQ(run("run " + f + " --device opencl --arg out=zeros:32:i32 --arg d=0").status, 0);
}

TEST(DeviceGuard, AFarIndexIsARunFaultNotACrash) {
  REQUIRE_OPENCL();
  std::string f = write("scatter.tile", kScatter);
  for (const char* d : {"1099511627776", "-1099511627776"}) {
    CliRun r = run("run " + f + " --device opencl --arg out=zeros:32:i32 --arg d=" + d + " --format=json", "", {true});
    ASSERT_EQ(r.status, 1) << d << ": " << r.out << r.err;
    std::vector<std::string> got = faults(r);
    ASSERT_EQ(got.size(), 1u) << r.out;
    EXPECT_TRUE(std::regex_search(got[0], std::regex("^tile block \\(0, 0, 0\\): a store of 4 bytes at no buffer \\(0x[0-9a-f]+\\) "
                                                     "is outside every buffer of the run \\(lane \\[[0-9]+\\]\\); the device's guard skipped it @11$")))
        << got[0];
  }
}

TEST(DeviceGuard, ANegativeStrideIsARunFaultOnTheDeviceAsOnTheCpu) {
  REQUIRE_OPENCL();
  std::string f = write("stride.tile", R"(cuda_tile.module @m {
  entry @reversed(%out: tile<ptr<i32>>, %s: tile<i32>) {
    %tv = make_tensor_view %out, shape=[32], strides=[%s] : tile<i32> -> tensor_view<32xi32, strides=[?]>
    %pv = make_partition_view %tv : partition_view<tile=(32), tensor_view<32xi32, strides=[?]>>
    %c0 = constant <i32: 0> : tile<i32>
    %i = iota : tile<32xi32>
    %t = store_view_tko weak %i, %pv[%c0] : tile<32xi32>, partition_view<tile=(32), tensor_view<32xi32, strides=[?]>>, tile<i32> -> token
    return
  }
}
)");
  for (const char* device : {"opencl", "cpu"}) {
    CliRun r = run("run " + f + " --device " + device + " --arg out=zeros:32:i32 --arg s=-1 --format=json", "", {true});
    ASSERT_EQ(r.status, 1) << device << ": " << r.out << r.err;
    std::vector<std::string> got = faults(r);
    ASSERT_EQ(got.size(), 1u) << r.out;
    EXPECT_EQ(got[0].rfind("tile block (0, 0, 0): a store of 4 bytes at ", 0), 0u) << got[0];
    EXPECT_NE(got[0].find(" is outside every buffer of the run"), std::string::npos) << got[0];
    EXPECT_EQ(got[0].substr(got[0].size() - 3), " @7") << got[0];
  }
  EXPECT_EQ(run("run " + f + " --device opencl --arg out=zeros:32:i32 --arg s=1").status, 0);
}

TEST(DeviceGuard, NoGuardLeavesTheChecksOutOfTheKernel) {
  std::string f = write("scatter.tile", kScatter);
  CliRun guarded = run("emit " + f + " --target opencl", "", {true});
  ASSERT_EQ(guarded.status, 0) << guarded.err;
  EXPECT_NE(guarded.out.find("__global ts_u64* ts_guard, __global ts_i32* ts_status)"), std::string::npos) << guarded.out;
  EXPECT_NE(guarded.out.find("if (ts_guarded(ts_guard, "), std::string::npos) << guarded.out;
  CliRun bare = run("emit " + f + " --target opencl --no-guard", "", {true});
  ASSERT_EQ(bare.status, 0) << bare.err;
  EXPECT_EQ(bare.out.find("ts_guard,"), std::string::npos) << bare.out;
  EXPECT_EQ(bare.out.find("ts_guarded(ts_guard"), std::string::npos) << bare.out;
  if (!hasOpenClDevice()) GTEST_SKIP() << "no OpenCL device (install-deps installs PoCL: pocl-opencl-icd)";
  EXPECT_EQ(run("run " + f + " --device opencl --no-guard --arg out=zeros:32:i32 --arg d=0").status, 0);
}

// 64 f4E2M1FN elements through pointers: widened to f32, and halved back into f4 (a nibble store per lane).
const char* const kF4 = R"(cuda_tile.module @m {
  entry @f4(%src: tile<ptr<f4E2M1FN>>, %dst: tile<ptr<f4E2M1FN>>, %wide: tile<ptr<f32>>) {
    %i = iota : tile<64xi32>
    %s1 = reshape %src : tile<ptr<f4E2M1FN>> -> tile<1xptr<f4E2M1FN>>
    %sb = broadcast %s1 : tile<1xptr<f4E2M1FN>> -> tile<64xptr<f4E2M1FN>>
    %sp = offset %sb, %i : tile<64xptr<f4E2M1FN>>, tile<64xi32> -> tile<64xptr<f4E2M1FN>>
    %x, %t1 = load_ptr_tko weak %sp : tile<64xptr<f4E2M1FN>> -> tile<64xf4E2M1FN>, token
    %w = ftof %x : tile<64xf4E2M1FN> -> tile<64xf32>
    %w1 = reshape %wide : tile<ptr<f32>> -> tile<1xptr<f32>>
    %wb = broadcast %w1 : tile<1xptr<f32>> -> tile<64xptr<f32>>
    %wp = offset %wb, %i : tile<64xptr<f32>>, tile<64xi32> -> tile<64xptr<f32>>
    %t2 = store_ptr_tko weak %wp, %w : tile<64xptr<f32>>, tile<64xf32> -> token
    %half = constant <f32: 0.5> : tile<64xf32>
    %h = mulf %w, %half : tile<64xf32>
    %y = ftof %h : tile<64xf32> -> tile<64xf4E2M1FN>
    %d1 = reshape %dst : tile<ptr<f4E2M1FN>> -> tile<1xptr<f4E2M1FN>>
    %db = broadcast %d1 : tile<1xptr<f4E2M1FN>> -> tile<64xptr<f4E2M1FN>>
    %dp = offset %db, %i : tile<64xptr<f4E2M1FN>>, tile<64xi32> -> tile<64xptr<f4E2M1FN>>
    %t3 = store_ptr_tko weak %dp, %y : tile<64xptr<f4E2M1FN>>, tile<64xf4E2M1FN> -> token
    return
  }
}
)";

// A block-scaled f4 matrix product written in Tile IR on f4 tensor views: 16x64 by 64x16, an
// f8E8M0FNU scale per 32 elements along K.
const char* const kScaledF4 = R"(cuda_tile.module @m {
  entry @mm(%x: tile<ptr<f4E2M1FN>>, %xs: tile<ptr<f8E8M0FNU>>, %y: tile<ptr<f4E2M1FN>>, %ys: tile<ptr<f8E8M0FNU>>, %z: tile<ptr<f32>>) {
    %c0 = constant <i32: 0> : tile<i32>
    %xt = make_tensor_view %x, shape = [16, 64], strides = [64, 1] : tensor_view<16x64xf4E2M1FN, strides=[64,1]>
    %xp = make_partition_view %xt : partition_view<tile=(16x64), tensor_view<16x64xf4E2M1FN, strides=[64,1]>>
    %a, %t1 = load_view_tko weak %xp[%c0, %c0] : partition_view<tile=(16x64), tensor_view<16x64xf4E2M1FN, strides=[64,1]>>, tile<i32> -> tile<16x64xf4E2M1FN>, token
    %xst = make_tensor_view %xs, shape = [16, 2], strides = [2, 1] : tensor_view<16x2xf8E8M0FNU, strides=[2,1]>
    %xsp = make_partition_view %xst : partition_view<tile=(16x2), tensor_view<16x2xf8E8M0FNU, strides=[2,1]>>
    %as, %t2 = load_view_tko weak %xsp[%c0, %c0] : partition_view<tile=(16x2), tensor_view<16x2xf8E8M0FNU, strides=[2,1]>>, tile<i32> -> tile<16x2xf8E8M0FNU>, token
    %yt = make_tensor_view %y, shape = [64, 16], strides = [16, 1] : tensor_view<64x16xf4E2M1FN, strides=[16,1]>
    %yp = make_partition_view %yt : partition_view<tile=(64x16), tensor_view<64x16xf4E2M1FN, strides=[16,1]>>
    %b, %t3 = load_view_tko weak %yp[%c0, %c0] : partition_view<tile=(64x16), tensor_view<64x16xf4E2M1FN, strides=[16,1]>>, tile<i32> -> tile<64x16xf4E2M1FN>, token
    %yst = make_tensor_view %ys, shape = [2, 16], strides = [16, 1] : tensor_view<2x16xf8E8M0FNU, strides=[16,1]>
    %ysp = make_partition_view %yst : partition_view<tile=(2x16), tensor_view<2x16xf8E8M0FNU, strides=[16,1]>>
    %bs, %t4 = load_view_tko weak %ysp[%c0, %c0] : partition_view<tile=(2x16), tensor_view<2x16xf8E8M0FNU, strides=[16,1]>>, tile<i32> -> tile<2x16xf8E8M0FNU>, token
    %acc = constant <f32: 0.0> : tile<16x16xf32>
    %r = mmaf_scaled %a, %b, %acc, %as, %bs : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    %zt = make_tensor_view %z, shape = [16, 16], strides = [16, 1] : tensor_view<16x16xf32, strides=[16,1]>
    %zp = make_partition_view %zt : partition_view<tile=(16x16), tensor_view<16x16xf32, strides=[16,1]>>
    %t5 = store_view_tko weak %r, %zp[%c0, %c0] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<16x16xf32, strides=[16,1]>>, tile<i32> -> token
    return
  }
}
)";

TEST(DeviceFourBit, PointersToF4ElementsRunOnOpenClAsOnTheCpu) {
  std::string f = write("f4.tile", kF4);
  CliRun cuda = run("emit " + f + " --target cuda", "", {true});
  ASSERT_EQ(cuda.status, 0) << cuda.out << cuda.err;
  EXPECT_NE(cuda.out.find("ts_st4("), std::string::npos) << cuda.out;
  REQUIRE_OPENCL();
  std::string dst = tempPath("dst.npy"), wide = tempPath("wide.npy");
  CliRun r = run("run " + f + " --device opencl --check --arg src=rand:64:f4E2M1FN:3 --arg dst=zeros:64:f4E2M1FN "
                 "--arg wide=zeros:64:f32 --format=json --out dst=" + dst + " --out wide=" + wide, "", {true});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["diagnostics"].empty()) << j.dump();
  for (const auto& o : j["outputs"]) EXPECT_EQ(o["max_error"], 0.0) << o.dump();
  // Not all zeros: the random f4 values made it through both ways.
  EXPECT_NE(j["outputs"][2]["max"], 0.0) << j.dump();
  EXPECT_NE(j["outputs"][1]["min"], j["outputs"][1]["max"]) << j.dump();
}

TEST(DeviceFourBit, ABlockScaledF4MatrixProductRunsOnOpenClAsOnTheCpu) {
  std::string f = write("mm.tile", kScaledF4);
  REQUIRE_OPENCL();
  CliRun r = run("run " + f + " --device opencl --check --arg x=rand:16x64:f4E2M1FN:1 --arg xs=rand:16x2:f8E8M0FNU:2 "
                 "--arg y=rand:64x16:f4E2M1FN:3 --arg ys=rand:2x16:f8E8M0FNU:4 --arg z=zeros:16x16:f32 --format=json", "", {true});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["diagnostics"].empty()) << j.dump();
  EXPECT_EQ(j["outputs"][4]["max_error"], 0.0) << j.dump();
  EXPECT_NE(j["outputs"][4]["min"], j["outputs"][4]["max"]) << j.dump();
}

TEST(LoweringRefusal, NamesTheLineOfTheArgumentItRefuses) {
  // The i4 argument is on line 3; the refusal used to name line 1.
  std::string f = write("i4.tile", "cuda_tile.module @m {\n  entry @k(%out: tile<ptr<i32>>,\n           %a: tile<i4>) {\n    return\n  }\n}\n");
  CliRun r = run("emit " + f + " --target cuda", "", {true});
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_NE(r.err.find(": line 3: the SIMT lowering does not handle element type i4 yet"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tilesight::clitest
