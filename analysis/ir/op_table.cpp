#include "analysis/ir/op_table.h"

#include <initializer_list>
#include <iterator>

#include "analysis/ir/shared_formats.h"

namespace tilesight {

namespace {

constexpr uint32_t bit(Elem e) { return 1u << static_cast<unsigned>(e); }
constexpr uint32_t bits(std::initializer_list<Elem> es) {
  uint32_t m = 0;
  for (Elem e : es) m |= bit(e);
  return m;
}
constexpr uint32_t kInt = bits({Elem::I1, Elem::I8, Elem::I16, Elem::I32, Elem::I64});
constexpr uint32_t kBaseFloat = bits({Elem::F16, Elem::BF16, Elem::F32, Elem::F64});
constexpr uint32_t kFloat = kBaseFloat | bits({Elem::TF32, Elem::F8E4M3FN, Elem::F8E5M2, Elem::F8E8M0FNU, Elem::F4E2M1FN});
constexpr uint32_t kNumber = kInt | kFloat;

// Constraint codes used in the table below.
Constraint constraintFor(std::string_view code) {
  using K = Constraint::Kind;
  auto tile = [](uint32_t elems, std::string_view d, bool scalar = false) {
    Constraint c;
    c.kind = K::Tile;
    c.elems = elems;
    c.scalar = scalar;
    c.description = d;
    return c;
  };
  if (code == "Int") return tile(kInt, "tile of i1, i8, i16, i32 or i64");
  if (code == "Int4") return tile(kInt | bit(Elem::I4), "tile of i1, i4, i8, i16, i32 or i64");
  if (code == "BF") return tile(kBaseFloat, "tile of f16, bf16, f32 or f64");
  if (code == "F") return tile(kFloat, "tile of a float type");
  if (code == "Num") return tile(kNumber, "tile of a number type");
  if (code == "Num4") return tile(kNumber | bit(Elem::I4), "tile of a number type or i4");
  if (code == "I1") return tile(bit(Elem::I1), "tile of i1");
  if (code == "sI1") return tile(bit(Elem::I1), "scalar tile of i1", true);
  if (code == "I8") return tile(bit(Elem::I8), "tile of i8");
  if (code == "I64") return tile(bit(Elem::I64), "tile of i64");
  if (code == "sI32") return tile(bit(Elem::I32), "scalar tile of i32", true);
  if (code == "sInt") return tile(kInt, "scalar integer tile", true);
  if (code == "F32") return tile(bit(Elem::F32), "tile of f32");
  if (code == "MmaIn") return tile(kBaseFloat | bits({Elem::TF32, Elem::F8E4M3FN, Elem::F8E5M2}),
                                   "tile of f16, bf16, f32, f64, tf32, f8E4M3FN or f8E5M2");
  if (code == "MmaAcc") return tile(bits({Elem::F16, Elem::F32, Elem::F64}), "tile of f16, f32 or f64");
  if (code == "MmaSIn") return tile(bits({Elem::F8E4M3FN, Elem::F8E5M2, Elem::F4E2M1FN}),
                                    "tile of f8E4M3FN, f8E5M2 or f4E2M1FN");
  if (code == "MmaSScale") return tile(bits({Elem::F8E4M3FN, Elem::F8E8M0FNU}), "tile of f8E4M3FN or f8E8M0FNU");
  if (code == "Ptr" || code == "sPtr") {
    Constraint c = tile(0, code == "Ptr" ? "tile of pointers" : "scalar tile of a pointer", code == "sPtr");
    c.ptrElem = c.ptrOnly = true;
    return c;
  }
  if (code == "T") {
    Constraint c = tile(0, "tile");
    c.ptrElem = true;
    return c;
  }
  Constraint c;
  if (code == "Tok") { c.kind = K::Token; c.description = "token"; }
  else if (code == "TV") { c.kind = K::TensorView; c.description = "tensor_view"; }
  else if (code == "View") { c.kind = K::View; c.description = "tile view (partition, strided or gather/scatter)"; }
  else if (code == "PV") { c.kind = K::PartitionView; c.description = "partition_view"; }
  else if (code == "SV") { c.kind = K::StridedView; c.description = "strided_view"; }
  else if (code == "GV") { c.kind = K::GatherScatterView; c.description = "gather_scatter_view"; }
  else { c.kind = K::Any; c.description = "any type"; }
  return c;
}

// "lhs:Int rhs:Int mask:I1? idx:sInt*"
std::vector<GroupDecl> groups(std::string_view spec) {
  std::vector<GroupDecl> out;
  while (!spec.empty()) {
    size_t sp = spec.find(' ');
    std::string_view item = spec.substr(0, sp);
    spec = sp == std::string_view::npos ? std::string_view() : spec.substr(sp + 1);
    if (item.empty()) continue;
    GroupDecl g;
    if (item.back() == '?') { g.arity = Arity::Optional; item.remove_suffix(1); }
    else if (item.back() == '*') { g.arity = Arity::Variadic; item.remove_suffix(1); }
    size_t colon = item.find(':');
    g.name = std::string(item.substr(0, colon));
    g.constraint = constraintFor(colon == std::string_view::npos ? "Any" : item.substr(colon + 1));
    out.push_back(std::move(g));
  }
  return out;
}

struct Row {
  OpKind kind;
  std::string_view name;
  OpCategory category;
  std::string_view since, format, operands, results;
  uint32_t traits;
  std::string_view doc;
};

using namespace formats;

const Row kRows[] = {
#define TILE_OP(kind, name, category, since, format, operands, results, traits, verify, doc) \
  {OpKind::kind, name, OpCategory::category, since, format, operands, results, traits, doc},
#include "analysis/ir/ops.def"
#undef TILE_OP
};

}  // namespace

bool Constraint::accepts(TypeRef t) const {
  if (!t) return true;  // unknown after an error: stay silent
  switch (kind) {
    case Any: return true;
    case Token: return t->isToken();
    case TensorView: return t->kind == TypeKind::TensorView;
    case View: return t->isView();
    case PartitionView: return t->kind == TypeKind::PartitionView;
    case StridedView: return t->kind == TypeKind::StridedView;
    case GatherScatterView: return t->kind == TypeKind::GatherScatterView;
    case Tile: break;
  }
  if (!t->isTile()) return false;
  if (scalar && !t->shape.empty()) return false;
  if (t->isPtrTile()) return ptrElem;
  if (ptrOnly) return false;
  return elems == 0 || (elems & (1u << static_cast<unsigned>(t->tileElem())));
}

TypeRef Constraint::buildable(TypeContext& ctx) const {
  if (kind == Token) return ctx.token();
  if (kind == Tile && scalar && !ptrElem && elems && (elems & (elems - 1)) == 0) {
    for (unsigned e = 0; e < 32; ++e)
      if (elems == (1u << e)) return ctx.tile({}, static_cast<Elem>(e));
  }
  return nullptr;
}

// Format elements name operand/result groups; the parser wants indices.
void OpTable::resolveGroups(const OpInfo& op, std::vector<FormatElem>& elems) {
  for (FormatElem& e : elems) {
    for (const auto& n : e.names) {
      e.operandIdx.push_back(op.operandGroup(n));
      e.resultIdx.push_back(op.resultGroup(n));
    }
    resolveGroups(op, e.children);
  }
}

namespace {
const FormatElem* attrIn(const std::vector<FormatElem>& elems, std::string_view name) {
  for (const FormatElem& e : elems) {
    if (e.kind == FormatElem::Attr)
      for (const std::string& n : e.names)
        if (n == name) return &e;
    if (const FormatElem* inner = attrIn(e.children, name)) return inner;
  }
  return nullptr;
}
}  // namespace

const FormatElem* OpInfo::attrSyntax(std::string_view name) const { return attrIn(syntax, name); }

std::string_view OpInfo::attrDefault(std::string_view name) const {
  const FormatElem* e = attrSyntax(name);
  return e ? std::string_view(e->dflt) : std::string_view();
}

int OpInfo::operandGroup(std::string_view n) const {
  for (size_t i = 0; i < operands.size(); ++i)
    if (operands[i].name == n) return static_cast<int>(i);
  return -1;
}

int OpInfo::resultGroup(std::string_view n) const {
  for (size_t i = 0; i < results.size(); ++i)
    if (results[i].name == n) return static_cast<int>(i);
  return -1;
}

std::string_view categoryName(OpCategory c) {
  switch (c) {
    case OpCategory::Integer: return "integer";
    case OpCategory::Float: return "float";
    case OpCategory::Conversion: return "conversion";
    case OpCategory::Core: return "core";
    case OpCategory::Memory: return "memory";
    case OpCategory::View: return "view";
    case OpCategory::Control: return "control";
    case OpCategory::Top: return "top";
  }
  return "";
}

static_assert(std::size(kRows) == kOpKindCount);

OpTable::OpTable() {
  for (const Row& r : kRows)
    ops_.push_back({r.kind, r.name, "cuda_tile." + std::string(r.name), r.category, r.since, r.format,
                    groups(r.operands), groups(r.results), r.traits, r.doc, compileFormat(r.format)});
  for (OpInfo& op : ops_) {
    resolveGroups(op, op.syntax);
    byName_[op.name] = &op;
  }
}

const OpTable& OpTable::get() {
  static const OpTable table;
  return table;
}

const OpInfo* OpTable::lookup(std::string_view name) const {
  if (name.starts_with("cuda_tile.")) name.remove_prefix(10);
  auto it = byName_.find(llvm::StringRef(name.data(), name.size()));
  return it == byName_.end() ? nullptr : it->second;
}

}  // namespace tilesight
