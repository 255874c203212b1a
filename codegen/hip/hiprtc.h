#pragma once
// hiprtc, HIP's run-time compiler, loaded with dlopen: HIP C++ (the SIMT
// printer's output) to an AMDGPU code object. ROCm 6 and 7 ship it as
// libhiprtc.so.N; ROCm 5 (Debian 12's 5.2) exports it from libamdhip64.so.5.
#include <string>
#include <vector>

namespace tilesight::hip {

struct CodeObject {
  std::string error;        // non-empty: no hiprtc, or the compile failed (then with the log)
  std::string log;          // the compiler's log
  std::string library;      // the library that compiled it
  std::vector<char> image;  // the code object (an ELF, EM_AMDGPU)
};

// arch: "gfx90a", "gfx1030", ...; empty: hiprtc's default, the current
// device's architecture (needs a device).
CodeObject compileCodeObject(const std::string& source, const std::string& arch);

}  // namespace tilesight::hip
