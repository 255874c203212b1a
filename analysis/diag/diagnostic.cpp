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

size_t DiagSink::errorCount() const {
  size_t n = 0;
  for (const auto& d : diags_) n += d.severity == Severity::Error;
  return n;
}

}  // namespace tilesight
