// Decoding bytecode against parsing the text of the same program: a cuTile
// corpus file whose entry is replicated COPIES times inside its function
// section (the same debug info serves every copy), read with
// bytecode::readBytecode (decode, build the Program, print the text), and
// that text parsed with parseChunk. Prints µs per op for both (and for the
// printing inside the decode) and the ratios.
//   tilesight_bytecode_bench [FILE.tilebc] [COPIES]
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "analysis/bytecode/byte_cursor.h"
#include "analysis/bytecode/reader.h"
#include "analysis/ir/printer.h"
#include "analysis/syntax/parser.h"

using namespace tilesight;

namespace {

std::string varint(uint64_t v) {
  std::string out;
  do {
    uint8_t b = v & 0x7F;
    v >>= 7;
    out += static_cast<char>(b | (v ? 0x80 : 0));
  } while (v);
  return out;
}

// The file with its function records repeated `copies` times.
std::string replicate(const std::string& file, unsigned copies) {
  std::string out = file.substr(0, 12);
  bytecode::ByteCursor c(file);
  c.bytes(12, "header");
  for (;;) {
    uint8_t head = c.u8("section");
    unsigned id = head & 0x7F;
    if (!c.ok() || id == 0) break;
    uint64_t len = c.varint("length");
    uint64_t align = head & 0x80 ? c.varint("alignment") : 1;
    c.bytes((align - c.offset() % align) % align, "padding");
    std::string payload(c.bytes(len, "payload"));
    if (id == 2) {
      bytecode::ByteCursor p(payload);
      uint64_t n = p.varint("count");
      std::string records = payload.substr(p.pos());
      payload = varint(n * copies);
      for (unsigned i = 0; i < copies; ++i) payload += records;
    }
    out += static_cast<char>(head);
    out += varint(payload.size());
    if (head & 0x80) {
      out += varint(align);
      while (out.size() % align) out += '\xCB';
    }
    out += payload;
  }
  return out + '\0';
}

template <class F>
double microseconds(F&& f, int reps) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = argc > 1 ? argv[1] : TILESIGHT_SOURCE_DIR "/tests/corpus/cutile/kernels/attention.causal_attention.13_3.tilebc";
  unsigned copies = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2])) : 200;
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  std::string big = replicate(s.str(), copies);
  bytecode::Decoded d = bytecode::readBytecode(big);
  if (!d.ok()) {
    std::fprintf(stderr, "%s\n", d.diagnostics[0].message.c_str());
    return 1;
  }
  size_t ops = d.program.ops.size();
  const int reps = 5;
  double decode = microseconds([&] { bytecode::readBytecode(big); }, reps);
  double print = microseconds([&] { printProgram(d.program); }, reps);
  double parse = microseconds(
      [&] {
        ParseResult r;
        DiagSink diags;
        parseChunk(d.text, 0, static_cast<uint32_t>(d.text.size()), r, diags);
      },
      reps);
  std::printf("input: %s x %u: %zu bytes of bytecode, %zu bytes of text, %zu ops\n", path.c_str(), copies, big.size(),
              d.text.size(), ops);
  std::printf("decode+print: %.0f us (%.3f us/op)\n", decode, decode / ops);
  std::printf("  of which printing the text: %.0f us (%.3f us/op)\n", print, print / ops);
  std::printf("parse text:   %.0f us (%.3f us/op)\n", parse, parse / ops);
  std::printf("ratio parse/(decode+print): %.2f, parse/decode alone: %.2f\n", parse / decode, parse / (decode - print));
  return 0;
}
