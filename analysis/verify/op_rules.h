#pragma once
// Per-op verifier rules (the spec's op semantics, reference/tileir.md §3).
// Each takes an op whose operands/results already passed the table's
// constraints and reports what is wrong with concrete values.
#include "analysis/diag/diagnostic.h"
#include "analysis/ir/ir.h"
#include "analysis/ir/op_table.h"

namespace tilesight::rules {

using VerifyFn = void (*)(const Program&, const Operation&, DiagSink&);
// The rule of ops.def's `verify` column for op kind k; nullptr when it has none.
VerifyFn ruleOf(OpKind k);

#define TILESIGHT_RULE(name) void name(const Program&, const Operation&, DiagSink&)
// integer / float arithmetic, comparisons and matrix ops (rules_arith.cpp)
TILESIGHT_RULE(divi);
TILESIGHT_RULE(negi);
TILESIGHT_RULE(floatModifiers);  // flush_to_zero / rounding on float ops
TILESIGHT_RULE(cmpResult);
TILESIGHT_RULE(fpowi);
TILESIGHT_RULE(mmaf);
TILESIGHT_RULE(mmai);
TILESIGHT_RULE(mmafScaled);
// conversions (rules_conversion.cpp)
TILESIGHT_RULE(exti);
TILESIGHT_RULE(trunci);
TILESIGHT_RULE(ftof);
TILESIGHT_RULE(ftoi);
TILESIGHT_RULE(itof);
TILESIGHT_RULE(bitcast);
TILESIGHT_RULE(ptrToInt);
TILESIGHT_RULE(intToPtr);
TILESIGHT_RULE(ptrToPtr);
// dense literals (rules_literal.cpp)
TILESIGHT_RULE(constant);
TILESIGHT_RULE(global);
// shape ops (rules_shape.cpp)
TILESIGHT_RULE(iota);
TILESIGHT_RULE(offset);
TILESIGHT_RULE(broadcast);
TILESIGHT_RULE(reshape);
TILESIGHT_RULE(permute);
TILESIGHT_RULE(cat);
TILESIGHT_RULE(extract);
TILESIGHT_RULE(insert);
TILESIGHT_RULE(select);
TILESIGHT_RULE(pack);
TILESIGHT_RULE(unpack);
// reduce / scan (rules_reduce.cpp)
TILESIGHT_RULE(reduce);
TILESIGHT_RULE(scan);
// core (rules_core.cpp)
TILESIGHT_RULE(assume);
TILESIGHT_RULE(printTko);
TILESIGHT_RULE(allocaOp);
TILESIGHT_RULE(joinTokens);
TILESIGHT_RULE(getGlobal);
// views and memory (rules_memory.cpp)
TILESIGHT_RULE(makeTensorView);
TILESIGHT_RULE(makeView);
TILESIGHT_RULE(getTensorShape);
TILESIGHT_RULE(getIndexSpaceShape);
TILESIGHT_RULE(loadView);
TILESIGHT_RULE(storeView);
TILESIGHT_RULE(atomicRedView);
TILESIGHT_RULE(loadPtr);
TILESIGHT_RULE(storePtr);
TILESIGHT_RULE(atomicRmw);
TILESIGHT_RULE(atomicCas);
// control flow and structure (rules_control.cpp)
TILESIGHT_RULE(ifOp);
TILESIGHT_RULE(forOp);
TILESIGHT_RULE(loopOp);
TILESIGHT_RULE(continueOp);
TILESIGHT_RULE(breakOp);
TILESIGHT_RULE(yieldOp);
TILESIGHT_RULE(returnOp);
TILESIGHT_RULE(entry);
TILESIGHT_RULE(func);
TILESIGHT_RULE(module);
#undef TILESIGHT_RULE

}  // namespace tilesight::rules
