// The debug-info section (bytecode_format.md §5): per function a list of
// location indices, the function's own first, then one per op in the order
// the ops are written; locations are records (di_loc, callsite, ...).
#include "analysis/bytecode/decoder.h"

namespace tilesight::bytecode {

namespace {

constexpr unsigned kMaxLocDepth = 64;

// cuTile locates method calls (`.astype`, `.reshape`) inside its own stub
// module; the user's line is the call site.
bool isCutileStub(std::string_view file) { return file.ends_with("cuda/tile/_stub.py"); }

}  // namespace

bool Decoder::readDebugSection() {
  locations_.emplace_back();  // slot 0: unknown
  const Section& s = sections_[3];
  if (!s.present) return true;
  ByteCursor c = s.cursor();
  uint64_t nf = c.count("the number of functions with debug info");
  c.align(4, "padding");
  nf = std::min<uint64_t>(nf, c.left() / 4);
  for (uint64_t i = 0; i < nf && c.ok(); ++i) diFuncs_.push_back(c.u32("a function's first debug index"));
  uint64_t ni = c.count("the number of debug indices");
  c.align(8, "padding");
  if (c.ok() && ni > c.left() / 8) c.fail("at most " + std::to_string(c.left() / 8) + " debug indices");
  for (uint64_t i = 0; i < ni && c.ok(); ++i) diIndices_.push_back(c.u64("a debug index"));
  uint64_t na = c.count("the number of debug records");
  c.align(4, "padding");
  if (c.ok() && na > c.left() / 4) c.fail("at most " + std::to_string(c.left() / 4) + " debug records");
  for (uint64_t i = 0; i < na && c.ok(); ++i) diAttrs_.starts.push_back(c.u32("a debug record offset"));
  if (!lift(c)) return false;
  diAttrs_.blob = s.data.substr(c.pos());
  diAttrs_.blobBase = c.offset();
  locSlot_.assign(diAttrs_.size(), 0);
  return true;
}

bool Decoder::startFunction(uint64_t debugIndex, uint64_t at, DebugCursor& d, uint32_t& fnLoc) {
  d = {};
  fnLoc = 0;
  if (debugIndex == 0) return true;
  if (debugIndex > diFuncs_.size())
    return fail(at, "a debug index up to " + std::to_string(diFuncs_.size()) + ", not " + std::to_string(debugIndex));
  d.active = true;
  d.next = diFuncs_[debugIndex - 1];
  return nextLocation(d, at, fnLoc);
}

// Each debug record becomes one OpLocation, made on first use: ops share it
// by slot, and the file names are copied only into Decoded::locations.
bool Decoder::locationSlot(uint64_t index, uint32_t& slot) {
  slot = 0;
  if (index == 0) return true;
  if (index <= locSlot_.size() && locSlot_[index - 1]) {
    slot = locSlot_[index - 1];
    return true;
  }
  std::vector<SourceLoc> frames;
  if (!resolveLocation(index, 0, frames)) return false;  // checks that the record exists
  // Drop cuTile's stub frames: the caller is the user's line.
  size_t first = 0;
  while (first + 1 < frames.size() && isCutileStub(frames[first].file)) ++first;
  OpLocation loc;
  if (first < frames.size()) {
    loc.at = frames[first];
    loc.callers.assign(frames.begin() + static_cast<long>(first) + 1, frames.end());
  }
  locations_.push_back(std::move(loc));
  slot = locSlot_[index - 1] = static_cast<uint32_t>(locations_.size() - 1);
  return true;
}

// Frames of location `index`, innermost first; index 0 is unknown (no frame).
bool Decoder::resolveLocation(uint64_t index, unsigned depth, std::vector<SourceLoc>& frames) {
  if (index == 0) return true;
  if (auto it = locCache_.find(index); it != locCache_.end()) {
    frames.insert(frames.end(), it->second.begin(), it->second.end());
    return true;
  }
  uint64_t at = diAttrs_.blobBase;
  if (depth > kMaxLocDepth) return fail(at, "call-site locations nested at most " + std::to_string(kMaxLocDepth) + " deep");
  ByteCursor c(std::string_view(), 0);
  if (!item(diAttrs_, index - 1, at, "debug record", c)) return false;
  uint64_t tag = c.varint("a debug record tag");
  std::vector<SourceLoc> mine;
  if (tag == 4) {  // di_loc: scope, file name, line, column
    c.varint("a scope");
    std::string_view file;
    if (!string(c, "a file name", file)) return false;
    SourceLoc l;
    l.file = std::string(file);
    l.line = static_cast<uint32_t>(std::min<uint64_t>(c.varint("a line"), UINT32_MAX));
    l.column = static_cast<uint32_t>(std::min<uint64_t>(c.varint("a column"), UINT32_MAX - 1)) + !oneBasedColumns_;
    if (l.line) mine.push_back(std::move(l));
  } else if (tag == 6) {  // callsite: callee, caller
    uint64_t callee = c.varint("a callee location");
    uint64_t caller = c.varint("a caller location");
    if (!lift(c)) return false;
    if (callee == index || caller == index) return fail(at, "a call-site location that does not refer to itself");
    if (!resolveLocation(callee, depth + 1, mine) || !resolveLocation(caller, depth + 1, mine)) return false;
  }
  if (!lift(c)) return false;
  frames.insert(frames.end(), mine.begin(), mine.end());
  locCache_[index] = std::move(mine);
  return true;
}

}  // namespace tilesight::bytecode
