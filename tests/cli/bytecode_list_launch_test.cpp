// A launch file with a list of arrays (cuTile's List[Array], `compile.py
// --arg As=list:...`, kind "list" with "items"): the list is two entry
// arguments, the pointer to its rows of words and its length. `check` takes
// the length from the number of items; `run` makes zeros for each item no
// --arg names and writes one back with --out NAME[K].
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/cli_util.h"

using namespace tilesight::clitest;

namespace {

// Stores 7.0 at element n - 1 of a 4-element output, n the list's length.
const char* const kLastOfList = R"(cuda_tile.module @m {
  entry @k(%l: tile<ptr<i64>>, %n: tile<i32>, %o: tile<ptr<f32>>, %osize: tile<i32>, %ostride: tile<i32>) {
    %tv = make_tensor_view %o, shape = [4], strides = [1] : tensor_view<4xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(1), tensor_view<4xf32, strides=[1]>>
    %c1 = constant <i32: 1> : tile<i32>
    %last = subi %n, %c1 : tile<i32>
    %v = constant <f32: 7.0> : tile<1xf32>
    %t = store_view_tko weak %v, %pv[%last] : tile<1xf32>, partition_view<tile=(1), tensor_view<4xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
)";

// A launch of `items` two-element f32 arrays in list `Ls`, then the output.
std::string launchWithList(const std::string& name, int items) {
  std::string list;
  for (int i = 0; i < items; ++i)
    list += std::string(i ? ", " : "") + R"({"kind": "array", "dtype": "f32", "shape": [2], "strides": [1]})";
  return write(name, R"({"grid": [1], "args": [{"param": "Ls", "kind": "list", "items": [)" + list +
                         R"(]}, {"param": "out", "kind": "array", "dtype": "f32", "shape": [4], "strides": [1]}]})");
}

std::string bytecode(const std::string& name) {
  std::string text = write(name + ".tile", kLastOfList), bc = tempPath(name + ".tilebc");
  CliRun t = run("translate --to=bytecode " + text + " -o " + bc);
  EXPECT_EQ(t.status, 0) << t.out;
  return bc;
}

TEST(BytecodeListLaunch, CheckTakesTheListsLength) {
  std::string bc = bytecode("list_check");
  EXPECT_EQ(run("check --launch " + launchWithList("list_check4.launch.json", 4) + " " + bc).status, 0);
  CliRun r = run("check --launch " + launchWithList("list_check5.launch.json", 5) + " " + bc);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("index 4 of dimension 0 is outside the index space 4"), std::string::npos) << r.out;
}

TEST(BytecodeListLaunch, RunMakesTheItemsAndWritesOneBack) {
  std::string bc = bytecode("list_run"), out = tempPath("list_run_out.npy"), item = tempPath("list_run_item.npy");
  CliRun r = run("run " + bc + " --launch " + launchWithList("list_run.launch.json", 4) + " --out out=" + out +
                 " --out Ls[1]=" + item);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("arg0[3]  2  f32"), std::string::npos) << r.out;  // four items of two
  EXPECT_NE(r.out.find("max 7  mean 1.75"), std::string::npos) << r.out;  // out[3] = 7: the length was 4
  EXPECT_FALSE(readFile(item).empty());
}

TEST(BytecodeListLaunch, AListWithoutArraysIsAUsageError) {
  std::string bc = bytecode("list_bad");
  std::string bad = write("list_bad.launch.json", R"({"grid": [1], "args": [{"param": "Ls", "kind": "list", "items": []}]})");
  CliRun r = run("check --launch " + bad + " " + bc);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("list 'Ls' wants \"items\", a non-empty list of arrays"), std::string::npos) << r.out;
}

}  // namespace
