#pragma once
// Tile IR types, interned: two equal types are the same pointer, so type
// equality (the spec's "same type" rules) is a pointer comparison.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tilesight {

// Element types of the spec (seed 001 §5), plus `index` for builtin attributes.
enum class Elem : uint8_t {
  None, I1, I4, I8, I16, I32, I64, F16, BF16, F32, TF32, F64,
  F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN, Index,
};
std::string_view elemName(Elem e);
std::optional<Elem> elemFromName(std::string_view s);
bool isIntElem(Elem e);        // i1..i64 (and i4)
bool isFloatElem(Elem e);      // every float format
bool isBaseFloatElem(Elem e);  // f16, bf16, f32, f64
// Bits of one element (0 for None). Inline: the interpreter asks per element.
constexpr unsigned elemBits(Elem e) {
  constexpr unsigned kBits[] = {0, 1, 4, 8, 16, 32, 64, 16, 16, 32, 32, 64, 8, 8, 8, 4, 64};
  auto k = static_cast<size_t>(e);
  return k < sizeof(kBits) / sizeof(kBits[0]) ? kBits[k] : 0;
}

enum class TypeKind : uint8_t {
  Scalar,   // a bare element type (i32, f32): builtin, used by attributes
  Ptr,      // ptr<E>
  Tile,     // tile<SHAPE x E> where E is a scalar or a ptr
  TensorView,
  PartitionView,
  StridedView,
  GatherScatterView,
  Token,
  Function,  // (A, B) -> C, in generic op signatures
  Opaque,    // anything else (other dialects, builtin tensor<...>): kept as text
};

// Unknown: the view pads, but the text does not say with what. Bytecode
// decoders print such a view as `partition_view<masked tile=(...), ...>` and
// leave the value out; NVIDIA's text form always names it.
enum class Padding : uint8_t { None, Zero, NegZero, NaN, PosInf, NegInf, Unknown };
std::string_view paddingName(Padding p);

constexpr int64_t kDynamic = INT64_MIN;  // `?` in tensor_view shapes and strides

struct Type;
using TypeRef = const Type*;

struct Type {
  TypeKind kind = TypeKind::Opaque;
  Elem elem = Elem::None;          // Scalar, Ptr pointee, TensorView element
  TypeRef element = nullptr;       // Tile: scalar or ptr element type
  std::vector<int64_t> shape;      // Tile shape, TensorView shape, view tile shape
  std::vector<int64_t> strides;    // TensorView strides, StridedView traversal strides
  std::vector<int64_t> dimMap;     // views
  TypeRef tensorView = nullptr;    // views
  Padding padding = Padding::None; // views
  int64_t sparseDim = -1;          // gather_scatter_view
  std::vector<TypeRef> inputs, results;  // Function
  std::string text;                // canonical spelling, e.g. !cuda_tile.tile<4xf32>

  bool isTile() const { return kind == TypeKind::Tile; }
  bool isView() const {
    return kind == TypeKind::PartitionView || kind == TypeKind::StridedView || kind == TypeKind::GatherScatterView;
  }
  bool isToken() const { return kind == TypeKind::Token; }
  // For tiles: the scalar element (Elem::None for pointer tiles).
  Elem tileElem() const { return element && element->kind == TypeKind::Scalar ? element->elem : Elem::None; }
  bool isPtrTile() const { return isTile() && element && element->kind == TypeKind::Ptr; }
  bool isScalarTile() const { return isTile() && shape.empty(); }
  int64_t numElements() const;
  // Index-space rank of a view (rank of the tensor_view; for views, their tile rank).
  size_t viewIndexRank() const { return shape.size(); }
};

// Owns and interns types. One per analysis (no globals).
class TypeContext {
public:
  TypeContext();
  TypeRef scalar(Elem e);
  TypeRef ptr(Elem e);
  TypeRef tile(std::vector<int64_t> shape, TypeRef element);
  TypeRef tile(std::vector<int64_t> shape, Elem e) { return tile(std::move(shape), scalar(e)); }
  TypeRef token() { return token_; }
  TypeRef tensorView(Elem e, std::vector<int64_t> shape, std::vector<int64_t> strides);
  TypeRef partitionView(std::vector<int64_t> tile, Padding pad, TypeRef tv, std::vector<int64_t> dimMap);
  TypeRef stridedView(std::vector<int64_t> tile, std::vector<int64_t> traversal, Padding pad, TypeRef tv,
                      std::vector<int64_t> dimMap);
  TypeRef gatherScatterView(std::vector<int64_t> tile, Padding pad, TypeRef tv, int64_t sparseDim);
  TypeRef function(std::vector<TypeRef> inputs, std::vector<TypeRef> results);
  TypeRef opaque(std::string text);

private:
  TypeRef intern(Type t);
  std::unordered_map<std::string, std::unique_ptr<Type>> types_;
  TypeRef token_;
};

std::string shapeString(const std::vector<int64_t>& shape, char sep = 'x');
// A shape around dimension d as outer x len x inner (reduce and scan walk it so).
struct ShapeSplit {
  int64_t outer = 1, len = 1, inner = 1;
};
ShapeSplit splitAround(const std::vector<int64_t>& shape, size_t d);
// Spelling of a type in messages: quoted canonical form, '!cuda_tile.tile<4xf32>'.
std::string quoted(TypeRef t);

}  // namespace tilesight
