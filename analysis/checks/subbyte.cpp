#include "analysis/checks/checks.h"

namespace tilesight {

void checkSubbyte(const CheckContext&, DiagSink&) {}

}  // namespace tilesight
