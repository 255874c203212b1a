// Core and shape ops, constants, globals.
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

void constant(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void iota(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void offset(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void broadcast(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void reshape(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void permute(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void cat(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void extract(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void select(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void pack(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void unpack(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void reduce(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void scan(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void assume(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void printTko(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void allocaOp(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void joinTokens(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void getGlobal(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void global(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

}  // namespace tilesight::rules
