// Control flow, terminators and the top-level ops.
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

void ifOp(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void forOp(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void loopOp(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void continueOp(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void breakOp(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void yieldOp(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void returnOp(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void entry(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void func(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void module(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

}  // namespace tilesight::rules
