// Integer and float arithmetic, comparisons and matrix ops.
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

void divi(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void negi(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void floatModifiers(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void cmpResult(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void mmaf(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void mmai(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void mmafScaled(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

}  // namespace tilesight::rules
