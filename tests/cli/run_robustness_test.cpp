// Hostile inputs of `run`, `emit` and `check` (issue 33): outputs that would
// overwrite the program or each other, absurd shapes and grids, files that
// are not regular files, non-finite statistics, the run codes' explanations.
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include "tests/cli/cli_util.h"

namespace tilesight::clitest {
namespace {

// out[i] = a[i] / b[i] over 64 elements, 16 per tile block.
const char* kVecDiv = R"(cuda_tile.module @m {
  entry @div(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %out: tile<ptr<f32>>) {
    %ta = make_tensor_view %a, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %tb = make_tensor_view %b, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %to = make_tensor_view %out, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %va = make_partition_view %ta : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %vb = make_partition_view %tb : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %vo = make_partition_view %to : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %x, %t1 = load_view_tko weak %va[%bx] : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %y, %t2 = load_view_tko weak %vb[%bx] : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %s = divf %x, %y : tile<16xf32>
    %t3 = store_view_tko weak %s, %vo[%bx] : tile<16xf32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
)";

const std::string kArgs = " --grid 4 --arg a=rand:64:f32:1 --arg b=zeros:64:f32 --arg out=zeros:64:f32";

// Inputs that could hang the process when the check is missing: killed after this long.
constexpr int kHangSeconds = 20;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string fifo(const std::string& name) {
  std::string path = tempPath(name);
  std::remove(path.c_str());
  EXPECT_EQ(mkfifo(path.c_str(), 0600), 0) << path;
  return path;
}

TEST(RunRobustness, AnOutputToStandardOutputIsAUsageError) {
  std::string f = write("div.tile", kVecDiv);
  CliRun r = run("run " + f + kArgs + " --out out=-");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--out out=-: a .npy file cannot go to standard output")) << r.out;
  EXPECT_FALSE(contains(r.out, "LLVM ERROR")) << r.out;
}

TEST(RunRobustness, AnOutputOverTheProgramOrAnotherOutputIsAUsageError) {
  std::string f = write("div.tile", kVecDiv);
  // The program under another spelling of its path.
  std::string dir = f.substr(0, f.rfind('/')), other = dir + "/./" + f.substr(f.rfind('/') + 1);
  CliRun self = run("run " + f + kArgs + " --out out=" + other);
  EXPECT_EQ(self.status, 2) << self.out;
  EXPECT_TRUE(contains(self.out, "would overwrite the program")) << self.out;
  EXPECT_EQ(readFile(f), kVecDiv);

  std::string npy = tempPath("twice.npy");
  CliRun twice = run("run " + f + kArgs + " --out a=" + npy + " --out out=" + npy);
  EXPECT_EQ(twice.status, 2) << twice.out;
  EXPECT_TRUE(contains(twice.out, "write one file")) << twice.out;

  CliRun emit = run("emit --target cuda " + f + " -o " + other);
  EXPECT_EQ(emit.status, 2) << emit.out;
  EXPECT_TRUE(contains(emit.out, "would overwrite the program")) << emit.out;
  EXPECT_EQ(readFile(f), kVecDiv);
}

TEST(RunRobustness, AnArgumentGivenTwiceIsAUsageError) {
  std::string f = write("div.tile", kVecDiv);
  CliRun byName = run("run " + f + kArgs + " --arg b=rand:64:f32");
  EXPECT_EQ(byName.status, 2) << byName.out;
  EXPECT_TRUE(contains(byName.out, "argument %b is given twice (also --arg b=zeros:64:f32)")) << byName.out;
  CliRun byPosition = run("run " + f + kArgs + " --arg 0=zeros:64:f32");
  EXPECT_EQ(byPosition.status, 2) << byPosition.out;
  EXPECT_TRUE(contains(byPosition.out, "argument %a is given twice")) << byPosition.out;
}

TEST(RunRobustness, AbsurdShapesAreRefusedBeforeAllocating) {
  std::string f = write("div.tile", kVecDiv);
  auto withA = [&](const std::string& a) {
    return run("run " + f + " --grid 4 --arg a=" + a + " --arg b=zeros:64:f32 --arg out=zeros:64:f32", "",
               {.timeoutSeconds = 60});
  };
  // 4 TB: allocating it would abort (or take the machine's memory); it is refused by its size.
  CliRun large = withA("zeros:1000000x1000000:f32");
  EXPECT_EQ(large.status, 2) << large.out;
  EXPECT_TRUE(contains(large.out, "needs 4000000000000 bytes (3725.3 GiB), more than this machine's memory"))
      << large.out;
  // 10^22 elements: the count overflows 64 bits (it made a buffer of the wrapped count).
  CliRun overflow = withA("rand:99999999999x99999999999:f32");
  EXPECT_EQ(overflow.status, 2) << overflow.out;
  EXPECT_TRUE(contains(overflow.out, "needs 4.00e+22 bytes")) << overflow.out;
  // 2^84 elements wrap to 0.
  CliRun wrapsToZero = withA("zeros:1099511627776x1099511627776x16:f32");
  EXPECT_EQ(wrapsToZero.status, 2) << wrapsToZero.out;
}

TEST(RunRobustness, AGridOfMoreBlocksThanARunNumbersIsAUsageError) {
  std::string f = write("k.tile", kGood);
  CliRun cube = run("run " + f + " --grid 16777215,16777215,16777215", "", {.timeoutSeconds = 60});
  EXPECT_EQ(cube.status, 2) << cube.out;
  EXPECT_TRUE(contains(cube.out, "is 4722365638444765413375 tile blocks, more than the 2147483647 (2^31 - 1)"))
      << cube.out;
  // The product wraps to 432 in 64 bits.
  CliRun wraps = run("run " + f + " --grid 16728112,1051651,1048579", "", {.timeoutSeconds = 60});
  EXPECT_EQ(wraps.status, 2) << wraps.out;
  CliRun justOver = run("run " + f + " --grid 65536,32768", "", {.timeoutSeconds = 60});
  EXPECT_EQ(justOver.status, 2) << justOver.out;
  EXPECT_TRUE(contains(justOver.out, "is 2147483648 tile blocks")) << justOver.out;
}

TEST(RunRobustness, AFifoOrADeviceIsNotReadAsAProgramOrAnArray) {
  std::string pipe = fifo("prog.tile");
  CliRun program = run("run " + pipe, "", {.timeoutSeconds = kHangSeconds});
  EXPECT_EQ(program.status, 2) << program.out;
  EXPECT_TRUE(contains(program.out, "cannot read '" + pipe + "': a FIFO (named pipe), not a regular file"))
      << program.out;
  CliRun emit = run("emit --target cuda " + pipe, "", {.timeoutSeconds = kHangSeconds});
  EXPECT_EQ(emit.status, 2) << emit.out;

  std::string f = write("div.tile", kVecDiv);
  std::string npyPipe = fifo("a.npy");
  CliRun fifoArg = run("run " + f + " --grid 4 --arg a=@" + npyPipe + " --arg b=zeros:64:f32 --arg out=zeros:64:f32",
                       "", {.timeoutSeconds = kHangSeconds});
  EXPECT_EQ(fifoArg.status, 2) << fifoArg.out;
  EXPECT_TRUE(contains(fifoArg.out, "a FIFO (named pipe), not a regular file")) << fifoArg.out;
  // /dev/null rather than /dev/zero: were the check missing, this test should not read for ever.
  CliRun device = run("run " + f + " --grid 4 --arg a=@/dev/null --arg b=zeros:64:f32 --arg out=zeros:64:f32", "",
                      {.timeoutSeconds = kHangSeconds});
  EXPECT_EQ(device.status, 2) << device.out;
  EXPECT_TRUE(contains(device.out, "cannot read '/dev/null': a character device, not a regular file")) << device.out;
}

TEST(RunRobustness, CheckRefusesWhatIsNotARegularFile) {
  std::string pipe = fifo("check.tile");
  CliRun r = run("check " + pipe + " /dev/null", "", {.timeoutSeconds = kHangSeconds});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "cannot read '" + pipe + "': a FIFO (named pipe), not a regular file")) << r.out;
  EXPECT_TRUE(contains(r.out, "cannot read '/dev/null': a character device, not a regular file")) << r.out;
  // Standard input is still read.
  CliRun in = run("check -", kGood, {.timeoutSeconds = kHangSeconds});
  EXPECT_EQ(in.status, 0) << in.out;
}

TEST(RunRobustness, AConfigFileThatIsAFifoIsAUsageError) {
  std::string dir = tempPath("project");
  ::mkdir(dir.c_str(), 0700);
  std::string config = dir + "/.tilesight.toml";
  std::remove(config.c_str());
  ASSERT_EQ(mkfifo(config.c_str(), 0600), 0);
  std::ofstream(dir + "/k.tile") << kGood;
  CliRun r = run("check " + dir + "/k.tile", "", {.timeoutSeconds = kHangSeconds});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "cannot read the config file '" + config + "': a FIFO (named pipe), not a regular file"))
      << r.out;
  EXPECT_EQ(run("check --no-config " + dir + "/k.tile", "", {.timeoutSeconds = kHangSeconds}).status, 0);
}

TEST(RunRobustness, NonFiniteStatisticsAreStringsInTheJsonReport) {
  std::string f = write("div.tile", kVecDiv);
  // rand / 0: infinities of both signs, and their mean is NaN.
  CliRun r = run("run " + f + kArgs + " --format=json", "", {.separateStderr = true});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  nlohmann::json out = nlohmann::json::parse(r.out)["outputs"][2];
  EXPECT_EQ(out["min"], "-inf") << out;
  EXPECT_EQ(out["max"], "inf") << out;
  EXPECT_EQ(out["mean"], "nan") << out;
  // 0 / 0: NaN everywhere, as NumPy's min and max say.
  CliRun nan = run("run " + f + " --grid 4 --arg a=zeros:64:f32 --arg b=zeros:64:f32 --arg out=zeros:64:f32 --format=json",
                   "", {.separateStderr = true});
  ASSERT_EQ(nan.status, 0) << nan.out << nan.err;
  out = nlohmann::json::parse(nan.out)["outputs"][2];
  EXPECT_EQ(out["min"], "nan") << out;
  EXPECT_EQ(out["max"], "nan") << out;
  EXPECT_EQ(out["preview"][0], "nan") << out;
}

TEST(RunRobustness, ExplainKnowsTheRunCodes) {
  for (const char* code : {"run.check", "run.print"}) {
    CliRun ex = run(std::string("explain ") + code, "", {.separateStderr = true});
    EXPECT_EQ(ex.status, 0) << code << ex.err;
    EXPECT_EQ(ex.out.rfind(std::string("## `") + code + "`", 0), 0u) << ex.out;
    EXPECT_TRUE(contains(ex.out, "```mlir")) << ex.out;
    EXPECT_TRUE(contains(ex.out, std::string("[") + code + "]")) << ex.out;
  }
}

}  // namespace
}  // namespace tilesight::clitest
