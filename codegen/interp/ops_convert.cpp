// Conversions: integer widths, float formats (float_formats.h has the
// spec's rounding, saturation and NaN rules), bit casts and pointers.
#include <bit>
#include <cmath>

#include "analysis/ir/attr_values.h"
#include "codegen/interp/block_exec.h"
#include "codegen/interp/elements.h"
#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

bool isSigned(const Operation& op) { return signednessOf(op).value_or(Signedness::Signed) == Signedness::Signed; }

void setFloat(Tile& t, int64_t k, double v) {
  if (t.store == Store::F64) t.f64()[k] = v;
  else t.f32()[k] = static_cast<float>(v);
}

// An integer value (signed or unsigned 64-bit) as a double rounded to odd:
// truncated to 53 significant bits, the last one set when any were dropped.
// Rounding that once more to a format of at most 51 bits gives the same as
// rounding the integer itself; a nearest rounding to double first could
// land on a tie of the narrow format that the integer is not on (bf16 keeps
// 8 bits and reaches 2^127, so 64-bit integers meet it).
double oddDouble(int64_t v, bool isSignedValue) {
  bool negative = isSignedValue && v < 0;
  uint64_t m = negative ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int shift = std::bit_width(m) - 53;
  double d = static_cast<double>(m);
  if (shift > 0) d = std::ldexp(static_cast<double>((m >> shift) | ((m & ((uint64_t{1} << shift) - 1)) != 0)), shift);
  return negative ? -d : d;
}

// An integer value (signed or unsigned 64-bit) rounded once to format e.
double intToFloat(Elem e, int64_t v, bool isSignedValue) {
  long double exact = isSignedValue ? static_cast<long double>(v) : static_cast<long double>(static_cast<uint64_t>(v));
  if (e == Elem::F32) return static_cast<float>(exact);  // long double holds every 64-bit integer
  if (e == Elem::F64) return static_cast<double>(exact);
  return runtime::roundTo(e, oddDouble(v, isSignedValue));
}

// Pointer values count nibbles for 4-bit pointees; integers are byte addresses.
int64_t pointerToInt(Elem pointee, int64_t p) { return static_cast<int64_t>(runtime::byteAddress(pointee, static_cast<uint64_t>(p))); }
int64_t intToPointer(Elem pointee, int64_t a) { return static_cast<int64_t>(runtime::pointerTo(pointee, static_cast<uint64_t>(a))); }

Elem pointeeOf(TypeRef tile) { return tile->element->elem; }

}  // namespace

void evalConversion(BlockExec& x, const Operation& op, OpKind k) {
  const Tile& a = x.tile(op.operands[0].value);
  auto r = x.result(op);
  unsigned from = intBits(a.elem), to = intBits(r->elem);
  switch (k) {
    case OpKind::Exti: {
      bool s = isSigned(op);
      for (int64_t i = 0; i < r->n; ++i) r->ints()[i] = wrapInt(to, resizeInt(from, to, s, a.ints()[i]));
      return;
    }
    case OpKind::Trunci:
      for (int64_t i = 0; i < r->n; ++i) r->ints()[i] = wrapInt(to, resizeInt(from, to, true, a.ints()[i]));
      return;
    case OpKind::Ftof: {
      Rounding rnd = roundingOf(op).value_or(Rounding::NearestEven);
      for (int64_t i = 0; i < r->n; ++i) setFloat(*r, i, runtime::roundTo(r->elem, a.asDouble(i), rnd));
      return;
    }
    case OpKind::Ftoi: {
      Signedness s = isSigned(op) ? Signedness::Signed : Signedness::Unsigned;
      for (int64_t i = 0; i < r->n; ++i) r->ints()[i] = runtime::wrapInt(to, runtime::floatToInt(a.asDouble(i), to, s));
      return;
    }
    case OpKind::Itof: {
      bool s = isSigned(op);
      for (int64_t i = 0; i < r->n; ++i) {
        int64_t v = s ? signedOf(from, a.ints()[i]) : static_cast<int64_t>(unsignedOf(from, a.ints()[i]));
        setFloat(*r, i, intToFloat(r->elem, v, s || from < 64));
      }
      return;
    }
    case OpKind::Bitcast:
      for (int64_t i = 0; i < r->n; ++i) setExactBits(*r, i, exactBits(a, i));
      return;
    case OpKind::PtrToInt:
      for (int64_t i = 0; i < r->n; ++i) r->ints()[i] = pointerToInt(pointeeOf(a.type), a.ints()[i]);
      return;
    case OpKind::IntToPtr:
      for (int64_t i = 0; i < r->n; ++i) r->ints()[i] = intToPointer(pointeeOf(r->type), a.ints()[i]);
      return;
    case OpKind::PtrToPtr:
      for (int64_t i = 0; i < r->n; ++i)
        r->ints()[i] = intToPointer(pointeeOf(r->type), pointerToInt(pointeeOf(a.type), a.ints()[i]));
      return;
    default: x.fail(op, "not a conversion");
  }
}

}  // namespace tilesight::interp
