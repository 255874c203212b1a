#include "server/lsp/hover_types.h"

#include <algorithm>
#include <cstdlib>

#include "analysis/checks/views.h"
#include "analysis/layout/render.h"

namespace tilesight::lsp {

namespace {

namespace ly = tilesight::layout;
using views::IndexDim;
using views::IndexSpace;

std::string elemText(TypeRef element, bool plural) {
  if (!element)
    return "unknown elements";
  std::string e(elemName(element->elem));
  if (element->kind == TypeKind::Ptr)
    return (plural ? "pointers to " : "a pointer to ") + e;
  return e;
}

std::string listText(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::string paddingText(const Type &view) {
  if (view.padding == Padding::None)
    return "";
  if (view.padding == Padding::Unknown)
    return " (masked: pads with a value the text does not give)";
  return " (padding_value " + std::string(paddingName(view.padding)) + ")";
}

std::string viewTiles(const Type &view) {
  return shapeString(view.shape) + " " + std::string(elemName(view.elem));
}

// --- tensor_view -------------------------------------------------------------

std::string injectivityText(const views::TensorViewLayout &l) {
  switch (l.injective) {
  case views::Injectivity::Yes:
    return "injective: yes (no two coordinates share an element)";
  case views::Injectivity::No:
    if (!l.collision)
      return "injective: no";
    return "injective: no: coordinates " + ly::toString(l.collision->coord1) +
           " and " + ly::toString(l.collision->coord2) +
           " both map to offset " + std::to_string(l.collision->offset);
  case views::Injectivity::Undecided:
    return "injective: undecided (too large to decide exactly)";
  case views::Injectivity::Dynamic:
    break;
  }
  return "injective: unknown (the shape or strides are dynamic)";
}

// The offsets of the first kTypeTableMaxCells rows and columns. The layout
// renderer's own bound is larger, so the shown corner is rendered as a layout
// of its own and the header line naming that corner is dropped.
std::string offsetTable(const Type &tv) {
  size_t rank = tv.shape.size();
  std::vector<int64_t> shown;
  int64_t span = 0; // the largest |offset| shown
  for (size_t i = 0; i < rank; ++i) {
    shown.push_back(std::min(tv.shape[i], kTypeTableMaxCells));
    span = ly::satAdd(span, ly::satMul(shown[i] - 1, std::abs(tv.strides[i])));
  }
  if (span == INT64_MAX)
    return "";
  ly::Layout corner{1, 0};
  if (rank == 1)
    corner = {shown[0], tv.strides[0]};
  else if (rank == 2)
    corner = {ly::IntTuple::tuple({shown[0], shown[1]}),
              ly::IntTuple::tuple({tv.strides[0], tv.strides[1]})};
  std::string md = ly::renderMarkdown(ly::Value::ofLayout(corner));
  std::string out = rank == 2 ? "offsets (rows: dimension 0, columns: "
                                "dimension 1):\n"
                              : "offsets:\n";
  out += md.substr(md.find('\n') + 1);
  if (shown != tv.shape) {
    out += "\n_truncated: showing " + std::to_string(shown[0]) + " of " +
           std::to_string(tv.shape[0]) + (rank == 2 ? " rows" : " offsets");
    if (rank == 2)
      out += " and " + std::to_string(shown[1]) + " of " +
             std::to_string(tv.shape[1]) + " columns";
    out += "_\n";
  }
  return out;
}

std::string tensorViewSection(const Type &tv) {
  layout::WorkBudget budget(layout::kInteractiveWorkBudget,
                            layout::kInteractiveWorkBudget);
  std::optional<views::TensorViewLayout> l =
      views::tensorViewLayout(tv, budget);
  if (!l)
    return "";
  std::string md = "layout: `" + l->text + "` (coordinate to element offset)";
  md += "\n\n" + injectivityText(*l);
  if (l->layout && tv.shape.size() <= 2)
    if (std::string table = offsetTable(tv); !table.empty())
      md += "\n\n" + table;
  return md;
}

// --- views: index space
// ---------------------------------------------------------

std::string spaceSummary(const Type &view, const IndexSpace &s) {
  std::string md =
      "index space " + s.shapeText() + " (tiles of " + shapeString(view.shape);
  if (view.kind == TypeKind::StridedView)
    md += " at traversal strides " + listText(view.strides);
  // The tensor's shape as the space knows it: a dynamic size a launch fixed
  // shows as its value.
  std::vector<int64_t> tensor = view.tensorView->shape;
  for (const IndexDim &d : s.dims)
    if (d.tensorSize && static_cast<size_t>(d.tensorDim) < tensor.size())
      tensor[static_cast<size_t>(d.tensorDim)] = *d.tensorSize;
  md += " over " + shapeString(tensor) + ")";
  bool identity = true;
  for (size_t i = 0; i < s.dims.size(); ++i)
    identity &= s.dims[i].tensorDim == static_cast<int64_t>(i);
  if (!identity) {
    md += "\n\n";
    for (size_t i = 0; i < s.dims.size(); ++i)
      md += (i ? "; index dimension " : "index dimension ") +
            std::to_string(i) + " walks tensor dimension " +
            std::to_string(s.dims[i].tensorDim);
  }
  return md;
}

// "index 3 along dimension 0 overhangs the tensor by 4 of 16 elements"
std::string partialLine(size_t i, const IndexDim &d) {
  int64_t k0 = *d.firstPartial, k1 = *d.extent - 1;
  std::string dim = " along dimension " + std::to_string(i);
  std::string of = " of " + std::to_string(d.tile) + " elements";
  if (k0 == k1)
    return "index " + std::to_string(k0) + dim + " overhangs the tensor by " +
           std::to_string(d.overhang(k0)) + of;
  return "indices " + std::to_string(k0) + ".." + std::to_string(k1) + dim +
         " overhang the tensor by " + std::to_string(d.overhang(k0)) + ".." +
         std::to_string(d.overhang(k1)) + of;
}

std::string partialSection(const Type &view, const IndexSpace &s) {
  std::string md;
  for (size_t i = 0; i < s.dims.size(); ++i) {
    const IndexDim &d = s.dims[i];
    if (d.extent && d.firstPartial && *d.firstPartial < *d.extent)
      md += (md.empty() ? "partial tiles: " : "; ") + partialLine(i, d);
  }
  if (md.empty())
    return md;
  if (view.padding == Padding::None)
    return md + ". Loads read unspecified values past the edge (no "
                "padding_value); stores there are masked.";
  return md + ". Loads read " + std::string(paddingName(view.padding)) +
         " past the edge; stores there are masked.";
}

std::string strideSection(const IndexSpace &s) {
  std::string md;
  for (size_t i = 0; i < s.dims.size(); ++i) {
    const IndexDim &d = s.dims[i];
    std::string dim = " along index dimension " + std::to_string(i);
    if (d.step < d.tile)
      md += (md.empty() ? "" : "; ") + std::string("tiles overlap") + dim;
    else if (d.step > d.tile)
      md += (md.empty() ? "" : "; ") + std::to_string(d.step - d.tile) +
            (d.step - d.tile == 1 ? " element" : " elements") +
            " between tiles" + dim;
  }
  return md;
}

// --- views: the tile grid
// ---------------------------------------------------------

// Tile positions shown along a dimension of n tiles: all of them, or the
// first ones, a gap (-1) and the last.
std::vector<int64_t> shownPositions(int64_t n) {
  std::vector<int64_t> out;
  int64_t head = n <= kTypeGridMaxCells ? n : kTypeGridMaxCells - 2;
  for (int64_t k = 0; k < head; ++k)
    out.push_back(k);
  if (head < n) {
    out.push_back(-1);
    out.push_back(n - 1);
  }
  return out;
}

struct Cell {
  std::string label; // "(3,1)", or "…" for a gap
  bool partial = false;
};

// The grid drawn over the tensor's last two dimensions (rows, columns), each
// cell labelled with the index that selects the tile there; the other tensor
// dimensions are at tile 0.
class TileGrid {
public:
  // With `strides` (the tensor's, in elements), each cell is labelled with
  // the element offset its tile starts at instead of its index.
  explicit TileGrid(const IndexSpace &s, std::vector<int64_t> strides = {})
      : s_(s), strides_(std::move(strides)), indexOf_(s.dims.size()) {
    for (size_t i = 0; i < s.dims.size(); ++i)
      indexOf_[s.dims[i].tensorDim] = i;
  }

  std::string render() const {
    size_t r = s_.dims.size();
    std::vector<int64_t> rows =
        r == 1 ? std::vector<int64_t>{0} : shownPositions(extentAlong(r - 2));
    std::vector<int64_t> cols = shownPositions(extentAlong(r - 1));
    std::vector<std::vector<Cell>> cells(rows.size()); // empty for a gap row
    size_t width = 0;
    bool anyPartial = false;
    for (size_t i = 0; i < rows.size(); ++i) {
      for (int64_t col : cols) {
        if (rows[i] < 0)
          break;
        cells[i].push_back(col < 0 ? Cell{"…", false} : cellAt(rows[i], col));
        if (col >= 0)
          width = std::max(width, cells[i].back().label.size());
        anyPartial |= cells[i].back().partial;
      }
    }
    std::string out = "```\n";
    for (size_t i = 0; i < rows.size(); ++i)
      out += rows[i] < 0 ? "…\n" : line(cells[i], width);
    if (anyPartial)
      out += "~ partial tile (it overhangs the tensor's edge)\n";
    return out + "```";
  }

  std::string caption() const {
    size_t r = s_.dims.size();
    if (r == 1)
      return "tiles along tensor dimension 0:";
    std::string c = "tiles by tensor position (rows: tensor dimension " +
                    std::to_string(r - 2) + ", columns: tensor dimension " +
                    std::to_string(r - 1) + ")";
    if (r == 3)
      c += ", at tile 0 of tensor dimension 0";
    else if (r > 3)
      c += ", at tile 0 of tensor dimensions 0.." + std::to_string(r - 3);
    return c + ":";
  }

private:
  int64_t extentAlong(size_t tensorDim) const {
    return *s_.dims[indexOf_[tensorDim]].extent;
  }

  Cell cellAt(int64_t row, int64_t col) const {
    size_t r = s_.dims.size();
    std::vector<int64_t> idx(r, 0);
    idx[indexOf_[r - 1]] = col;
    if (r >= 2)
      idx[indexOf_[r - 2]] = row;
    Cell c{"(", false};
    int64_t offset = 0;
    for (size_t i = 0; i < r; ++i) {
      c.label += (i ? "," : "") + std::to_string(idx[i]);
      c.partial |= s_.dims[i].partial(idx[i]);
      const IndexDim &d = s_.dims[i];
      if (!strides_.empty())
        offset += idx[i] * d.step * strides_[static_cast<size_t>(d.tensorDim)];
    }
    c.label = strides_.empty() ? c.label + ")" : std::to_string(offset);
    return c;
  }

  // Labels padded to one width; `~` right after a partial tile's label.
  static std::string line(const std::vector<Cell> &cells, size_t width) {
    std::string out;
    for (const Cell &c : cells) {
      // "…" is one column but three bytes.
      size_t shown = c.label == "…" ? 1 : c.label.size();
      out += c.label + (c.partial ? "~" : " ") +
             std::string(width - shown + 1, ' ');
    }
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    return out + "\n";
  }

  const IndexSpace &s_;
  std::vector<int64_t> strides_; // empty: cells show indices
  std::vector<size_t> indexOf_; // tensor dimension -> index dimension
};

std::string viewSection(const Type &view, const std::optional<IndexSpace> &s,
                        const std::vector<int64_t> &strides) {
  if (!s)
    return "";
  std::string md = spaceSummary(view, *s);
  if (view.kind == TypeKind::GatherScatterView) {
    const IndexDim &d = s->dims[view.sparseDim];
    return md + "\n\nthe index at dimension " + std::to_string(d.tensorDim) +
           " is a 1-D tile of " + std::to_string(d.tile) +
           " row indices; the spec does not define the extent of the other "
           "dimensions";
  }
  if (std::string p = partialSection(view, *s); !p.empty())
    md += "\n\n" + p;
  if (view.kind == TypeKind::StridedView)
    if (std::string st = strideSection(*s); !st.empty())
      md += "\n\n" + st;
  if (!s->known())
    return md + "\n\nno tile grid: `?` extents depend on the tensor's "
                "dynamic sizes";
  TileGrid grid(*s);
  md += "\n\n" + grid.caption() + "\n\n" + grid.render();
  bool stridesKnown = strides.size() == view.shape.size() &&
                      std::none_of(strides.begin(), strides.end(), [](int64_t x) { return x == kDynamic; });
  if (view.kind == TypeKind::PartitionView && stridesKnown)
    md += "\n\nthe element offset each tile starts at (same grid):\n\n" + TileGrid(*s, strides).render();
  return md;
}

} // namespace

std::string describeType(const Type &t) {
  switch (t.kind) {
  case TypeKind::Scalar:
    return "element type " + std::string(elemName(t.elem));
  case TypeKind::Ptr:
    return "pointer to " + std::string(elemName(t.elem));
  case TypeKind::Tile:
    if (t.shape.empty())
      return "scalar tile of " + elemText(t.element, false);
    return "tile of " + shapeString(t.shape) + " " + elemText(t.element, true);
  case TypeKind::TensorView:
    return "tensor_view of " +
           (t.shape.empty() ? std::string("one") : shapeString(t.shape)) + " " +
           std::string(elemName(t.elem)) + " in global memory";
  case TypeKind::PartitionView:
    return "partition_view: non-overlapping tiles of " + viewTiles(t) +
           paddingText(t);
  case TypeKind::StridedView:
    return "strided_view: tiles of " + viewTiles(t) + " starting every " +
           listText(t.strides) + " elements" + paddingText(t);
  case TypeKind::GatherScatterView:
    return "gather_scatter_view: tiles of " + viewTiles(t) +
           " with rows gathered along dimension " +
           std::to_string(t.sparseDim) + paddingText(t);
  case TypeKind::Token:
    return "token: orders memory operations (not a runtime value)";
  case TypeKind::Function:
    return "function type: " + std::to_string(t.inputs.size()) + " inputs, " +
           std::to_string(t.results.size()) + " results";
  case TypeKind::Opaque:
    break;
  }
  return "a type tilesight does not model";
}

std::string typeHover(const Type &t) {
  std::string md = "`" + t.text + "`\n\n" + describeType(t);
  std::string section;
  if (t.kind == TypeKind::TensorView)
    section = tensorViewSection(t);
  else if (t.isView())
    section = viewSection(t, views::indexSpace(t), {});
  return section.empty() ? md : md + "\n\n" + section;
}

std::string launchViewHover(const Type &view, const views::IndexSpace &space,
                            const std::vector<int64_t> &strides) {
  return "`" + view.text + "`\n\n" + describeType(view) + "\n\n" + viewSection(view, space, strides);
}

} // namespace tilesight::lsp
