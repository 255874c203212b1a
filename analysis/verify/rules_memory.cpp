// Views, view and pointer memory ops, atomics.
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

void makeTensorView(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void makeView(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void getTensorShape(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void getIndexSpaceShape(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void loadView(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void storeView(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void atomicRedView(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void loadPtr(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void storePtr(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void atomicRmw(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void atomicCas(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

}  // namespace tilesight::rules
