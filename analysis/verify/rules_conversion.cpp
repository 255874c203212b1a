// Conversions between element types.
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

void exti(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void trunci(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void ftof(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void ftoi(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void itof(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void bitcast(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void sameShapeConversion(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void ptrToInt(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void intToPtr(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

void ptrToPtr(const Program& p, const Operation& op, DiagSink& d) { (void)p; (void)op; (void)d; }

}  // namespace tilesight::rules
