// Decoding's own cost per op (issue 34: decoding at least 3x cheaper than
// parsing the same text): counted as heap allocations, which unlike time do
// not depend on the machine. The op's attribute list is allocated once at
// its size, operands, block ops and regions are reserved from the counts on
// the wire: 1.46 allocations per op of the benchmark's program (1.71 before).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>

#include "analysis/bytecode/reader.h"
#include "bench/bytecode_replicate.h"

namespace {

long gAllocations = 0;  // operator new calls in this process (tests run one per process)

}  // namespace

void* operator new(std::size_t n) {
  ++gAllocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace tilesight::bytecode {
namespace {

// Allocations of one decode of the benchmark's file with `copies` copies of its functions, and its ops.
std::pair<long, size_t> decodeAllocations(const std::string& file, unsigned copies) {
  std::string big = bench::replicateFunctions(file, copies);
  long before = gAllocations;
  Decoded d = readBytecode(big, false);
  EXPECT_TRUE(d.ok());
  return {gAllocations - before, d.program.ops.size()};
}

TEST(BytecodeDecodeCost, AllocationsPerOp) {
  std::ifstream in(TILESIGHT_TESTS_DIR "/corpus/cutile/kernels/attention.causal_attention.13_3.tilebc", std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  decodeAllocations(s.str(), 1);  // the op and encodings tables, made once per process
  auto [small, smallOps] = decodeAllocations(s.str(), 10);
  auto [large, largeOps] = decodeAllocations(s.str(), 20);
  // Per op of the ten added copies: the file's tables and debug records cost the same in both.
  double perOp = double(large - small) / double(largeOps - smallOps);
  EXPECT_LT(perOp, 1.55) << large - small << " allocations for " << largeOps - smallOps << " ops";
}

}  // namespace
}  // namespace tilesight::bytecode
