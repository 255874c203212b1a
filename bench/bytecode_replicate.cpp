#include "bench/bytecode_replicate.h"

#include "analysis/bytecode/byte_cursor.h"

namespace tilesight::bench {

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

}  // namespace

std::string replicateFunctions(const std::string& file, unsigned copies) {
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

}  // namespace tilesight::bench
