#pragma once
// Probing the devices of every backend: loads each GPU runtime with dlopen
// and asks it (runtime/devices.h has what they report); it runs no kernel.
#include <vector>

#include "codegen/runtime/devices.h"

namespace tilesight::device {

runtime::BackendReport probe(runtime::Backend b);
// Every backend, cpu first.
std::vector<runtime::BackendReport> probeDevices();

}  // namespace tilesight::device
