#include "codegen/runtime/dynamic_library.h"

#include <dlfcn.h>

namespace tilesight::runtime {

DynamicLibrary::DynamicLibrary(const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    // RTLD_LOCAL: a runtime's symbols stay out of the process's namespace.
    handle_ = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_) {
      name_ = n;
      return;
    }
    const char* why = dlerror();
    error_ += (error_.empty() ? "" : "; ") + (why ? std::string(why) : n + " not found");
  }
}

DynamicLibrary::~DynamicLibrary() {
  if (handle_) dlclose(handle_);
}

void* DynamicLibrary::address(const char* symbol) const { return handle_ ? dlsym(handle_, symbol) : nullptr; }

}  // namespace tilesight::runtime
