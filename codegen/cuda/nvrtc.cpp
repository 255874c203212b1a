#include "codegen/cuda/nvrtc.h"

#include <algorithm>
#include <cstdlib>

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include "codegen/runtime/dynamic_library.h"
#include "codegen/runtime/rtc_output.h"

namespace tilesight::cuda {

namespace {

using nvrtcResult = int;
using nvrtcProgram = void*;

// A libnvrtc to try and the toolkit include directories that go with it
// (the generated source includes mma.h for tensor cores; without them the
// kernel keeps its portable form).
struct Candidate {
  std::string library;
  std::vector<std::string> includes;
};

// libnvrtc.so.N files of $CUDA_HOME and /usr/local/cuda, newest major first
// (the toolkit ships no unversioned name outside its -dev layout), then the
// library path's.
std::vector<Candidate> candidates() {
  std::vector<Candidate> out;
  std::vector<std::string> homes;
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) homes.push_back(home);
  homes.push_back("/usr/local/cuda");
  for (const std::string& home : homes) {
    std::vector<std::string> includes;
    for (const char* sub : {"include", "include/cccl"}) {
      llvm::SmallString<256> dir(home);
      llvm::sys::path::append(dir, sub);
      if (llvm::sys::fs::is_directory(dir)) includes.push_back(std::string(dir));
    }
    for (const char* sub : {"lib64", "lib"}) {
      llvm::SmallString<256> dir(home);
      llvm::sys::path::append(dir, sub);
      std::error_code ec;
      std::vector<std::pair<unsigned, std::string>> found;
      for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
        llvm::StringRef name = llvm::sys::path::filename(it->path());
        unsigned major = 0;
        if (name.consume_front("libnvrtc.so.") && !name.getAsInteger(10, major)) found.emplace_back(major, it->path());
      }
      std::sort(found.rbegin(), found.rend());
      for (auto& f : found) out.push_back({f.second, includes});
    }
  }
  for (const char* soname : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) out.push_back({soname, {}});
  return out;
}

}  // namespace

Compiled compileCubin(const std::string& source, const std::string& arch) {
  Compiled c;
  std::vector<Candidate> tried = candidates();
  std::vector<std::string> names;
  for (const Candidate& t : tried) names.push_back(t.library);
  runtime::DynamicLibrary lib(names);
  if (!lib.loaded()) {
    c.error = "no NVRTC: libnvrtc cannot be loaded from $CUDA_HOME, /usr/local/cuda or the library path (" + lib.error() +
              "); install the CUDA toolkit or set CUDA_HOME";
    return c;
  }
  c.library = lib.name();
  auto create = lib.get<nvrtcResult (*)(nvrtcProgram*, const char*, const char*, int, const char* const*, const char* const*)>("nvrtcCreateProgram");
  auto compile = lib.get<nvrtcResult (*)(nvrtcProgram, int, const char* const*)>("nvrtcCompileProgram");
  auto logSize = lib.get<nvrtcResult (*)(nvrtcProgram, size_t*)>("nvrtcGetProgramLogSize");
  auto getLog = lib.get<nvrtcResult (*)(nvrtcProgram, char*)>("nvrtcGetProgramLog");
  auto cubinSize = lib.get<nvrtcResult (*)(nvrtcProgram, size_t*)>("nvrtcGetCUBINSize");
  auto getCubin = lib.get<nvrtcResult (*)(nvrtcProgram, char*)>("nvrtcGetCUBIN");
  auto destroy = lib.get<nvrtcResult (*)(nvrtcProgram*)>("nvrtcDestroyProgram");
  auto ptxSize = lib.get<nvrtcResult (*)(nvrtcProgram, size_t*)>("nvrtcGetPTXSize");
  auto getPtx = lib.get<nvrtcResult (*)(nvrtcProgram, char*)>("nvrtcGetPTX");
  auto errorString = lib.get<const char* (*)(nvrtcResult)>("nvrtcGetErrorString");
  if (!create || !compile || !logSize || !getLog || !cubinSize || !getCubin || !destroy) {
    c.error = lib.name() + " lacks an entry point tilesight needs (nvrtcGetCUBIN needs NVRTC 11.1 or newer)";
    return c;
  }
  nvrtcProgram prog = nullptr;
  if (nvrtcResult r = create(&prog, source.c_str(), "tilesight.cu", 0, nullptr, nullptr); r != 0) {
    c.error = "nvrtcCreateProgram failed (" + std::to_string(r) + ")";
    return c;
  }
  // The generated source includes no header; --fmad=false: every op rounds
  // once, as the reference does.
  std::vector<std::string> texts{"--gpu-architecture=" + arch, "-std=c++17", "--fmad=false"};
  for (const Candidate& t : tried)
    if (t.library == lib.name())
      for (const std::string& dir : t.includes) texts.push_back("-I" + dir);
  std::vector<const char*> options;
  for (const std::string& t : texts) options.push_back(t.c_str());
  nvrtcResult r = compile(prog, static_cast<int>(options.size()), options.data());
  c.log = runtime::compilerLog(runtime::compilerOutput(prog, logSize, getLog));
  std::string cubin = r == 0 ? runtime::compilerOutput(prog, cubinSize, getCubin) : std::string();
  if (!cubin.empty()) {
    c.image.assign(cubin.begin(), cubin.end());
    c.ptx = runtime::compilerOutput(prog, ptxSize, getPtx);
  } else {
    const char* name = errorString ? errorString(r) : nullptr;
    c.error = "NVRTC (" + lib.name() + ") rejected the generated kernel for " + arch + " (" +
              (name ? std::string(name) : std::to_string(r)) + ")" + (c.log.empty() ? "" : ":\n" + c.log);
  }
  destroy(&prog);
  return c;
}

}  // namespace tilesight::cuda
