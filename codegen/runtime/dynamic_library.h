#pragma once
// A shared library loaded at run time (dlopen), never linked: the GPU
// runtimes (libcuda, libamdhip64, libOpenCL) are optional, and a tilesight
// built where they exist must still start where they do not.
#include <string>
#include <vector>

namespace tilesight::runtime {

class DynamicLibrary {
public:
  // The first of `names` that loads; `error()` says why none did.
  explicit DynamicLibrary(const std::vector<std::string>& names);
  ~DynamicLibrary();
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  bool loaded() const { return handle_ != nullptr; }
  const std::string& name() const { return name_; }    // the one that loaded
  const std::string& error() const { return error_; }  // why none loaded
  // The address of `symbol` as a function pointer of type F, or nullptr.
  template <class F>
  F get(const char* symbol) const {
    return reinterpret_cast<F>(address(symbol));
  }

private:
  void* address(const char* symbol) const;
  void* handle_ = nullptr;
  std::string name_, error_;
};

}  // namespace tilesight::runtime
