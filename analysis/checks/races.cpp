#include "analysis/checks/checks.h"

namespace tilesight {

void checkRaces(const CheckContext&, DiagSink&) {}

}  // namespace tilesight
