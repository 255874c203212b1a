#pragma once
// Composition and inverses of swizzled layouts Sw o L (CuTe's ComposedLayout
// of a swizzle and a layout). A layout after a swizzle, A o Sw, is rewritten
// Sw' o A as CuTe's composition(Layout, Swizzle) does: Sw' XORs A's images of
// Sw's bits. Every rewrite is checked on each point it is used at, and every
// result against its post-condition; what does not hold is an error.
#include <optional>

#include "analysis/layout/layout.h"
#include "analysis/layout/swizzle.h"

namespace tilesight::layout {

struct SwizzledLayout {
  std::optional<Swizzle> swizzle;  // offsets are swizzle(layout(i)) when set
  Layout layout;
};

// R(i) = A(B(i)) for i < size(B); either may be swizzled.
Expected<SwizzledLayout> composition(const SwizzledLayout& a, const SwizzledLayout& b);
// (Sw o L)^-1 = L^-1 o Sw = Sw' o L^-1; L(R(i)) = i and R(L(i)) = i checked.
Expected<SwizzledLayout> rightInverse(const SwizzledLayout& l);
Expected<SwizzledLayout> leftInverse(const SwizzledLayout& l);

}  // namespace tilesight::layout
