#include "analysis/diag/diagnostic.h"

namespace tilesight {

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    case Severity::Remark: return "remark";
  }
  return "error";
}

}  // namespace tilesight
