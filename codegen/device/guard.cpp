#include "codegen/device/guard.h"

#include <algorithm>
#include <cstring>

#include "codegen/interp/sanitizer.h"

namespace tilesight::device {

namespace {

// Words of the record before the table (simt::Kernel::guarded): [6] holds the count.
constexpr uint64_t kRecordWords = 7;

uint64_t wordAt(const runtime::HostBuffer& b, uint64_t w) {
  uint64_t v = 0;
  if ((w + 1) * 8 <= b.bytes.size()) std::memcpy(&v, b.bytes.data() + w * 8, 8);
  return v;
}

void setWord(runtime::HostBuffer& b, uint64_t w, uint64_t v) { std::memcpy(b.bytes.data() + w * 8, &v, 8); }

}  // namespace

std::vector<size_t> guardedBuffers(const runtime::Launch& l, size_t guardArg, const std::vector<size_t>& excluded) {
  std::vector<size_t> out;
  for (size_t j = 0; j < runtime::bufferCount(l); ++j)
    if (runtime::hostBuffer(l, j) && j != guardArg && std::find(excluded.begin(), excluded.end(), j) == excluded.end())
      out.push_back(j);
  return out;
}

void fillGuard(runtime::Launch& l, size_t guardArg, const std::vector<size_t>& excluded) {
  std::vector<size_t> covered = guardedBuffers(l, guardArg, excluded);
  runtime::HostBuffer& g = *l.args[guardArg].buffer;
  g.name = "guard";
  g.elem = Elem::I64;
  g.bytes.assign((kRecordWords + 2 * covered.size()) * 8, 0);
  g.shape = {static_cast<int64_t>(g.bytes.size() / 8)};
  setWord(g, kRecordWords - 1, covered.size());
  for (size_t i = 0; i < covered.size(); ++i) {
    const runtime::HostBuffer& b = *runtime::hostBuffer(l, covered[i]);
    uint64_t at = kRecordWords + 2 * i;
    setWord(g, at, b.address());  // the device's address replaces it on the way in
    setWord(g, at + 1, b.bytes.size());
    l.addressWords.push_back({guardArg, at * 8, covered[i]});
  }
}

std::optional<GuardFault> guardFault(const simt::Kernel& k, const runtime::Launch& l, size_t guardArg,
                                     const std::vector<size_t>& excluded) {
  const runtime::HostBuffer& g = *l.args[guardArg].buffer;
  uint64_t site = wordAt(g, 0) & 0xffffffffu;
  if (site == 0 || site > k.guardSites.size()) return std::nullopt;
  GuardFault f;
  f.site = &k.guardSites[site - 1];
  f.block = static_cast<int64_t>(wordAt(g, 1));
  int64_t lane = static_cast<int64_t>(wordAt(g, 2));
  uint64_t address = wordAt(g, 3), below = wordAt(g, 4), offset = wordAt(g, 5);
  std::vector<size_t> covered = guardedBuffers(l, guardArg, excluded);
  const runtime::HostBuffer* near = below > 0 && below <= covered.size() ? runtime::hostBuffer(l, covered[below - 1]) : nullptr;
  bool tile = f.site->tile && f.site->tile->isTile() && f.site->tile->numElements() > 1;
  f.message = f.site->what + " of " + std::to_string(f.site->bytes) + " bytes at " + runtime::describeAt(near, offset, address) +
              " is outside every buffer of the run" +
              (tile ? " (lane " + interp::laneCoordinates(f.site->tile, lane) + ")" : "") +
              "; the device's guard skipped it";
  return f;
}

}  // namespace tilesight::device
