#pragma once
// The run-time sanitizer (`tilesight run --sanitize`): the dynamic twin of
// the static checks. Every access of a run is recorded in shadow memory with
// the tile block and memory event that made it; two accesses to one address,
// one a write, that no token chain (within a tile block) or release/acquire
// synchronization (across tile blocks) orders, and that are not both atomic,
// are a race. View indices outside the index space and misaligned 4-bit
// pointer accesses are findings too. Findings carry the static checks'
// codes, the tile blocks, coordinates and addresses. Runs with one thread,
// blocks in grid order (happens-before does not depend on the interleaving).
//
// Shadow memory is a map of disjoint key ranges (keys: elements.h
// shadowKey, two per byte), each with the accesses that last touched all of
// it. A tile op's accesses arrive as runs of consecutive elements, so a
// vector add records one range per operand and tile block rather than one
// entry per element; a range splits only where accesses differ, and
// neighbours that the same events touched merge again (a transposed tile's
// strided runs end up as one range per tile row, not one per element).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/diag/diagnostic.h"
#include "analysis/ir/attr_values.h"
#include "analysis/ir/ir.h"
#include "codegen/interp/values.h"
#include "codegen/runtime/buffers.h"

namespace tilesight::interp {

class BlockExec;

// Lane k of a tile as coordinates: "[3, 1]" (the sanitizer's and the device guard's messages).
std::string laneCoordinates(TypeRef tile, int64_t k);

// One memory op execution of a tile block: what orders it.
struct MemoryEvent {
  uint32_t id = 0;        // per tile block, in execution order
  TokenValue after;       // the input token (what the op is ordered after)
  const Operation* op = nullptr;
  bool atomic = false;
  MemoryOrdering ordering = MemoryOrdering::Weak;
  MemoryScope scope = MemoryScope::Device;
};

// What one tile block knows of the others: every event of block b below
// knows[b] happens before its next event (release/acquire edges).
struct BlockClock {
  std::unordered_map<int64_t, uint32_t> knows;
  uint32_t nextEvent = 0;
};

// Lanes lane0, lane0 + 1, ... of `tile` accessing elements that start at
// keys key0, key0 + step, ..., each `width` keys wide.
struct AccessRun {
  uint64_t key0 = 0;
  int64_t step = 0;
  int64_t width = 0;
  int64_t count = 0;
  int64_t lane0 = 0;
  TypeRef tile = nullptr;
};

class Sanitizer {
public:
  Sanitizer(const Program& p, const runtime::AddressSpace& memory) : program_(p), memory_(memory) {}
  // How findings name an op's place: unset, "line N" of the program's text
  // (a run of bytecode names the Python line, as CheckOptions::placeName).
  void namePlaces(std::function<std::string(const Program&, uint32_t offset)> name) { placeName_ = std::move(name); }

  // The event of memory op `op` in block x, ordered after token `after`.
  MemoryEvent begin(BlockExec& x, const Operation& op, const TokenValue& after);
  // The token the op's result carries: its input's events and its own.
  TokenValue end(const MemoryEvent& e) const;
  // The accesses of one run of lanes.
  void access(BlockExec& x, const MemoryEvent& e, const AccessRun& run, bool read, bool write);
  // A view index outside the view's index space (the access is skipped).
  void indexOutside(BlockExec& x, const Operation& op, const std::string& message);
  // 4-bit lanes 2i and 2i+1 of a pointer access that do not fill one byte.
  void misaligned(BlockExec& x, const Operation& op, int64_t lane, const std::string& message);

  // Lane `lane` of `tile`, an operand of `use`, holds a value that `load`
  // read past a tensor's edge without padding_value (unspecified.h).
  void unspecifiedReaches(BlockExec& x, const Operation& load, const Operation& use, TypeRef tile, int64_t lane,
                          const std::string& role);

  // The findings, one per (code, op, other op), first occurrence first.
  std::vector<Diagnostic> diagnostics() const;

private:
  // One run of lanes of one event; the lane at key q is lane0 + (q - key0) /
  // step, unless ranges of several runs of the event were merged (`lanes`
  // false: the lane is not known any more, only the event).
  struct Access {
    int64_t block = -1;
    uint32_t event = 0;
    const Operation* op = nullptr;
    bool atomic = false;
    MemoryScope scope = MemoryScope::Device;
    AccessRun run;
    bool lanes = true;
    bool wrote = false;  // in Segment::hidden: whether it was a write
    std::optional<int64_t> laneAt(uint64_t key) const {
      if (!lanes) return std::nullopt;
      return run.lane0 + (run.step ? static_cast<int64_t>(key - run.key0) / run.step : 0);
    }
    bool sameEvent(const Access& o) const { return block == o.block && event == o.event && op == o.op; }
  };
  struct Segment {
    uint64_t end = 0;                 // keys [start, end)
    Access write;                     // the last write (block -1: none)
    std::vector<Access> reads;        // reads since it, one per (block, op)
    std::shared_ptr<std::unordered_map<int64_t, uint32_t>> release;  // the last release's clock here
    // Weak accesses that an atomic write ordered after them replaced. Keeping
    // only the last write is sound for a later access unordered with them
    // because it conflicts with that write too, unless both are atomic: a
    // later atomic is checked against these as well (until a weak write).
    std::vector<Access> hidden;
  };
  using Shadow = std::map<uint64_t, Segment>;

  void accessRange(BlockExec& x, const MemoryEvent& e, const Access& now, uint64_t lo, uint64_t hi, bool read,
                   bool write);
  Shadow::iterator splitAt(uint64_t key);
  void mergeLeft(Shadow::iterator it);
  void update(BlockExec& x, const MemoryEvent& e, const Access& now, uint64_t at, Segment& s, bool read, bool write);
  bool ordered(const Access& before, BlockExec& x, const MemoryEvent& now) const;
  void conflict(BlockExec& x, const Access& now, const Access& other, uint64_t key, bool write);
  void report(const std::string& code, const Operation& op, const Operation* other, std::string message,
              std::string note);
  std::string placeOf(const Operation& op) const;  // "line N", or placeName_'s

  const Program& program_;
  std::function<std::string(const Program&, uint32_t)> placeName_;
  const runtime::AddressSpace& memory_;
  Shadow shadow_;
  std::shared_ptr<std::unordered_map<int64_t, uint32_t>> release_;  // the clock the current access releases
  std::map<std::tuple<std::string, const Operation*, const Operation*>, size_t> seen_;
  std::vector<Diagnostic> findings_;
};

}  // namespace tilesight::interp
