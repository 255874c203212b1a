#pragma once
// Internal to the printer (printer.cpp, print_attrs.cpp, print_format.cpp,
// print_custom.cpp): the text being built, the attributes an op's syntax
// spells itself, and the spellings of attributes and types.
#include <string>
#include <string_view>
#include <vector>

#include <llvm/ADT/ArrayRef.h>

#include "analysis/ir/ir.h"
#include "analysis/ir/op_table.h"

namespace tilesight::print {

// --- spellings (print_attrs.cpp) ---------------------------------------------
std::string typeText(TypeRef t);
std::string signatureText(llvm::ArrayRef<TypeRef> inputs, llvm::ArrayRef<TypeRef> results);  // `(A, B) -> R`
std::string attrText(const Attr& a);   // builtin syntax (dictionaries, `attr` format kind)
std::string denseText(const Attr& a);  // `<f32: [1.0, 2.0]>`
// `a` in the syntax of an op table attribute kind (ord, rnd_divi, int, arr, hints, ...);
// `name` is what unit flags spell.
std::string kindText(std::string_view kind, std::string_view name, const Attr& a);
// Whether `a` reads back unchanged from the syntax of `kind`. Besides the op
// table's kinds, `type` (function_type, a global's type) fits type attributes.
bool fitsKind(std::string_view kind, const Attr& a);
// `{a = 1, b}` of the attributes not claimed; empty when there are none.
std::string dictText(const std::vector<NamedAttr>& attrs, const std::vector<bool>& skip);

// --- the attributes an op's own syntax spells ---------------------------------
// Everything not claimed goes to the op's attribute dictionary.
class Claims {
 public:
  explicit Claims(const Operation& op) : op_(op), taken_(op.attrs.size(), false) {}
  // The first unclaimed attribute `name` that fits `kind`, now claimed; nullptr if none.
  const Attr* take(std::string_view name, std::string_view kind);
  bool available(std::string_view name, std::string_view kind) const { return find(name, kind) >= 0; }
  const Attr* claimed(std::string_view name) const;  // claimed earlier under `name`
  const std::vector<bool>& taken() const { return taken_; }

 private:
  int find(std::string_view name, std::string_view kind) const;
  const Operation& op_;
  std::vector<bool> taken_;
};

// The values of operand group g and result group g of a registered op.
llvm::ArrayRef<Operand> operandGroup(const Operation& op, size_t g);
llvm::ArrayRef<ValueId> resultGroup(const Operation& op, size_t g);

// --- the text ----------------------------------------------------------------
// Who writes a region's entry block arguments: the op (entry, for, loop, the
// body of reduce), a block label (other regions), or a label of the generic
// form, where a region of one empty block is labelled too (`({ })` reads as a
// region without blocks).
enum class EntryArgs { ByOp, ByLabel, Generic };

class Writer {
 public:
  Writer(const Program& p, unsigned indent) : p_(p), indent_(indent) {}
  std::string take() { return std::move(out_); }
  const Program& program() const { return p_; }

  void op(OpId id);  // one op and its regions, from the current position
  // `word` puts one space between it and the text before, except after an
  // opening bracket, before a closing one or a comma, and before the `[` of
  // `%view[...]`; `glue` never does.
  void word(std::string_view w);
  void glue(std::string_view w);
  void value(const Operand& o);
  void values(llvm::ArrayRef<Operand> os);  // comma separated
  void type(TypeRef t) { word(typeText(t)); }
  void types(llvm::ArrayRef<TypeRef> ts);   // comma separated
  std::vector<TypeRef> typesOf(llvm::ArrayRef<Operand> os) const;
  std::vector<TypeRef> typesOf(llvm::ArrayRef<ValueId> vs) const;
  std::string argList(const Block& b) const;  // `(%a: T, %b: U)`
  void attrDict(const Operation& op, const Claims& c, bool keyword);  // `[attributes] {...}` when non-empty
  void region(const Region& r, EntryArgs entry);  // `{ ... }`

 private:
  void genericOp(const Operation& op);
  void resultNames(const Operation& op);
  size_t packSize(const Operation& op, size_t i, std::string_view prefix) const;
  void block(const Region& r, size_t index, EntryArgs entry);
  void newline();

  const Program& p_;
  std::string out_;
  unsigned indent_;
  bool afterValue_ = false;
};

void formatOp(Writer& w, const Operation& op);  // print_format.cpp
void customOp(Writer& w, const Operation& op);  // print_custom.cpp

}  // namespace tilesight::print
