// The printer's core: ops, result names, regions and blocks, the generic form.
#include "analysis/ir/printer.h"

#include <algorithm>
#include <numeric>

#include "analysis/ir/print_writer.h"

namespace tilesight {

namespace print {

namespace {

// No space after an opening bracket, none before a closing one or a comma.
bool opensTight(char c) { return c == '(' || c == '[' || c == '<'; }
bool closesTight(char c) { return c == ')' || c == ']' || c == '>' || c == ','; }

// `module` alone is the builtin module: the dialect's own needs its prefix.
std::string_view mnemonic(const OpInfo& info) {
  return info.kind == OpKind::Module ? std::string_view(info.fullName) : info.name;
}

// The builtin `module { ... }` wrapper is the one op the parser keeps
// without a table row and without the generic form.
bool isBuiltinModule(const Operation& op) { return !op.info && !op.generic && op.name == "builtin.module"; }

}  // namespace

llvm::ArrayRef<Operand> operandGroup(const Operation& op, size_t g) {
  if (g >= op.segments.size()) return {};
  size_t begin = std::accumulate(op.segments.begin(), op.segments.begin() + g, size_t{0});
  if (begin >= op.operands.size()) return {};
  size_t n = std::min<size_t>(op.segments[g], op.operands.size() - begin);
  return llvm::ArrayRef<Operand>(op.operands).slice(begin, n);
}

// Result groups are One or Variadic (ops.def has no optional result): the one
// variadic group, if any, holds what the others leave.
llvm::ArrayRef<ValueId> resultGroup(const Operation& op, size_t g) {
  const auto& decls = op.info->results;
  if (g >= decls.size()) return {};
  size_t fixed = 0;
  for (const GroupDecl& d : decls) fixed += d.arity != Arity::Variadic;
  size_t rest = op.results.size() > fixed ? op.results.size() - fixed : 0;
  size_t begin = 0;
  for (size_t i = 0; i < g; ++i) begin += decls[i].arity == Arity::Variadic ? rest : 1;
  size_t n = decls[g].arity == Arity::Variadic ? rest : 1;
  llvm::ArrayRef<ValueId> all(op.results);
  if (begin >= all.size()) return {};
  return all.slice(begin, std::min(n, all.size() - begin));
}

void Writer::word(std::string_view w) {
  if (w.empty()) return;
  bool lineStart = out_.empty() || out_.back() == '\n' || out_.back() == ' ';
  bool tight = lineStart || opensTight(out_.back()) || closesTight(w.front()) || (w == "[" && afterValue_);
  if (!tight) out_ += ' ';
  out_ += w;
  afterValue_ = false;
}

void Writer::glue(std::string_view w) {
  out_ += w;
  afterValue_ = false;
}

void Writer::newline() {
  out_ += '\n';
  out_.append(2 * indent_, ' ');
}

// A value prints as spelled; an operand that did not resolve (a broken
// program) as the text written there.
void Writer::value(const Operand& o) {
  std::string_view name = o.value == kNoId ? std::string_view() : p_.value(o.value).name;
  if (name.empty()) name = p_.source.substr(o.range.begin, o.range.end - o.range.begin);
  word(name);
  afterValue_ = true;
}

void Writer::values(llvm::ArrayRef<Operand> os) {
  for (size_t i = 0; i < os.size(); ++i) {
    if (i) glue(",");
    value(os[i]);
  }
}

void Writer::types(llvm::ArrayRef<TypeRef> ts) {
  for (size_t i = 0; i < ts.size(); ++i) {
    if (i) glue(",");
    type(ts[i]);
  }
}

std::vector<TypeRef> Writer::typesOf(llvm::ArrayRef<Operand> os) const {
  std::vector<TypeRef> out;
  for (const Operand& o : os) out.push_back(p_.typeOf(o.value));
  return out;
}

std::vector<TypeRef> Writer::typesOf(llvm::ArrayRef<ValueId> vs) const {
  std::vector<TypeRef> out;
  for (ValueId v : vs) out.push_back(p_.typeOf(v));
  return out;
}

std::string Writer::argList(const Block& b) const {
  std::string s = "(";
  for (size_t i = 0; i < b.args.size(); ++i) {
    const Value& v = p_.value(b.args[i]);
    s += (i ? ", " : "") + std::string(v.name) + ": " + typeText(v.type);
  }
  return s + ")";
}

void Writer::attrDict(const Operation& op, const Claims& c, bool keyword) {
  std::string dict = dictText(op.attrs, c.taken());
  if (dict.empty()) return;
  if (keyword) word("attributes");
  word(dict);
}

void Writer::region(const Region& r, EntryArgs entry) {
  word("{");
  ++indent_;
  for (size_t i = 0; i < r.blocks.size(); ++i) block(r, i, entry);
  --indent_;
  newline();
  glue("}");
}

// Blocks after the first start with a label, and so does a first block whose
// arguments the op does not write. The parser never makes an empty block
// without arguments before another one, so labels read back as the same blocks.
void Writer::block(const Region& r, size_t index, EntryArgs entry) {
  const Block& b = r.blocks[index];
  bool emptyGeneric = entry == EntryArgs::Generic && r.blocks.size() == 1 && b.ops.empty();
  if (index > 0 || (entry != EntryArgs::ByOp && !b.args.empty()) || emptyGeneric) {
    --indent_;
    newline();
    glue("^bb" + std::to_string(index));
    if (!b.args.empty()) glue(argList(b));
    glue(":");
    ++indent_;
  }
  for (OpId id : b.ops) {
    newline();
    op(id);
  }
}

// `%a, %b = ` or `%x:2 = ` (the values `%x:2` binds are named `%x#0`, `%x#1`).
void Writer::resultNames(const Operation& op) {
  if (op.results.empty() || p_.value(op.results[0]).name.empty()) return;
  std::string s;
  for (size_t i = 0, n = 1; i < op.results.size(); i += n) {
    std::string_view name = p_.value(op.results[i]).name;
    size_t hash = name.find('#');
    n = hash == std::string_view::npos ? 1 : packSize(op, i, name.substr(0, hash + 1));
    s += (i ? ", " : "") + std::string(name.substr(0, hash));
    if (hash != std::string_view::npos) s += ":" + std::to_string(n);
  }
  word(s);
  word("=");
}

// How many results from i on one `%x:N` bound: those named `prefix` (`%x#`) and a number.
size_t Writer::packSize(const Operation& op, size_t i, std::string_view prefix) const {
  size_t n = 1;
  while (i + n < op.results.size() && p_.value(op.results[i + n]).name.starts_with(prefix)) ++n;
  return n;
}

// "dialect.op"(%a, %b) ({...}) {attrs} : (A, B) -> R
void Writer::genericOp(const Operation& op) {
  resultNames(op);
  word("\"" + std::string(op.name) + "\"");
  glue("(");
  values(op.operands);
  glue(")");
  if (!op.regions.empty()) {
    word("(");
    for (size_t i = 0; i < op.regions.size(); ++i) {
      if (i) glue(",");
      region(op.regions[i], EntryArgs::Generic);
    }
    glue(")");
  }
  word(dictText(op.attrs, std::vector<bool>(op.attrs.size(), false)));
  word(":");
  word(signatureText(typesOf(op.operands), typesOf(op.results)));
}

void Writer::op(OpId id) {
  const Operation& o = p_.op(id);
  if (o.generic) return genericOp(o);
  if (isBuiltinModule(o)) {
    word("module");
    attrDict(o, Claims(o), true);
    for (const Region& r : o.regions) region(r, EntryArgs::ByLabel);
    return;
  }
  if (!o.info) {  // an op that did not parse: the text the parser read of it
    word(p_.source.substr(o.range.begin, o.range.end - o.range.begin));
    return;
  }
  resultNames(o);
  word(mnemonic(*o.info));
  if (o.info->format == "custom") customOp(*this, o);
  else formatOp(*this, o);
}

}  // namespace print

std::string printOp(const Program& p, OpId id, unsigned indent) {
  print::Writer w(p, indent);
  w.op(id);
  return w.take();
}

std::string printProgram(const Program& p) {
  std::string out;
  for (OpId id : p.topLevel) out += printOp(p, id) + "\n";
  return out;
}

}  // namespace tilesight
