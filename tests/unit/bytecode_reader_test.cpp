// The bytecode reader on hand-made byte strings: the cursor, one test per
// class of malformed input (each one diagnostic "bytecode offset N:
// expected X", code syntax, empty range), NVIDIA's malformed fixtures
// (cuda-tile test/Bytecode/invalid, rebuilt as bytes), and versions that agree.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/bytecode/byte_cursor.h"
#include "analysis/bytecode/reader.h"
#include "analysis/ir/ir_equal.h"

namespace tilesight::bytecode {
namespace {

using namespace std::string_literals;
using Bytes = std::string;

Bytes varint(uint64_t v) {
  Bytes out;
  do {
    uint8_t b = v & 0x7F;
    v >>= 7;
    out += static_cast<char>(b | (v ? 0x80 : 0));
  } while (v);
  return out;
}

Bytes le(uint64_t v, unsigned n) {
  Bytes out;
  for (unsigned i = 0; i < n; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
  return out;
}

Bytes header(uint8_t minor = 1) { return Bytes("\x7fTileIR\0", 8) + static_cast<char>(13) + static_cast<char>(minor) + le(0, 2); }

// A section at absolute offset `at` (for its padding), aligned when `align` > 1.
Bytes section(size_t at, unsigned id, unsigned align, const Bytes& payload) {
  Bytes s(1, static_cast<char>(id | (align > 1 ? 0x80 : 0)));
  s += varint(payload.size());
  if (align > 1) {
    s += varint(align);
    while ((at + s.size()) % align) s += '\xCB';
  }
  return s + payload;
}

// String/type table: count, padding to 4, u32 offsets, blob.
Bytes table(const std::vector<Bytes>& items) {
  Bytes t = varint(items.size());
  if (items.empty()) return t;
  while (t.size() % 4) t += '\xCB';
  size_t off = 0;
  for (const Bytes& i : items) t += le(off, 4), off += i.size();
  for (const Bytes& i : items) t += i;
  return t;
}

struct Module {
  uint8_t minor = 1;
  std::vector<Bytes> strings{"k"};
  std::vector<Bytes> types{"\x10\x00\x00"s};  // () -> ()
  Bytes functions = varint(1) + varint(0) + varint(0) + "\x02" + varint(0) + varint(3) + "\x5c\x00\x00"s;
  Bytes build() const {
    Bytes b = header(minor);
    b += section(b.size(), 1, 4, table(strings));
    b += section(b.size(), 5, 4, table(types));
    b += section(b.size(), 2, 8, functions);
    return b + '\0';
  }
};

Decoded read(const Bytes& b) { return readBytecode(b); }

// The one error: its message starts "bytecode offset N: expected" and contains `what`.
void expectError(const Bytes& b, const std::string& what, std::optional<uint64_t> offset = std::nullopt) {
  Decoded d = read(b);
  ASSERT_EQ(d.diagnostics.size(), 1u) << "no error for: " << what;
  const Diagnostic& e = d.diagnostics[0];
  EXPECT_EQ(e.code, "syntax");
  EXPECT_TRUE(e.range.empty());
  EXPECT_EQ(e.message.rfind("bytecode offset ", 0), 0u) << e.message;
  EXPECT_NE(e.message.find(": expected "), std::string::npos) << e.message;
  EXPECT_NE(e.message.find(what), std::string::npos) << e.message;
  if (offset) {
    EXPECT_EQ(d.errorOffset, *offset) << e.message;
  }
  EXPECT_TRUE(d.text.empty());
}

TEST(ByteCursor, ReadsLittleEndianAndVarints) {
  Bytes b = le(0x11223344, 4) + varint(300) + varint(UINT64_MAX) + varint(3);  // zigzag 3 = -2
  ByteCursor c(b, 100);
  EXPECT_EQ(c.u32("x"), 0x11223344u);
  EXPECT_EQ(c.varint("x"), 300u);
  EXPECT_EQ(c.varint("x"), UINT64_MAX);
  EXPECT_EQ(c.svarint("x"), -2);
  EXPECT_TRUE(c.ok());
  EXPECT_TRUE(c.atEnd());
  EXPECT_EQ(c.u8("one more byte"), 0u);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.failOffset(), 100 + b.size());
}

TEST(ByteCursor, RejectsOverlongVarintsAndHugeCounts) {
  ByteCursor over(Bytes(10, '\xFF') + "\x01"s);
  over.varint("a number");
  EXPECT_FALSE(over.ok());
  Bytes elevenBits = Bytes(9, '\x80') + "\x02"s;  // bit 64 set
  ByteCursor wide(elevenBits);
  wide.varint("a number");
  EXPECT_FALSE(wide.ok());
  Bytes huge = varint(1ull << 40) + "abc";
  ByteCursor c(huge);
  EXPECT_EQ(c.count("items", 4), 0u);
  EXPECT_FALSE(c.ok());
  EXPECT_NE(c.expected().find("at most 0"), std::string::npos) << c.expected();
}

TEST(BytecodeReader, MinimalModuleReads) {
  Decoded d = read(Module().build());
  ASSERT_TRUE(d.ok()) << d.diagnostics[0].message;
  EXPECT_EQ(d.version, "13.1");
  EXPECT_EQ(d.text, "cuda_tile.module @kernels {\n  entry @k() {\n    return\n  }\n}\n");
  EXPECT_FALSE(d.hasDebugInfo);
}

TEST(BytecodeReader, EveryTruncationIsAnErrorAtTheEnd) {
  Bytes full = Module().build();
  for (size_t n = 0; n < full.size(); ++n) {
    Decoded d = read(full.substr(0, n));
    ASSERT_EQ(d.diagnostics.size(), 1u) << n;
    EXPECT_LE(d.errorOffset, n) << n << ": " << d.diagnostics[0].message;
  }
}

TEST(BytecodeReader, WrongVersions) {
  Module m;
  m.minor = 5;
  expectError(m.build(), "version 13.1, 13.2, 13.3 or 13.4, not 13.5", 8);
  m.minor = 0;
  expectError(m.build(), "not 13.0", 8);
}

TEST(BytecodeReader, SectionLengthPastTheEnd) {
  Bytes b = header() + "\x01"s + varint(1000) + "abc";
  expectError(b, "section 1's payload (1000 bytes), but only 3 are left", 15);
}

TEST(BytecodeReader, UnknownOpcodeAndOpcodeOfALaterVersion) {
  Module m;
  m.functions = varint(1) + varint(0) + varint(0) + "\x02" + varint(0) + varint(1) + "\x19"s;
  expectError(m.build(), "an opcode tilesight knows, not 0x19");
  m.functions = varint(1) + varint(0) + varint(0) + "\x02" + varint(0) + varint(1) + "\x6F"s;  // pack is 13.3
  expectError(m.build(), "an opcode of version 13.1 (up to 0x6D), not 0x6F");
}

TEST(BytecodeReader, UnknownTypeTag) {
  Module m;
  m.types = {"\x63"s};
  expectError(m.build(), "a type tag 0-22, not 99");
}

TEST(BytecodeReader, TheDeveloperPreviewFormatOf13_4IsNamed) {
  Module m;
  m.minor = 4;
  m.types = {"\x82\x01"s};  // tag 130
  expectError(m.build(), "not f8E5M3FNU (tag 130, a 13.4 developer preview)");
  m.minor = 3;
  expectError(m.build(), "not tag 130 (from 13.4)");
}

// print_tko before 13.2 has no result on the wire, but cuTile writes its
// result count (0) all the same: opcode, count 0, string 1, no arguments.
Module printing(uint8_t minor, const Bytes& print) {
  Module m;
  m.minor = minor;
  m.strings = {"k", "hi"};
  Bytes body = print + "\x5c\x00\x00"s;
  m.functions = varint(1) + varint(0) + varint(0) + "\x02" + varint(0) + varint(body.size()) + body;
  return m;
}

TEST(BytecodeReader, PrintOf13_1WritesAResultCountOfZero) {
  Decoded d = read(printing(1, "\x55\x00\x01\x00"s).build());
  ASSERT_TRUE(d.ok()) << d.diagnostics[0].message;
  EXPECT_NE(d.text.find("print_tko \"hi\""), std::string::npos) << d.text;
  expectError(printing(1, "\x55\x01\x01\x00"s).build(), "no results for print_tko before version 13.2, not 1");
}

TEST(BytecodeReader, TypeOfALaterVersion) {
  Module m;
  m.types = {"\x13"s, "\x10\x01\x00\x00"s};  // f4E2M1FN is 13.3
  m.functions = varint(1) + varint(0) + varint(1) + "\x02" + varint(0) + varint(3) + "\x5c\x00\x00"s;
  expectError(m.build(), "not tag 19 (from 13.3)");
}

TEST(BytecodeReader, IndicesOutOfRange) {
  Module m;
  m.functions = varint(1) + varint(7) + varint(0) + "\x02" + varint(0) + varint(3) + "\x5c\x00\x00"s;
  expectError(m.build(), "a string index below 1, not 7");
  m.functions = varint(1) + varint(0) + varint(9) + "\x02" + varint(0) + varint(3) + "\x5c\x00\x00"s;
  expectError(m.build(), "a type index below 1, not 9");
  // return %5 in a function without values
  m.functions = varint(1) + varint(0) + varint(0) + "\x02" + varint(0) + varint(4) + "\x5c\x00\x01\x05"s;
  expectError(m.build(), "an operand index below 0, not 5");
}

TEST(BytecodeReader, CyclicTypes) {
  Module m;
  m.types = {"\x10\x01\x01\x00"s, "\x0d\x01\x00"s};  // (t1) -> (), t1 = tile of t1
  expectError(m.build(), "refers back to itself");
}

TEST(BytecodeReader, HugeCounts) {
  Module m;
  m.functions = varint(UINT32_MAX) + varint(0);
  expectError(m.build(), "the number of functions of at most");
  Bytes b = header() + section(12, 1, 4, varint(1ull << 60));
  b += section(b.size(), 2, 8, varint(0)) + "\0"s;
  expectError(b, "the number of strings of at most 0 (the bytes left), not 1152921504606846976", 16);
}

TEST(BytecodeReader, InvalidUtf8InAString) {
  Module m;
  m.strings = {"k\xff"s};
  expectError(m.build(), "valid UTF-8 in string 0");
}

TEST(BytecodeReader, MissingTerminator) {
  Module m;
  m.functions = varint(1) + varint(0) + varint(0) + "\x02" + varint(0) + varint(2) + "\x44\x00"s;  // make_token
  m.types.push_back("\x11"s);
  expectError(m.build(), "a terminator");
}

// cuda-tile test/Bytecode/invalid/*, rebuilt from their description.
TEST(BytecodeReader, NvidiaInvalidMagicNumber) {
  expectError("\x7eTileIR\0\x0d"s, "the magic \\x7fTileIR\\0 (byte 0 is 0x7e): a damaged bytecode file", 0);
  // So damaged, a file is still taken as bytecode (check reports that, not a syntax error of text).
  EXPECT_TRUE(isTileIRBytecode("\x7eTileIR\0\x0d"s));
  EXPECT_FALSE(isTileIRBytecode("cuda_tile.module @m {}"));
  EXPECT_FALSE(isTileIRBytecode("\x7fTile"));
}

TEST(BytecodeReader, NvidiaUnsupportedVersion) {
  expectError(Bytes("\x7fTileIR\0", 8) + "\x12\x00\x00\x00"s, "not 18.0", 8);
}

TEST(BytecodeReader, NvidiaInvalidSectionId) { expectError(header() + "\x7f"s, "a section id 0-7, not 127", 12); }

TEST(BytecodeReader, NvidiaEndSectionNotLast) {
  expectError(header() + "\x00\xff\xff\xff\x7f\x01\x02\x03"s, "the end of the file after the end section", 13);
}

TEST(BytecodeReader, NvidiaInvalidDenseMapValue) {
  Module m;
  // i32, tile<2xi32>, (tile<2xi32>) -> ()
  m.types = {"\x03"s, "\x0d\x00\x01"s + le(2, 8), "\x10\x01\x01\x00"s};
  Bytes body = "\x53\x01\x02"s + le(0, 4) + le(0x80000000, 4) + "\x00"s + "\x5c\x00\x00"s;
  m.functions = varint(1) + varint(0) + varint(2) + "\x02" + varint(0) + varint(body.size()) + body;
  expectError(m.build(), "permutation other than -2147483648");
}

TEST(BytecodeReader, NvidiaInvalidAttributeName) {
  Module m;
  m.strings = {"k", "sm_100", ""};
  m.types = {"\x10\x00\x00"s, "\x03"s};
  // flags 06: entry with hints {sm_100: {"": 2 : i32}}
  m.functions = varint(1) + varint(0) + varint(0) + "\x06" + varint(0) + "\x0b\x01\x01\x0a\x01\x02\x01\x01\x02"s +
                varint(3) + "\x5c\x00\x00"s;
  expectError(m.build(), "a non-empty dictionary key (entry 0)");
}

std::string readCorpus(const std::string& name) {
  std::ifstream in(std::string(TILESIGHT_TESTS_DIR) + "/corpus/cutile/kernels/" + name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// 13.3 and 13.4 write the same vec_add (13.4 adds only optional fields);
// 13.1 and 13.2 differ from them only in what the versions add.
TEST(BytecodeReader, VersionsOfOneKernelAgree) {
  Decoded v3 = readBytecode(readCorpus("elementwise.vec_add.13_3.tilebc"));
  Decoded v4 = readBytecode(readCorpus("elementwise.vec_add.13_4.tilebc"));
  Decoded v1 = readBytecode(readCorpus("elementwise.vec_add.13_1.tilebc"));
  ASSERT_TRUE(v3.ok() && v4.ok() && v1.ok());
  EXPECT_EQ(firstDifference(v3.program, v4.program), std::nullopt);
  EXPECT_EQ(v3.text, v4.text);
  std::string v1text = v1.text;  // 13.1 files carry the architecture (--sm-arch) in their hints
  v1text.replace(v1text.find("sm_100"), 6, "default");
  EXPECT_EQ(v1text, v3.text);
  EXPECT_EQ(v3.locations.size(), v4.locations.size());
}

TEST(BytecodeReader, LocationsAreOneBasedAndSkipCutileStubs) {
  Decoded d = readBytecode(readCorpus("elementwise.gelu_f16.13_3.tilebc"));
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(d.hasDebugInfo);
  // The two `.astype` (lines 41 and 44) are located in cuTile's _stub.py,
  // called from the user's lines: `ct.load` at column 9 (0-based 8), `g` at 36.
  std::vector<std::string> ftofs;
  std::vector<OpId> order = preorder(d.program);
  for (size_t i = 0; i < order.size(); ++i)
    if (d.program.op(order[i]).name == "cuda_tile.ftof")
      ftofs.push_back(d.locations[i].at.file + ":" + std::to_string(d.locations[i].at.line) + ":" +
                      std::to_string(d.locations[i].at.column));
  EXPECT_EQ(ftofs, (std::vector<std::string>{"tests/corpus/cutile/kernels/elementwise.py:41:9",
                                             "tests/corpus/cutile/kernels/elementwise.py:44:36"}));
}

}  // namespace
}  // namespace tilesight::bytecode

namespace tilesight::bytecode {
namespace {

// One entry whose optimization hints hold an f64 float attribute with the
// value bytes `value` (strings "k", "h"; types: () -> (), f64).
Bytes withF64Hint(const Bytes& value) {
  Module m;
  m.strings = {"k", "h"};
  m.types = {"\x10\x00\x00"s, "\x09"s};
  m.functions = varint(1) + varint(0) + varint(0) + "\x06" + varint(0) + varint(11) + varint(1) + varint(1) +
                varint(2) + varint(1) + value + varint(3) + "\x5c\x00\x00"s;
  return m.build();
}

double f64Hint(const Decoded& d) {
  const Attr* hints = d.program.ops.at(1).attr("optimization_hints");
  return hints && hints->dict.size() == 1 ? hints->dict[0].value.f : 0;
}

TEST(BytecodeReader, NegativeF64AsCutileWritesIt) {
  // cuTile zigzags the bit pattern as an unbounded number: -inf's 0xFFF0000000000000
  // shifted left once, 65 bits in 10 bytes (NVIDIA's reader drops bit 64).
  unsigned __int128 z = static_cast<unsigned __int128>(0xFFF0000000000000ull) << 1;
  Bytes cutile;
  do {
    uint8_t b = static_cast<uint8_t>(z & 0x7F);
    z >>= 7;
    cutile += static_cast<char>(b | (z ? 0x80 : 0));
  } while (z);
  ASSERT_EQ(cutile, "\x80\x80\x80\x80\x80\x80\x80\xF0\xFF\x03"s);
  Decoded d = read(withF64Hint(cutile));
  ASSERT_TRUE(d.ok()) << d.diagnostics[0].message;
  EXPECT_EQ(f64Hint(d), -HUGE_VAL);
  // NVIDIA's zigzag of the same pattern as an int64 (odd) reads the same.
  int64_t n = static_cast<int64_t>(0xFFF0000000000000ull);
  Decoded nv = read(withF64Hint(varint((static_cast<uint64_t>(n) << 1) ^ static_cast<uint64_t>(n >> 63))));
  ASSERT_TRUE(nv.ok()) << nv.diagnostics[0].message;
  EXPECT_EQ(f64Hint(nv), -HUGE_VAL);
  // Positive values are the same in both; an odd 65-bit number is no one's.
  Decoded two = read(withF64Hint(varint(0x4000000000000000ull << 1)));  // 2.0
  ASSERT_TRUE(two.ok()) << two.diagnostics[0].message;
  EXPECT_EQ(f64Hint(two), 2.0);
  expectError(withF64Hint("\x81\x80\x80\x80\x80\x80\x80\xF0\xFF\x03"s), "or 65 as cuTile writes a negative f64");
}

// Loops nested `depth` deep, each block ending in a return (loop: no results,
// no operands, one region of one block without arguments, two ops).
Bytes nestedLoops(unsigned depth) {
  Bytes body = "\x5c\x00\x00"s;
  for (unsigned i = 0; i < depth; ++i) body = "\x41\x00\x00\x01\x01\x00\x02"s + body + "\x5c\x00\x00"s;
  body += "\x5c\x00\x00"s;
  Module m;
  m.functions = varint(1) + varint(0) + varint(0) + "\x02" + varint(0) + varint(body.size()) + body;
  return m.build();
}

TEST(BytecodeReader, RegionsNestedTooDeepAreAnErrorNotACrash) {
  Decoded ok = read(nestedLoops(100));
  ASSERT_TRUE(ok.ok()) << ok.diagnostics[0].message;
  EXPECT_EQ(ok.locations.size(), ok.program.ops.size());
  expectError(nestedLoops(101), "regions nested at most 100 deep");
  expectError(nestedLoops(100000), "regions nested at most 100 deep");  // once a stack overflow
}

}  // namespace
}  // namespace tilesight::bytecode
