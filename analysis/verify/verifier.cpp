#include "analysis/verify/verifier.h"

#include <unordered_map>

#include <llvm/ADT/DenseSet.h>

#include "analysis/ir/op_accessors.h"
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight {

using rules::OpRef;

void verifyWrittenTypes(const SideTable& side, size_t begin, size_t end, DiagSink& diags) {
  // A type that passed once passes everywhere; a bad one is reported at each spelling.
  llvm::DenseSet<TypeRef> valid;
  for (size_t i = begin; i < end; ++i) {
    const Occurrence& o = side.occurrences[i];
    if (o.kind != Occurrence::TypeUse || valid.contains(o.type)) continue;
    size_t before = diags.all().size();
    checkType(o.type, o.range, diags);
    if (diags.all().size() == before) valid.insert(o.type);
  }
}

namespace {

void checkConstraints(const OpRef& o, DiagSink& diags) {
  const OpInfo& info = *o.op.info;
  size_t next = 0;
  for (size_t gi = 0; gi < info.operands.size() && gi < o.op.segments.size(); ++gi) {
    const GroupDecl& g = info.operands[gi];
    uint32_t count = o.op.segments[gi];
    for (uint32_t i = 0; i < count && next < o.op.operands.size(); ++i, ++next) {
      const Operand& opnd = o.op.operands[next];
      TypeRef t = o.p.typeOf(opnd.value);
      if (g.constraint.accepts(t)) continue;
      std::string which = count > 1 ? "operand '" + g.name + "' #" + std::to_string(i) : "operand '" + g.name + "'";
      rules::failAt(diags, o, opnd.range,
                    which + " must be a " + std::string(g.constraint.description) + ", got " + quoted(t));
    }
  }
  size_t ri = 0;
  for (const auto& g : info.results) {
    // A variadic result group takes what is left (ops have at most one).
    size_t n = g.arity == Arity::One ? 1 : (o.op.results.size() >= ri ? o.op.results.size() - ri : 0);
    for (size_t k = 0; k < n && ri < o.op.results.size(); ++k, ++ri) {
      TypeRef t = o.p.typeOf(o.op.results[ri]);
      if (!g.constraint.accepts(t))
        rules::fail(diags, o, "result '" + g.name + "' must be a " + std::string(g.constraint.description) + ", got " +
                                  quoted(t));
    }
  }
}

// Every region of a Tile IR op holds exactly one block (the generic form can
// spell none, or several with labels).
void checkRegionShapes(const OpRef& o, DiagSink& diags) {
  for (size_t i = 0; i < o.op.regions.size(); ++i) {
    const Region& r = o.op.regions[i];
    bool optionalElse = o.op.info->kind == OpKind::If && i == 1;  // an empty else region is no else
    if (r.blocks.size() != 1 && !(optionalElse && r.blocks.empty()))
      rules::fail(diags, o, "each region must hold exactly one block, this one has " + std::to_string(r.blocks.size()));
  }
}

// Ops that belong in a module versus inside a function body.
void checkPlacement(const OpRef& o, DiagSink& diags) {
  const Operation* parent = o.op.parent == kNoId ? nullptr : &o.p.op(o.op.parent);
  bool parentIsModule = parent && parent->info && parent->info->kind == OpKind::Module;
  bool parentIsBuiltin = !parent || (!parent->info && parent->name == "builtin.module");
  bool topLevelOp = o.op.info->traits & kTopLevel;
  std::string_view n = o.op.info->name;
  if (o.op.info->kind == OpKind::Module) {
    if (!parentIsBuiltin) rules::fail(diags, o, "a module must be at the top level of the file");
    return;
  }
  if (topLevelOp) {
    if (!parentIsModule && !(o.op.info->kind == OpKind::TestingFunc && parentIsBuiltin))
      rules::fail(diags, o, std::string(n) + " must be directly inside a cuda_tile.module");
    return;
  }
  // NVIDIA's tools accept ops at the builtin top level (their tests rely on it),
  // but a cuda_tile.module holds only entries and globals.
  if (parentIsModule)
    rules::fail(diags, o, "a cuda_tile.module holds only entries and globals; move this operation into an entry");
}

}  // namespace

void verifySymbols(const Program& p, DiagSink& diags) {
  for (const auto& op : p.ops) {
    if (!op.info || op.info->kind != OpKind::Module || op.regions.empty()) continue;
    std::unordered_map<std::string, const Operation*> defs;
    for (const auto& b : op.regions[0].blocks)
      for (OpId id : b.ops) {
        const Operation& item = p.op(id);
        const Attr* sym = attrs::symName(item);
        if (!sym) continue;
        auto [it, fresh] = defs.emplace(sym->s, &item);
        if (!fresh) {
          auto& d = diags.error(sym->range, "type", "redefinition of symbol " + sym->s);
          d.notes.push_back({attrs::symName(*it->second)->range, "first defined here"});
        }
      }
  }
}

void verifyOps(const Program& p, OpId begin, OpId end, DiagSink& diags) {
  for (OpId id = begin; id < end; ++id) {
    const Operation& op = p.op(id);
    if (!op.info) continue;  // unregistered or broken ops: the parser already spoke
    OpRef o{p, op};
    checkPlacement(o, diags);
    checkRegionShapes(o, diags);
    if (op.broken || (op.generic && op.segments.size() != op.info->operands.size())) continue;
    size_t before = diags.errorCount();
    checkConstraints(o, diags);
    rules::VerifyFn rule = rules::ruleOf(op.info->kind);
    if (diags.errorCount() == before && rule) rule(p, op, diags);
  }
}

}  // namespace tilesight
