// `tilesight devices` (DESIGN §3): every device `run` can use, and why each
// GPU runtime that is not available is not. It loads the runtimes (dlopen)
// and asks them; it runs no kernel and writes no file.
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

#include "codegen/device/probe.h"
#include "codegen/runtime/devices.h"
#include "server/cli/commands.h"
#include "server/cli/json_text.h"

namespace tilesight::cli {

namespace cl = llvm::cl;

cl::OptionCategory& devicesCategory() {
  static cl::OptionCategory c("tilesight devices options");
  return c;
}

cl::SubCommand& devicesSubcommand() {
  static cl::SubCommand s("devices", "List the devices tilesight can run on, and why a GPU runtime is unavailable");
  return s;
}

bool devicesCommand() { return static_cast<bool>(devicesSubcommand()); }

namespace {

enum class DevicesFormat { Text, Json };
cl::opt<DevicesFormat> devicesFormatOpt("format", cl::desc("Output format"), cl::init(DevicesFormat::Text),
                                        cl::values(clEnumValN(DevicesFormat::Text, "text", "one line per device or runtime"),
                                                   clEnumValN(DevicesFormat::Json, "json", "one JSON object")),
                                        cl::sub(devicesSubcommand()), cl::cat(devicesCategory()));

std::string memoryText(uint64_t bytes) {
  if (!bytes) return "";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  return os.str();
}

nlohmann::json deviceJson(const runtime::Device& d) {
  return {{"id", d.id()}, {"backend", std::string(runtime::backendName(d.backend))}, {"name", d.name},
          {"arch", d.arch}, {"memory_bytes", d.memoryBytes}, {"kind", d.gpu ? "gpu" : "cpu"}};
}

}  // namespace

int runDevices() {
  std::vector<runtime::BackendReport> reports = device::probeDevices();
  llvm::raw_ostream& os = llvm::outs();
  if (devicesFormatOpt == DevicesFormat::Json) {
    nlohmann::json devices = nlohmann::json::array(), backends = nlohmann::json::array();
    for (const runtime::BackendReport& r : reports) {
      for (const runtime::Device& d : r.devices) devices.push_back(deviceJson(d));
      backends.push_back({{"name", std::string(runtime::backendName(r.backend))}, {"available", r.reason.empty()},
                          {"library", r.library}, {"reason", r.reason}});
    }
    os << jsonText(nlohmann::json{{"devices", devices}, {"backends", backends}}, 2) << "\n";
    return 0;
  }
  for (const runtime::BackendReport& r : reports) {
    for (const runtime::Device& d : r.devices) {
      os << llvm::left_justify(d.id(), 10) << d.name;
      if (!d.arch.empty()) os << ", " << d.arch;
      if (d.memoryBytes) os << ", " << memoryText(d.memoryBytes);
      os << "\n";
    }
    if (!r.reason.empty()) os << llvm::left_justify(std::string(runtime::backendName(r.backend)), 10) << "unavailable: " << r.reason << "\n";
  }
  return 0;
}

}  // namespace tilesight::cli
