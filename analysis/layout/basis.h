#pragma once
// Layouts with basis strides (CuTe's ScaledBasis): leaf k's stride is
// scale_k * E<path_k>, the unit coordinate along the mode at path_k (indices
// outermost first), so the layout maps indices to coordinates rather than
// offsets. make_identity_layout is one; `(4,4):(1@1,1@0)` maps (i,j) to the
// coordinate (j,i). Strides are written `d@i@j`, innermost index first, as
// CuTe prints them.
#include <optional>
#include <vector>

#include "analysis/layout/layout.h"

namespace tilesight::layout {

using BasisPath = std::vector<int>;

// A coordinate is an integer or a tuple at each place: no path may be a proper
// prefix of another (an integer stride has the empty path). Scales must be
// non-negative, so coordinates are.
std::optional<LayoutError> checkBasis(const Layout& l, const std::vector<BasisPath>& paths);
std::string basisStrideText(int64_t scale, const BasisPath& path);  // 2@0@1

// The coordinate of index i, zeros on modes no stride reaches; and the shape
// of the codomain (each place's largest coordinate + 1).
IntTuple basisCoord(const Layout& l, const std::vector<BasisPath>& paths, int64_t i);
IntTuple basisCodomain(const Layout& l, const std::vector<BasisPath>& paths);

// Injective and surjective onto the codomain iff the leaves along each path,
// taken as an integer layout, are (the places are independent).
Properties basisProperties(const Layout& l, const std::vector<BasisPath>& paths, double workBudget);

// A o B for B with basis strides: leaf k of B becomes get<path_k>(A) o (s_k:d_k),
// as C++ composes with ScaledBasis strides; R(i) = A(B(i)) checked.
Expected<Layout> composition(const Layout& a, const Layout& b, const std::vector<BasisPath>& paths);

}  // namespace tilesight::layout
