#!/usr/bin/env bash
# Fails, naming each file:line, when analysis/, codegen/ or server/ looks up an
# op's operand group or attribute by a string literal: operandValue(op, "step"),
# op.attr("dim"), info.operandGroup("mask"), keywordOf(op, "..."),
# attrValue<AtomicMode>(op, "mode"), and the verifier's rules::OpRef helpers
# (o.type("mask"), o.group("index"), o.keyword("rounding"), intAttr(o, "dim"),
# rangeOf/operandRange/attrRange(o, "..."), info.attrSyntax("...")), which take
# the generated group_names:: and attr_names:: instead. Such code uses the typed accessors
# generated from ops.def (op_accessors.h), where a misspelt name does not
# compile; generic code that walks the op table's own names passes them as
# variables.
#   no_string_lookups.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: no_string_lookups.sh SOURCE_DIR}"
pattern='\battr\("|\boperand(Value|Group|Of)\([^)]*"|\bkeywordOf\(|\battrValue<[^>]*>\([^)]*"'
pattern+='|\.(type|group|operand|keyword|attrSyntax|attrDefault|resultGroup)\("|\b(intAttr|rangeOf|operandRange|attrRange)\([^,()]*, "'
pattern+='|matOperands\([^)]*\{ *"'
if found=$(grep -rnE --include='*.cpp' --include='*.h' "$pattern" analysis codegen server); then
  echo "operands or attributes looked up by a string literal (use the accessors of analysis/ir/op_accessors.h):"
  echo "$found"
  exit 1
fi
echo "no operand or attribute looked up by a string literal"
