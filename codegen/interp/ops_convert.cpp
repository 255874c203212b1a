// Conversions: integer widths, float formats (float_formats.h has the
// spec's rounding, saturation and NaN rules), bit casts and pointers.
#include "analysis/ir/attr_values.h"
#include "codegen/interp/block_exec.h"
#include "codegen/interp/elements.h"
#include "codegen/interp/float_formats.h"

namespace tilesight::interp {

namespace {

bool isSigned(const Operation& op) { return signednessOf(op).value_or(Signedness::Signed) == Signedness::Signed; }

void setFloat(Tile& t, int64_t k, double v) {
  if (t.store == Store::F64) t.f64()[k] = v;
  else t.f32()[k] = static_cast<float>(v);
}

// An integer value (signed or unsigned 64-bit) rounded once to format e.
double intToFloat(Elem e, int64_t v, bool isSignedValue) {
  long double exact = isSignedValue ? static_cast<long double>(v) : static_cast<long double>(static_cast<uint64_t>(v));
  if (e == Elem::F32) return static_cast<float>(exact);  // long double holds every 64-bit integer
  if (e == Elem::F64) return static_cast<double>(exact);
  return roundTo(e, static_cast<double>(exact));  // |v| > 2^53 overflows these formats or rounds twice harmlessly
}

// Pointer values count nibbles for 4-bit pointees; integers are byte addresses.
int64_t pointerToInt(Elem pointee, int64_t p) { return nibblePointers(pointee) ? p / 2 : p; }
int64_t intToPointer(Elem pointee, int64_t a) { return nibblePointers(pointee) ? a * 2 : a; }

Elem pointeeOf(TypeRef tile) { return tile->element->elem; }

}  // namespace

void evalConversion(BlockExec& x, const Operation& op, OpKind k) {
  const Tile& a = x.tile(op.operands[0].value);
  auto r = x.result(op);
  unsigned from = intBits(a.elem), to = intBits(r->elem);
  switch (k) {
    case OpKind::Exti: {
      bool s = isSigned(op);
      for (int64_t i = 0; i < r->n; ++i)
        r->ints()[i] = wrapInt(to, s ? signedOf(from, a.ints()[i]) : static_cast<int64_t>(unsignedOf(from, a.ints()[i])));
      return;
    }
    case OpKind::Trunci:
      for (int64_t i = 0; i < r->n; ++i) r->ints()[i] = wrapInt(to, a.ints()[i]);
      return;
    case OpKind::Ftof: {
      Rounding rnd = roundingOf(op).value_or(Rounding::NearestEven);
      for (int64_t i = 0; i < r->n; ++i) setFloat(*r, i, roundTo(r->elem, a.asDouble(i), rnd));
      return;
    }
    case OpKind::Ftoi: {
      Signedness s = isSigned(op) ? Signedness::Signed : Signedness::Unsigned;
      for (int64_t i = 0; i < r->n; ++i) r->ints()[i] = wrapInt(to, floatToInt(a.asDouble(i), to, s));
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
      for (int64_t i = 0; i < r->n; ++i) {
        uint64_t bits = storageBits(a, i);
        if (r->store == Store::Int) r->ints()[i] = wrapInt(to, static_cast<int64_t>(bits));
        else setFloat(*r, i, decodeFloat(r->elem, bits));
      }
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
