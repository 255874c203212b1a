#include "analysis/ir/types.h"

#include <array>

namespace tilesight {

namespace {
struct ElemInfo {
  Elem e;
  std::string_view name;
  unsigned bits;
};
constexpr std::array<ElemInfo, 16> kElems{{
    {Elem::I1, "i1", 1}, {Elem::I4, "i4", 4}, {Elem::I8, "i8", 8}, {Elem::I16, "i16", 16},
    {Elem::I32, "i32", 32}, {Elem::I64, "i64", 64}, {Elem::F16, "f16", 16}, {Elem::BF16, "bf16", 16},
    {Elem::F32, "f32", 32}, {Elem::TF32, "tf32", 32}, {Elem::F64, "f64", 64},
    {Elem::F8E4M3FN, "f8E4M3FN", 8}, {Elem::F8E5M2, "f8E5M2", 8}, {Elem::F8E8M0FNU, "f8E8M0FNU", 8},
    {Elem::F4E2M1FN, "f4E2M1FN", 4}, {Elem::Index, "index", 64},
}};

// Row k describes Elem k + 1, so that a lookup is an index (the interpreter
// asks per element).
constexpr bool inEnumOrder() {
  for (size_t k = 0; k < kElems.size(); ++k)
    if (static_cast<size_t>(kElems[k].e) != k + 1 || elemBits(kElems[k].e) != kElems[k].bits) return false;
  return true;
}
static_assert(inEnumOrder(), "kElems follows the order of enum Elem, with elemBits' widths");

const ElemInfo* infoOf(Elem e) {
  size_t k = static_cast<size_t>(e);
  return k >= 1 && k <= kElems.size() ? &kElems[k - 1] : nullptr;
}
}  // namespace

std::string_view elemName(Elem e) {
  const ElemInfo* i = infoOf(e);
  return i ? i->name : "none";
}
std::optional<Elem> elemFromName(std::string_view s) {
  for (const auto& i : kElems)
    if (i.name == s) return i.e;
  return std::nullopt;
}
bool isIntElem(Elem e) { return e >= Elem::I1 && e <= Elem::I64; }
bool isFloatElem(Elem e) { return e >= Elem::F16 && e <= Elem::F4E2M1FN; }
bool isBaseFloatElem(Elem e) { return e == Elem::F16 || e == Elem::BF16 || e == Elem::F32 || e == Elem::F64; }

std::string_view paddingName(Padding p) {
  switch (p) {
    case Padding::None: return "";
    case Padding::Zero: return "zero";
    case Padding::NegZero: return "neg_zero";
    case Padding::NaN: return "nan";
    case Padding::PosInf: return "pos_inf";
    case Padding::NegInf: return "neg_inf";
    case Padding::Unknown: return "an unknown value";
  }
  return "";
}

int64_t Type::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0) return 0;
    if (n > (INT64_MAX / d)) return INT64_MAX;
    n *= d;
  }
  return n;
}

ShapeSplit splitAround(const std::vector<int64_t>& shape, size_t d) {
  ShapeSplit s;
  for (size_t i = 0; i < shape.size(); ++i) (i < d ? s.outer : i == d ? s.len : s.inner) *= shape[i];
  return s;
}

std::string shapeString(const std::vector<int64_t>& shape, char sep) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += sep;
    s += shape[i] == kDynamic ? std::string("?") : std::to_string(shape[i]);
  }
  return s;
}

static std::string listString(const std::vector<int64_t>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += sep;
    s += v[i] == kDynamic ? std::string("?") : std::to_string(v[i]);
  }
  return s;
}

// Short spelling inside another cuda_tile type (no `!cuda_tile.` prefix).
static std::string inner(TypeRef t) {
  if (t->kind == TypeKind::Scalar) return t->text;
  constexpr std::string_view prefix = "!cuda_tile.";
  return t->text.starts_with(prefix) ? t->text.substr(prefix.size()) : t->text;
}

TypeContext::TypeContext() {
  Type t;
  t.kind = TypeKind::Token;
  t.text = "!cuda_tile.token";
  token_ = intern(std::move(t));
}

TypeRef TypeContext::intern(Type t) {
  auto it = types_.find(t.text);
  if (it != types_.end()) return it->second.get();
  std::string key = t.text;
  auto owned = std::make_unique<Type>(std::move(t));
  TypeRef r = owned.get();
  types_.emplace(std::move(key), std::move(owned));
  return r;
}

TypeRef TypeContext::scalar(Elem e) {
  Type t;
  t.kind = TypeKind::Scalar;
  t.elem = e;
  t.text = std::string(elemName(e));
  return intern(std::move(t));
}

TypeRef TypeContext::ptr(Elem e) {
  Type t;
  t.kind = TypeKind::Ptr;
  t.elem = e;
  t.text = "!cuda_tile.ptr<" + std::string(elemName(e)) + ">";
  return intern(std::move(t));
}

TypeRef TypeContext::tile(std::vector<int64_t> shape, TypeRef element) {
  Type t;
  t.kind = TypeKind::Tile;
  t.element = element;
  t.text = "!cuda_tile.tile<" + shapeString(shape) + (shape.empty() ? "" : "x") + inner(element) + ">";
  t.shape = std::move(shape);
  return intern(std::move(t));
}

TypeRef TypeContext::tensorView(Elem e, std::vector<int64_t> shape, std::vector<int64_t> strides) {
  Type t;
  t.kind = TypeKind::TensorView;
  t.elem = e;
  t.text = "!cuda_tile.tensor_view<" + shapeString(shape) + (shape.empty() ? "" : "x") + std::string(elemName(e));
  if (!shape.empty() || !strides.empty()) t.text += ", strides=[" + listString(strides, ",") + "]";
  t.text += ">";
  t.shape = std::move(shape);
  t.strides = std::move(strides);
  return intern(std::move(t));
}

static std::string viewSuffix(Padding pad, TypeRef tv) {
  std::string s;
  if (pad != Padding::None && pad != Padding::Unknown) s += "padding_value = " + std::string(paddingName(pad)) + ", ";
  return s + inner(tv);
}

// `masked ` before tile=(...) for a padding the text does not give (see Padding).
static std::string masked(Padding pad) { return pad == Padding::Unknown ? "masked " : ""; }

static bool isIdentity(const std::vector<int64_t>& dimMap) {
  for (size_t i = 0; i < dimMap.size(); ++i)
    if (dimMap[i] != static_cast<int64_t>(i)) return false;
  return true;
}

TypeRef TypeContext::partitionView(std::vector<int64_t> tile, Padding pad, TypeRef tv, std::vector<int64_t> dimMap) {
  Type t;
  t.kind = TypeKind::PartitionView;
  t.text = "!cuda_tile.partition_view<" + masked(pad) + "tile=(" + shapeString(tile) + "), " + viewSuffix(pad, tv);
  if (!isIdentity(dimMap)) t.text += ", dim_map=[" + listString(dimMap, ", ") + "]";
  t.text += ">";
  t.shape = std::move(tile);
  t.padding = pad;
  t.tensorView = tv;
  t.elem = tv ? tv->elem : Elem::None;
  t.dimMap = std::move(dimMap);
  return intern(std::move(t));
}

TypeRef TypeContext::stridedView(std::vector<int64_t> tile, std::vector<int64_t> traversal, Padding pad, TypeRef tv,
                                 std::vector<int64_t> dimMap) {
  Type t;
  t.kind = TypeKind::StridedView;
  t.text = "!cuda_tile.strided_view<" + masked(pad) + "tile=(" + shapeString(tile) + "), traversal_strides=[" +
           listString(traversal, ",") + "], " + viewSuffix(pad, tv);
  if (!isIdentity(dimMap)) t.text += ", dim_map=[" + listString(dimMap, ", ") + "]";
  t.text += ">";
  t.shape = std::move(tile);
  t.strides = std::move(traversal);
  t.padding = pad;
  t.tensorView = tv;
  t.elem = tv ? tv->elem : Elem::None;
  t.dimMap = std::move(dimMap);
  return intern(std::move(t));
}

TypeRef TypeContext::gatherScatterView(std::vector<int64_t> tile, Padding pad, TypeRef tv, int64_t sparseDim) {
  Type t;
  t.kind = TypeKind::GatherScatterView;
  t.text = "!cuda_tile.gather_scatter_view<" + masked(pad) + "tile=(" + shapeString(tile) + "), " + viewSuffix(pad, tv) +
           ", sparse_dim=" + std::to_string(sparseDim) + ">";
  t.shape = std::move(tile);
  t.padding = pad;
  t.tensorView = tv;
  t.elem = tv ? tv->elem : Elem::None;
  t.sparseDim = sparseDim;
  return intern(std::move(t));
}

TypeRef TypeContext::function(std::vector<TypeRef> inputs, std::vector<TypeRef> results) {
  Type t;
  t.kind = TypeKind::Function;
  t.text = "(";
  for (size_t i = 0; i < inputs.size(); ++i) t.text += (i ? ", " : "") + inputs[i]->text;
  t.text += ") -> ";
  if (results.size() == 1 && results[0]->kind != TypeKind::Function) {
    t.text += results[0]->text;
  } else {
    t.text += "(";
    for (size_t i = 0; i < results.size(); ++i) t.text += (i ? ", " : "") + results[i]->text;
    t.text += ")";
  }
  t.inputs = std::move(inputs);
  t.results = std::move(results);
  return intern(std::move(t));
}

TypeRef TypeContext::opaque(std::string text) {
  Type t;
  t.kind = TypeKind::Opaque;
  t.text = std::move(text);
  return intern(std::move(t));
}

std::string quoted(TypeRef t) { return t ? "'" + t->text + "'" : std::string("'<unknown>'"); }

}  // namespace tilesight
