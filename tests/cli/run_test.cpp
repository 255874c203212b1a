// `tilesight run` (DESIGN §3): outputs, exit statuses, argument errors, the
// sanitizer's findings, against the real executable.
#include <nlohmann/json.hpp>

#include "tests/cli/cli_util.h"

namespace tilesight::clitest {
namespace {

// out[i] = a[i] + b[i] over 64 elements, 16 per tile block.
const char* kVecAdd = R"(cuda_tile.module @m {
  entry @add(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %out: tile<ptr<f32>>) {
    %ta = make_tensor_view %a, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %tb = make_tensor_view %b, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %to = make_tensor_view %out, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %va = make_partition_view %ta : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %vb = make_partition_view %tb : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %vo = make_partition_view %to : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %x, %t1 = load_view_tko weak %va[%bx] : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %y, %t2 = load_view_tko weak %vb[%bx] : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %s = addf %x, %y : tile<16xf32>
    %t3 = store_view_tko weak %s, %vo[%bx] : tile<16xf32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
)";

TEST(Run, RunsOnTheCpuAndReportsEveryBuffer) {
  std::string f = write("add.tile", kVecAdd);
  CliRun r = run("run " + f + " --grid 4 --arg a=zeros:64:f32 --arg b=rand:64:f32:1 --arg out=zeros:64:f32 --format=json",
                 "", {true});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["device"], "cpu");
  EXPECT_EQ(j["entry"], "@add");
  EXPECT_EQ(j["grid"], nlohmann::json::array({4, 1, 1}));
  ASSERT_EQ(j["outputs"].size(), 3u);
  // out = 0 + b: the same statistics as b.
  EXPECT_EQ(j["outputs"][2]["name"], "out");
  EXPECT_EQ(j["outputs"][2]["dtype"], "f32");
  EXPECT_EQ(j["outputs"][2]["mean"], j["outputs"][1]["mean"]);
  EXPECT_EQ(j["outputs"][2]["max"], j["outputs"][1]["max"]);
  EXPECT_TRUE(j["diagnostics"].empty());
}

TEST(Run, WritesOutputsAsNpy) {
  std::string f = write("add.tile", kVecAdd), out = tempPath("out.npy");
  CliRun r = run("run " + f + " --grid 4 --arg a=rand:64:f32:2 --arg b=rand:64:f32:2 --arg out=zeros:64:f32 --out out=" + out);
  ASSERT_EQ(r.status, 0) << r.out;
  std::string bytes = readFile(out);
  ASSERT_GE(bytes.size(), 64u + 64 * 4);
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  EXPECT_NE(bytes.find("'descr': '<f4'"), std::string::npos) << bytes.substr(0, 80);
  EXPECT_NE(bytes.find("(64,)"), std::string::npos);
}

TEST(Run, BadInputIsExitTwoWithTheReason) {
  std::string f = write("add.tile", kVecAdd);
  CliRun missing = run("run " + f + " --arg a=zeros:64:f32 --arg b=zeros:64:f32");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("no value for argument %out (!cuda_tile.tile<ptr<f32>>), a pointer to f32"), std::string::npos)
      << missing.out;
  CliRun dtype = run("run " + f + " --arg a=zeros:64:f16 --arg b=zeros:64:f32 --arg out=zeros:64:f32");
  EXPECT_EQ(dtype.status, 2);
  EXPECT_NE(dtype.out.find("the argument points to f32"), std::string::npos) << dtype.out;
  CliRun small = run("run " + f + " --arg a=zeros:32:f32 --arg b=zeros:64:f32 --arg out=zeros:64:f32");
  EXPECT_EQ(small.status, 2);
  EXPECT_NE(small.out.find("holds 32 f32 elements, but the tensor_view made over it"), std::string::npos) << small.out;
  CliRun entry = run("run " + f + " --entry nope");
  EXPECT_EQ(entry.status, 2);
  EXPECT_NE(entry.out.find("no entry @nope (the file has @add)"), std::string::npos) << entry.out;
  CliRun grid = run("run " + f + " --grid 0,1");
  EXPECT_EQ(grid.status, 2);
  std::string viewArg = write("view.tile", "cuda_tile.module @m {\n  entry @k(%v: !cuda_tile.tensor_view<4xf32, strides=[1]>) {\n    return\n  }\n}\n");
  CliRun view = run("run " + viewArg + " --arg v=3");
  EXPECT_EQ(view.status, 2);
  EXPECT_NE(view.out.find("is not a scalar tile"), std::string::npos) << view.out;
  CliRun device = run("run " + f + " --device cuda --arg a=zeros:64:f32 --arg b=zeros:64:f32 --arg out=zeros:64:f32");
  EXPECT_EQ(device.status, 3);
  EXPECT_NE(device.out.find("use --device cpu"), std::string::npos) << device.out;
}

// cuTile's List[Array]: %xs points to one row of words per array (byte
// address, shape, stride); block b doubles the 8 f32 elements of array b.
const char* kDoubleEach = R"(cuda_tile.module @m {
  entry @k(%xs: tile<ptr<i64>>, %n: tile<i32>) {
    %lt = make_tensor_view %xs, shape = [%n, 3], strides = [3, 1] : tile<i32> -> tensor_view<?x3xi64, strides=[3,1]>
    %lv = make_partition_view %lt : partition_view<tile=(1x4), tensor_view<?x3xi64, strides=[3,1]>>
    %b, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %row, %t0 = load_view_tko weak %lv[%b, %c0] : partition_view<tile=(1x4), tensor_view<?x3xi64, strides=[3,1]>>, tile<i32> -> tile<1x4xi64>, token
    %w0 = extract %row[%c0, %c0] : tile<1x4xi64> -> tile<1x1xi64>
    %base = reshape %w0 : tile<1x1xi64> -> tile<i64>
    %w1 = extract %row[%c0, %c1] : tile<1x4xi64> -> tile<1x1xi64>
    %s64 = reshape %w1 : tile<1x1xi64> -> tile<i64>
    %s = trunci %s64 : tile<i64> -> tile<i32>
    %p = int_to_ptr %base : tile<i64> -> tile<ptr<f32>>
    %tv = make_tensor_view %p, shape = [%s], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(8), tensor_view<?xf32, strides=[1]>>
    %x, %t1 = load_view_tko weak %pv[%c0] : partition_view<tile=(8), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<8xf32>, token
    %y = addf %x, %x : tile<8xf32>
    %t2 = store_view_tko weak %y, %pv[%c0] token = %t1 : tile<8xf32>, partition_view<tile=(8), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
)";

TEST(Run, AListOfArraysIsOneBufferEachAndATableOfTheirWords) {
  std::string f = write("list.tile", kDoubleEach), out = tempPath("item1.npy");
  CliRun r = run("run " + f + " --grid 2 --arg xs=list:rand:8:f32:1,rand:8:f32:1 --arg n=2 --format=json --out xs[1]=" + out,
                 "", {true});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  // Each array is an output of its own, NAME[K]; the table of words is not.
  ASSERT_EQ(j["outputs"].size(), 2u) << r.out;
  EXPECT_EQ(j["outputs"][0]["name"], "xs[0]");
  EXPECT_EQ(j["outputs"][1]["name"], "xs[1]");
  EXPECT_EQ(j["outputs"][1]["shape"], nlohmann::json::array({8}));
  // Both start as the same rand: values and both are doubled (block 1 reaches array 1).
  EXPECT_EQ(j["outputs"][0]["max"], j["outputs"][1]["max"]);
  CliRun once = run("run " + f + " --grid 1 --arg xs=list:rand:8:f32:1,rand:8:f32:1 --arg n=2 --format=json", "", {true});
  auto k = nlohmann::json::parse(once.out);
  EXPECT_NE(k["outputs"][0]["max"], k["outputs"][1]["max"]) << "grid 1 doubles array 0 only";
  EXPECT_EQ(k["outputs"][1]["max"].get<double>() * 2, j["outputs"][1]["max"].get<double>());
  EXPECT_EQ(readFile(out).substr(0, 6), "\x93NUMPY");
  EXPECT_NE(readFile(out).find("(8,)"), std::string::npos);
  CliRun rank = run("run " + f + " --arg xs=list:zeros:8:f32,zeros:2x4:f32 --arg n=2");
  EXPECT_EQ(rank.status, 2);
  EXPECT_NE(rank.out.find("the arrays of a list share one rank"), std::string::npos) << rank.out;
  CliRun notList = run("run " + write("add.tile", kVecAdd) +
                       " --arg a=list:zeros:8:f32 --arg b=zeros:64:f32 --arg out=zeros:64:f32");
  EXPECT_EQ(notList.status, 2);
  EXPECT_NE(notList.out.find("a list of arrays, which cuTile passes as a pointer to i64 words"), std::string::npos)
      << notList.out;
  CliRun badItem = run("run " + f + " --arg xs=list:zeros:8:f32,ones:8:f32 --arg n=2");
  EXPECT_EQ(badItem.status, 2);
  EXPECT_NE(badItem.out.find("'ones:8:f32' is no buffer for argument %xs"), std::string::npos) << badItem.out;
  CliRun noItem = run("run " + f + " --grid 1 --arg xs=list:zeros:8:f32 --arg n=1 --out xs[3]=" + out);
  EXPECT_EQ(noItem.status, 2);
  EXPECT_NE(noItem.out.find("nor a list with that item"), std::string::npos) << noItem.out;
}

// A .npy file as NumPy writes it (version 1.0, the header padded to 64 bytes).
std::string npyFile(const std::string& dict, const std::string& data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

// What NumPy users pass: uint8 data for an i8 pointer (the same bits) and a
// transposed array (np.save of a.T writes Fortran order): both run as their
// bytes are, and --out writes them back the way they came.
TEST(Run, UnsignedAndFortranOrderArraysRunAsTheirBytes) {
  std::string f = write("u8.tile", R"(cuda_tile.module @m {
  entry @k(%p: tile<ptr<i8>>, %q: tile<ptr<f32>>) {
    %tv = make_tensor_view %p, shape = [4], strides = [1] : tensor_view<4xi8, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(4), tensor_view<4xi8, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %x, %t = load_view_tko weak %pv[%c0] : partition_view<tile=(4), tensor_view<4xi8, strides=[1]>>, tile<i32> -> tile<4xi8>, token
    %one = constant <i8: 1> : tile<4xi8>
    %y = addi %x, %one : tile<4xi8>
    %t2 = store_view_tko weak %y, %pv[%c0] token = %t : tile<4xi8>, partition_view<tile=(4), tensor_view<4xi8, strides=[1]>>, tile<i32> -> token
    %qt = make_tensor_view %q, shape = [2, 3], strides = [1, 2] : tensor_view<2x3xf32, strides=[1,2]>
    %qv = make_partition_view %qt : partition_view<tile=(2x4), tensor_view<2x3xf32, strides=[1,2]>>
    %z, %t3 = load_view_tko weak %qv[%c0, %c0] : partition_view<tile=(2x4), tensor_view<2x3xf32, strides=[1,2]>>, tile<i32> -> tile<2x4xf32>, token
    %w = addf %z, %z : tile<2x4xf32>
    %t4 = store_view_tko weak %w, %qv[%c0, %c0] token = %t3 : tile<2x4xf32>, partition_view<tile=(2x4), tensor_view<2x3xf32, strides=[1,2]>>, tile<i32> -> token
    return
  }
}
)");
  std::string u8 = write("u8.npy", npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (4,), }",
                                           std::string("\x01\xFE\xFF\x07", 4)));
  std::string floats;  // column-major (2, 3): 0 1 / 2 3 / 4 5 in memory = [[0, 2, 4], [1, 3, 5]]
  for (float v : {0.f, 1.f, 2.f, 3.f, 4.f, 5.f}) floats.append(reinterpret_cast<const char*>(&v), 4);
  std::string fo = write("f.npy", npyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", floats));
  std::string pOut = tempPath("u8.out.npy"), qOut = tempPath("f.out.npy");
  CliRun r = run("run " + f + " --arg p=@" + u8 + " --arg q=@" + fo + " --out p=" + pOut + " --out q=" + qOut);
  ASSERT_EQ(r.status, 0) << r.out;
  std::string p = readFile(pOut), q = readFile(qOut);
  EXPECT_NE(p.find("'descr': '|u1'"), std::string::npos) << p.substr(0, 64);
  EXPECT_EQ(p.substr(p.size() - 4), std::string("\x02\xFF\x00\x08", 4));  // 254 + 1, 255 + 1 wraps
  EXPECT_NE(q.find("'fortran_order': True"), std::string::npos);
  std::string doubled;
  for (float v : {0.f, 2.f, 4.f, 6.f, 8.f, 10.f}) doubled.append(reinterpret_cast<const char*>(&v), 4);
  EXPECT_EQ(q.substr(q.size() - 24), doubled);
  CliRun wrong = run("run " + f + " --arg p=@" + fo + " --arg q=@" + fo);
  EXPECT_EQ(wrong.status, 2);
  EXPECT_NE(wrong.out.find("holds '<f4' elements, but the argument points to i8"), std::string::npos) << wrong.out;
}

// zeros:/rand: with a NumPy dtype take the shape of that NumPy array: 8
// bytes of |u1 are 16 f4E2M1FN values, as an 8-byte .npy file is.
TEST(Run, ANumpyDtypeShapeCountsItsBytesForFourBitElements) {
  std::string f = write("f4.tile", R"(cuda_tile.module @m {
  entry @k(%z: tile<ptr<f4E2M1FN>>) {
    %zv = make_tensor_view %z, shape = [16], strides = [1] : tensor_view<16xf4E2M1FN, strides=[1]>
    %zp = make_partition_view %zv : partition_view<tile=(16), tensor_view<16xf4E2M1FN, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %v = constant <f4E2M1FN: 1.000000e+00> : tile<16xf4E2M1FN>
    %t = store_view_tko weak %v, %zp[%c0] : tile<16xf4E2M1FN>, partition_view<tile=(16), tensor_view<16xf4E2M1FN, strides=[1]>>, tile<i32> -> token
    return
  }
}
)");
  std::string out = tempPath("f4.npy");
  CliRun bytes = run("run " + f + " --arg z=zeros:8:u1 --out z=" + out);
  ASSERT_EQ(bytes.status, 0) << bytes.out;
  std::string npy = readFile(out);
  EXPECT_NE(npy.find("(8,)"), std::string::npos) << npy.substr(0, 80);  // written back as the 8 bytes it came as
  EXPECT_EQ(npy.substr(npy.size() - 8), std::string(8, '\x22'));      // 1.0 is 0b0010 in both nibbles
  CliRun elements = run("run " + f + " --arg z=zeros:8:f4E2M1FN");
  EXPECT_EQ(elements.status, 2) << "8 f4E2M1FN elements are too few for the 16-element view";
}

TEST(Run, ALoopPastTheIterationLimitStopsTheRun) {
  // A counter that never meets its exit: each iteration differs, so only the limit stops it.
  std::string f = write("spin.tile", R"(cuda_tile.module @m {
  entry @k() {
    %z = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %r = loop iter_values(%i = %z) : tile<i32> -> tile<i32> {
      %n = addi %i, %one : tile<i32>
      continue %n : tile<i32>
    }
    return
  }
}
)");
  CliRun r = run("run " + f + " --max-loop-iterations 1000", "", {false, 20});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("the loop ran 1000 iterations without a break"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[run.fault]"), std::string::npos);
}

// A lock that block 0 takes and never releases: block 1's spin changes
// nothing and nothing else runs, so the run says so at once (it spun 2^32
// times, hours, before).
TEST(Run, ASpinNothingCanEndStopsAtOnce) {
  std::string f = write("deadlock.tile", R"(cuda_tile.module @m {
  entry @k(%lock: tile<ptr<i32>>) {
    %z = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    loop {
      %old, %t = atomic_cas_tko relaxed device %lock, %z, %one : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
      %free = cmpi equal %old, %z, signed : tile<i32> -> tile<i1>
      if %free {
        break
      }
      continue
    }
    return
  }
}
)");
  // One block at a time in grid order, block 1 spins from its first iteration;
  // with threads, whichever block lost the lock, once the other has finished.
  for (const char* how : {" --deterministic", " --sanitize"}) {
    CliRun r = run("run " + f + " --grid 2 --arg lock=zeros:1:i32" + how, "", {false, 20});
    EXPECT_EQ(r.status, 1) << how;
    EXPECT_NE(r.out.find("error: tile block (1, 0, 0): the loop can never end: iteration 1 wrote no memory"),
              std::string::npos)
        << how << r.out;
  }
  for (const char* how : {"", " --threads 4"}) {
    CliRun r = run("run " + f + " --grid 2 --arg lock=zeros:1:i32" + how, "", {false, 20});
    EXPECT_EQ(r.status, 1) << how;
    EXPECT_NE(r.out.find("the loop can never end: iteration "), std::string::npos) << how << r.out;
    EXPECT_NE(r.out.find(" wrote no memory and passed its iter_values on unchanged"), std::string::npos) << how << r.out;
  }
}

TEST(Run, RepeatsFromTheSameInputs) {
  // An atomic add of 1 per block: every repetition starts from zeros, so
  // after 3 repetitions of 4 blocks the counter is 4, not 12.
  std::string f = write("count.tile", R"(cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>) {
    %one = constant <i32: 1> : tile<i32>
    %old, %t = atomic_rmw_tko relaxed device %p, add, %one : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    return
  }
}
)");
  for (const char* mode : {"--threads 2", "--deterministic"}) {
    CliRun r = run("run " + f + " --grid 4 --arg p=zeros:1:i32 --repeat 3 --format=json " + mode, "", {true});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["outputs"][0]["max"], 4.0) << mode;
    EXPECT_GE(j["run_ms"].get<double>(), 0.0);
  }
}

TEST(Run, AProgramWithErrorsDoesNotRun) {
  std::string f = write("bad.tile", "cuda_tile.module @m {\n  entry @k() {\n    %x = addi\n    return\n  }\n}\n");
  CliRun r = run("run " + f);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("[syntax]"), std::string::npos) << r.out;
}

TEST(Run, AnIndexOutsideTheViewStopsTheRunOrIsASanitizerFinding) {
  // Grid 5 over 4 tiles: block 4 indexes tile 4.
  std::string f = write("add.tile", kVecAdd);
  std::string args = " --grid 5 --arg a=zeros:64:f32 --arg b=zeros:64:f32 --arg out=zeros:64:f32";
  CliRun plain = run("run " + f + args);
  EXPECT_EQ(plain.status, 1);
  EXPECT_NE(plain.out.find("tile block (4, 0, 0): index (4) is outside the view's index space 4"), std::string::npos)
      << plain.out;
  EXPECT_NE(plain.out.find("[run.fault]"), std::string::npos);
  CliRun sanitized = run("run " + f + args + " --sanitize");
  EXPECT_EQ(sanitized.status, 1);
  EXPECT_NE(sanitized.out.find("[bounds.index]"), std::string::npos) << sanitized.out;
}

// Two loads and a store of one tile block: the store waits on neither load's
// token, so it races with the load of the same tile; with the token it does not.
std::string readModifyWrite(bool ordered) {
  return std::string(R"(cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %tv = make_tensor_view %p, shape = [16], strides = [1] : tensor_view<16xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %x, %t1 = load_view_tko weak %pv[%c0] : partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %y = addf %x, %x : tile<16xf32>
    %t2 = store_view_tko weak %y, %pv[%c0])") +
         (ordered ? " token = %t1" : "") +
         R"( : tile<16xf32>, partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
)";
}

TEST(Run, SanitizerFindsARaceNoTokenOrders) {
  CliRun racy = run("run " + write("racy.tile", readModifyWrite(false)) + " --arg p=rand:16:f32 --sanitize");
  EXPECT_EQ(racy.status, 1);
  EXPECT_NE(racy.out.find("store_view_tko at line 8 in tile block (0, 0, 0) (lane [0]) writes %p + 0 bytes, which "
                          "load_view_tko at line 6 in tile block (0, 0, 0) (lane [0]) also accesses; no token chain "
                          "orders them [race.unordered]"),
            std::string::npos)
      << racy.out;
  CliRun ordered = run("run " + write("ordered.tile", readModifyWrite(true)) + " --arg p=rand:16:f32 --sanitize");
  EXPECT_EQ(ordered.status, 0) << ordered.out;
}

TEST(Run, SanitizerFindsBlocksThatWriteOneTile) {
  // Every block stores tile 0; blocks do not synchronize.
  std::string text = R"(cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %tv = make_tensor_view %p, shape = [16], strides = [1] : tensor_view<16xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %x = constant <f32: 1.0> : tile<16xf32>
    %t = store_view_tko weak %x, %pv[%c0] : tile<16xf32>, partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
)";
  CliRun r = run("run " + write("blocks.tile", text) + " --grid 2 --arg p=zeros:16:f32 --sanitize");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("in tile block (1, 0, 0) (lane [0]) writes %p + 0 bytes, which store_view_tko at line 7 in "
                       "tile block (0, 0, 0)"),
            std::string::npos)
      << r.out;
  CliRun one = run("run " + write("blocks.tile", text) + " --grid 1 --arg p=zeros:16:f32 --sanitize");
  EXPECT_EQ(one.status, 0) << one.out;
}

TEST(Run, SanitizerAcceptsAtomicsAndFindsTheirScope) {
  auto program = [](const char* scope) {
    return std::string(R"(cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>) {
    %one = constant <i32: 1> : tile<i32>
    %old, %t = atomic_rmw_tko relaxed )") +
           scope + R"( %p, add, %one : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    return
  }
}
)";
  };
  CliRun device = run("run " + write("dev.tile", program("device")) + " --grid 3 --arg p=zeros:1:i32 --sanitize --format=json");
  EXPECT_EQ(device.status, 0) << device.out;
  auto j = nlohmann::json::parse(device.out);
  EXPECT_EQ(j["outputs"][0]["max"], 3.0);  // three increments
  CliRun block = run("run " + write("blk.tile", program("tl_blk")) + " --grid 3 --arg p=zeros:1:i32 --sanitize");
  EXPECT_EQ(block.status, 1);
  EXPECT_NE(block.out.find("[race.scope]"), std::string::npos) << block.out;
}

TEST(Run, SanitizerFindsAStoreThroughASelfOverlappingView) {
  std::string text = R"(cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %tv = make_tensor_view %p, shape = [4, 4], strides = [1, 1] : tensor_view<4x4xf32, strides=[1,1]>
    %pv = make_partition_view %tv : partition_view<tile=(4x4), tensor_view<4x4xf32, strides=[1,1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %x = constant <f32: 1.0> : tile<4x4xf32>
    %t = store_view_tko weak %x, %pv[%c0, %c0] : tile<4x4xf32>, partition_view<tile=(4x4), tensor_view<4x4xf32, strides=[1,1]>>, tile<i32> -> token
    return
  }
}
)";
  CliRun r = run("run " + write("overlap.tile", text) + " --arg p=zeros:7:f32 --sanitize");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("(lane [1, 0]) and its lane [0, 1] both write %p + 4 bytes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[layout.overlap]"), std::string::npos);
}

}  // namespace
}  // namespace tilesight::clitest
