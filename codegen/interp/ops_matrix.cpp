// mmaf, mmai and mmaf_scaled: acc + lhs x rhs per matrix (and per batch for
// 3-D tiles). Each result element sums its products in k order in the
// accumulator's precision (float for f16/f32 accumulators: f16, bf16, tf32
// and f8 products are exact in float), so the result does not depend on how
// the loops are vectorised (gemm_kernel.h).
#include <cstring>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/interp/block_exec.h"
#include "codegen/interp/gemm_kernel.h"
#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

struct Dims {
  int64_t batch = 1, m = 0, k = 0, n = 0;
};

Dims dimsOf(const Tile& lhs, const Tile& rhs) {
  const auto& a = lhs.type->shape;
  const auto& b = rhs.type->shape;
  Dims d;
  if (a.size() == 3) d.batch = a[0];
  d.m = a[a.size() - 2];
  d.k = a[a.size() - 1];
  d.n = b[b.size() - 1];
  return d;
}

// c[i][j] += sum_k a[i][k] * b[k][j] for one m x k x n product in double.
void gemmDouble(const double* a, const double* b, double* c, int64_t m, int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      double ap = a[i * k + p];
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += ap * b[p * n + j];
    }
}

// Products of these formats are exact in float (at most 12 significant bits each).
bool exactInFloat(Elem e) { return e != Elem::F32 && e != Elem::F64; }

void mmaf(BlockExec& x, const Operation& op) {
  const Tile& a = x.tile(op.operands[0].value);
  const Tile& b = x.tile(op.operands[1].value);
  const Tile& acc = x.tile(op.operands[2].value);
  auto r = x.result(op);
  Dims d = dimsOf(a, b);
  if (r->store == Store::F64) {
    std::memcpy(r->f64(), acc.f64(), r->n * 8);
    for (int64_t q = 0; q < d.batch; ++q)
      gemmDouble(a.f64() + q * d.m * d.k, b.f64() + q * d.k * d.n, r->f64() + q * d.m * d.n, d.m, d.k, d.n);
    return;
  }
  bool exact = exactInFloat(a.elem) && exactInFloat(b.elem);
  for (int64_t q = 0; q < d.batch; ++q)
    gemmFloat(a.f32() + q * d.m * d.k, b.f32() + q * d.k * d.n, acc.f32() + q * d.m * d.n, r->f32() + q * d.m * d.n,
              d.m, d.k, d.n, exact);
  if (r->elem != Elem::F32)
    for (int64_t i = 0; i < r->n; ++i) r->f32()[i] = static_cast<float>(runtime::roundTo(r->elem, r->f32()[i]));
}

void mmai(BlockExec& x, const Operation& op) {
  const Tile& a = x.tile(op.operands[0].value);
  const Tile& b = x.tile(op.operands[1].value);
  const Tile& acc = x.tile(op.operands[2].value);
  bool sa = attrValue<Signedness>(op, attr_names::signednessLhs).value_or(Signedness::Signed) == Signedness::Signed;
  bool sb = attrValue<Signedness>(op, attr_names::signednessRhs).value_or(Signedness::Signed) == Signedness::Signed;
  auto r = x.result(op);
  Dims d = dimsOf(a, b);
  unsigned bits = intBits(r->elem);
  auto value = [](bool s, int64_t v) { return s ? v : static_cast<int64_t>(unsignedOf(8, v)); };
  for (int64_t q = 0; q < d.batch; ++q)
    for (int64_t i = 0; i < d.m; ++i)
      for (int64_t j = 0; j < d.n; ++j) {
        int64_t at = (q * d.m + i) * d.n + j;
        uint64_t sum = static_cast<uint64_t>(acc.ints()[at]);
        for (int64_t p = 0; p < d.k; ++p)
          sum += static_cast<uint64_t>(value(sa, a.ints()[(q * d.m + i) * d.k + p]) *
                                       value(sb, b.ints()[(q * d.k + p) * d.n + j]));
        r->ints()[at] = runtime::wrapInt(bits, static_cast<int64_t>(sum));
      }
}

// Each block of `block` consecutive k shares one scale per row of lhs (and
// per column of rhs).
void mmafScaled(BlockExec& x, const Operation& op) {
  const Tile& a = x.tile(op.operands[0].value);
  const Tile& b = x.tile(op.operands[1].value);
  const Tile& acc = x.tile(op.operands[2].value);
  const Tile& as = x.tile(op.operands[3].value);
  const Tile& bs = x.tile(op.operands[4].value);
  auto r = x.result(op);
  Dims d = dimsOf(a, b);
  int64_t groups = as.type->shape.back();
  int64_t block = groups ? d.k / groups : d.k;
  for (int64_t q = 0; q < d.batch; ++q)
    for (int64_t i = 0; i < d.m; ++i)
      for (int64_t j = 0; j < d.n; ++j) {
        int64_t at = (q * d.m + i) * d.n + j;
        float sum = acc.f32()[at];
        for (int64_t p = 0; p < d.k; ++p) {
          float sa = as.f32()[(q * d.m + i) * groups + p / block];
          float sb = bs.f32()[(q * groups + p / block) * d.n + j];
          sum += (a.f32()[(q * d.m + i) * d.k + p] * sa) * (b.f32()[(q * d.k + p) * d.n + j] * sb);
        }
        r->f32()[at] = sum;
      }
}

}  // namespace

void evalMatrix(BlockExec& x, const Operation& op, OpKind k) {
  switch (k) {
    case OpKind::Mmaf: return mmaf(x, op);
    case OpKind::Mmai: return mmai(x, op);
    case OpKind::MmafScaled: return mmafScaled(x, op);
    default: x.fail(op, "not a matrix op");
  }
}

}  // namespace tilesight::interp
