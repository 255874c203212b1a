#include "codegen/simt/staging_layout.h"

#include <algorithm>
#include <map>

namespace tilesight::simt {

namespace {

constexpr int64_t kSegment = 16;  // bytes one row of an 8x8 fragment load reads
constexpr int64_t kBankGroups = 8;  // 32 banks of 4 bytes: 128 bytes, eight 16-byte groups

// Over every 8-row, 16-byte-wide window that a fragment load reads: the
// most of its 8 row segments in one bank group.
int64_t conflictDegreeOf(const layout::Layout& l, int64_t rows, int64_t cols, int64_t elemBytes) {
  int64_t worst = 1, perSegment = kSegment / elemBytes;
  for (int64_t r0 = 0; r0 + 8 <= rows; r0 += 8)
    for (int64_t c0 = 0; c0 + perSegment <= cols; c0 += perSegment) {
      std::map<int64_t, int64_t> groups;
      for (int64_t i = 0; i < 8; ++i) {
        auto at = layout::callCoord(l, layout::IntTuple::tuple({r0 + i, c0}));
        if (!at) return INT64_MAX;
        worst = std::max(worst, ++groups[*at * elemBytes / kSegment % kBankGroups]);
      }
    }
  return worst;
}

}  // namespace

llvm::Expected<StagingLayout> stagingLayout(int64_t rows, int64_t cols, int64_t elemBytes) {
  int64_t perSegment = kSegment / elemBytes;
  int64_t first = (cols + perSegment - 1) / perSegment * perSegment;
  for (int64_t ld = first; ld <= first + 8 * perSegment; ld += perSegment) {
    auto l = layout::makeLayout(layout::IntTuple::tuple({rows, cols}), layout::IntTuple::tuple({ld, 1}));
    if (!l) return llvm::createStringError(llvm::inconvertibleErrorCode(), "staging layout: " + l.error().text());
    layout::Properties p = layout::decide(*l, layout::kInteractiveWorkBudget);
    int64_t degree = conflictDegreeOf(*l, rows, cols, elemBytes);
    if (p.decided && p.injective && degree == 1) return StagingLayout{rows, cols, ld, elemBytes, *l, degree};
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "no padded row-major layout of " + std::to_string(rows) + "x" + std::to_string(cols) +
                                     " is injective and free of bank conflicts");
}

}  // namespace tilesight::simt
