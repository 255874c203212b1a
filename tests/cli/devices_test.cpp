// `tilesight devices` and `run --device` (DESIGN §3): the cpu always, each GPU
// runtime with its devices or the reason it has none, exit 3 where a device
// was asked for and cannot run the program. Runtimes are steered through the
// environment the loaders read (LD_LIBRARY_PATH, OCL_ICD_VENDORS).
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
  // A device that is there but has no code generator yet (PoCL's CPU device, which install-deps installs).
  auto j = nlohmann::json::parse(run("devices --format=json", "", {true}).out);
  for (const auto& d : j["devices"])
    if (d["backend"] == "opencl" && d["id"] == "opencl:0") {
      CliRun there = run("run " + f + " --device opencl:0");
      EXPECT_EQ(there.status, 3);
      EXPECT_NE(there.out.find("is there, but this version of tilesight does not generate code for opencl yet"),
                std::string::npos)
          << there.out;
    }
  EXPECT_EQ(run("run " + f + " --device tpu").status, 2);
  EXPECT_EQ(run("run " + f + " --device cuda:x").status, 2);
  EXPECT_EQ(run("run " + f + " --device cpu").status, 0);
  EXPECT_EQ(run("run " + f).status, 0);  // auto: the reference interpreter
}

}  // namespace
}  // namespace tilesight::clitest
