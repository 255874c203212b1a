#pragma once
// The JSON of `tilesight run --format=json` read as it arrives, with its
// top-level "printed" string cut to its first bytes. A program may print
// without end (a loop of prints on the CPU reference, which keeps them all):
// the server keeps at most `cap` bytes of it, as a GPU's print buffer does,
// and counts the rest. Everything else of the JSON passes unchanged, so the
// text stays valid JSON (never cut inside an escape or a UTF-8 character).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilesight::lsp {

// What the server keeps of a run's printed text: 2 MiB, the size of the
// print buffer a GPU run gets (server/cli/run_command.cpp).
constexpr size_t kPrintedCapBytes = size_t{2} << 20;

class PrintedCap {
public:
  explicit PrintedCap(size_t cap = kPrintedCapBytes) : cap_(cap) {}
  void feed(std::string_view chunk);
  const std::string &text() const { return out_; }
  // Bytes of the printed text left out (an escape such as \n counts one).
  uint64_t dropped() const { return dropped_; }

private:
  void structure(char c); // a byte outside every string
  void inString(char c);
  void inPrinted(char c);
  void advanceEscape(char c);

  size_t cap_;
  std::string out_;
  uint64_t kept_ = 0, dropped_ = 0;
  int depth_ = 0;
  bool string_ = false, expectKey_ = false, key_ = false;
  bool printedNext_ = false; // the value after the key "printed" comes next
  bool printed_ = false;     // inside that value
  bool keeping_ = true;      // the current escape or character is kept
  int escapeLeft_ = 0;       // bytes of an escape still to come (-1: after '\')
  std::string keyText_;      // the depth-1 key being read (its first bytes)
  std::string lastKey_;      // the last depth-1 key read
};

} // namespace tilesight::lsp
