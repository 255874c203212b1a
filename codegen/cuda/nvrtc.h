#pragma once
// NVRTC, the CUDA toolkit's run-time compiler, loaded with dlopen: CUDA C++
// (the SIMT printer's output) to a cubin for one sm_XY. Found under
// $CUDA_HOME, else the toolkit's standard install location (/usr/local/cuda),
// else on the library path; the toolkit is not needed to build tilesight.
#include <string>
#include <vector>

namespace tilesight::cuda {

struct Compiled {
  std::string error;          // non-empty: no NVRTC, or the compile failed (then with the log)
  std::string log;            // the compiler's log (warnings, also on success)
  std::string library;        // the libnvrtc that compiled it
  std::vector<char> image;    // the cubin (an ELF)
  std::string ptx;            // the PTX it was assembled from
};

// arch: "sm_90", "sm_80", ...
Compiled compileCubin(const std::string& source, const std::string& arch);

}  // namespace tilesight::cuda
