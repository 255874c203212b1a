#include "codegen/hip/hiprtc.h"

#include "codegen/runtime/dynamic_library.h"
#include "codegen/runtime/rtc_output.h"

namespace tilesight::hip {

namespace {

using hiprtcResult = int;
using hiprtcProgram = void*;

}  // namespace

CodeObject compileCodeObject(const std::string& source, const std::string& arch) {
  CodeObject c;
  runtime::DynamicLibrary lib({"libhiprtc.so.7", "libhiprtc.so.6", "libamdhip64.so.5"});
  if (!lib.loaded()) {
    c.error = "no hiprtc: neither libhiprtc.so.6/7 (ROCm 6+) nor libamdhip64.so.5 (ROCm 5; Debian: apt-get install "
              "libamdhip64-5) loads (" + lib.error() + ")";
    return c;
  }
  c.library = lib.name();
  auto create = lib.get<hiprtcResult (*)(hiprtcProgram*, const char*, const char*, int, const char**, const char**)>("hiprtcCreateProgram");
  auto compile = lib.get<hiprtcResult (*)(hiprtcProgram, int, const char**)>("hiprtcCompileProgram");
  auto logSize = lib.get<hiprtcResult (*)(hiprtcProgram, size_t*)>("hiprtcGetProgramLogSize");
  auto getLog = lib.get<hiprtcResult (*)(hiprtcProgram, char*)>("hiprtcGetProgramLog");
  auto codeSize = lib.get<hiprtcResult (*)(hiprtcProgram, size_t*)>("hiprtcGetCodeSize");
  auto getCode = lib.get<hiprtcResult (*)(hiprtcProgram, char*)>("hiprtcGetCode");
  auto destroy = lib.get<hiprtcResult (*)(hiprtcProgram*)>("hiprtcDestroyProgram");
  auto errorString = lib.get<const char* (*)(hiprtcResult)>("hiprtcGetErrorString");
  if (!create || !compile || !logSize || !getLog || !codeSize || !getCode || !destroy) {
    c.error = lib.name() + " has no hiprtc entry points (ROCm 6 moved them to libhiprtc.so.6)";
    return c;
  }
  hiprtcProgram prog = nullptr;
  if (hiprtcResult r = create(&prog, source.c_str(), "tilesight.hip", 0, nullptr, nullptr); r != 0) {
    c.error = "hiprtcCreateProgram failed (" + std::to_string(r) + ")";
    return c;
  }
  // The generated source includes no header (ROCm 5.2's hiprtc finds none)
  // and turns contraction off itself.
  std::string archOption = "--offload-arch=" + arch;
  std::vector<const char*> options{"-O3"};
  if (!arch.empty()) options.push_back(archOption.c_str());
  hiprtcResult r = compile(prog, static_cast<int>(options.size()), options.data());
  c.log = runtime::compilerLog(runtime::compilerOutput(prog, logSize, getLog));
  std::string code = r == 0 ? runtime::compilerOutput(prog, codeSize, getCode) : std::string();
  if (!code.empty()) {
    c.image.assign(code.begin(), code.end());
  } else {
    const char* name = errorString ? errorString(r) : nullptr;
    c.error = "hiprtc (" + lib.name() + ") rejected the generated kernel for " + (arch.empty() ? "the device" : arch) +
              " (" + (name ? std::string(name) : std::to_string(r)) + ")" + (c.log.empty() ? "" : ":\n" + c.log);
  }
  destroy(&prog);
  return c;
}

}  // namespace tilesight::hip
