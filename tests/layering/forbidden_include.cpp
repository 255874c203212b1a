// Compiled (by tests/layering/forbidden_include.sh only) with the include
// paths of the ir library, which sits below the checks: this include must not
// be found, so that an include across layers the design forbids fails the build.
#include "analysis/checks/checks.h"
