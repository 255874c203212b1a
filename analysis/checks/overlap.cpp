#include "analysis/checks/checks.h"

namespace tilesight {

void checkOverlap(const CheckContext&, DiagSink&) {}

}  // namespace tilesight
