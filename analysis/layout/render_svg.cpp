// SVG pictures of layout values: one cell per coordinate with its offset.
// Plain layouts use CuTe print_latex's eight greys (by offset mod 8);
// swizzled layouts colour each cell by the swizzled bits of its offset, so
// the XOR pattern shows; TV layouts are drawn over their tile, one colour per
// thread (mod 8), each cell labelled T<thread> V<value>.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>

#include "analysis/layout/render.h"
#include "analysis/layout/render_grid.h"

namespace tilesight::layout {

namespace {

constexpr int kCellW = 48, kCellH = 40, kLeft = 40, kTop = 56, kNoteH = 18;
constexpr int kCharW = 7, kTitleCharW = 8;  // advance of the monospace 11px and 13px fonts, rounded up
constexpr int64_t kMaxTvIndices = int64_t(1) << 20;  // (thread, value) pairs placed in a picture

// print_latex's TikzColor_BWx8 (black!00, !40, !20, !60, !10, !50, !30, !70) as grey levels.
constexpr std::array<const char*, 8> kGreys = {"#ffffff", "#999999", "#cccccc", "#666666",
                                               "#e6e6e6", "#808080", "#b3b3b3", "#4d4d4d"};
// print_latex's TikzColor_TV pastels.
constexpr std::array<const char*, 8> kPastels = {"#afafff", "#afffaf", "#ffffaf", "#ffafaf",
                                                 "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2"};

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

struct Cell {
  std::string fill = "#ffffff";
  std::vector<std::string> lines;  // one to three labels
};

class Picture {
public:
  Picture(std::string title, const detail::Grid& g) : title_(std::move(title)), grid_(g) {
    cells_.assign(static_cast<size_t>(g.shownRows * g.shownCols), Cell{});
    if (g.truncated()) notes_.push_back(g.note());
  }
  Cell& at(int64_t m, int64_t n) { return cells_[static_cast<size_t>(m * grid_.shownCols + n)]; }
  void note(const std::string& s) {
    if (!s.empty()) notes_.push_back(s);
  }
  std::string svg() const;

private:
  std::string title_;
  detail::Grid grid_;
  std::vector<Cell> cells_;
  std::vector<std::string> notes_;
};

std::string text(int x, int y, const std::string& s, const char* extra = "") {
  return "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\"" + extra + ">" + escape(s) +
         "</text>\n";
}

std::string Picture::svg() const {
  size_t textW = title_.size() * kTitleCharW;
  for (const std::string& n : notes_) textW = std::max(textW, n.size() * kCharW);
  int w = std::max(kLeft + static_cast<int>(grid_.shownCols) * kCellW, static_cast<int>(textW)) + 10;
  int h = kTop + static_cast<int>(grid_.shownRows) * kCellH + static_cast<int>(notes_.size()) * kNoteH + 10;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(w) + "\" height=\"" +
                    std::to_string(h) + "\" font-family=\"monospace\" font-size=\"11\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out += text(4, 18, title_, " font-size=\"13\"");
  for (int64_t n = 0; n < grid_.shownCols; ++n)
    out += text(kLeft + static_cast<int>(n) * kCellW + kCellW / 2, kTop - 8, std::to_string(n),
                " text-anchor=\"middle\"");
  for (int64_t m = 0; m < grid_.shownRows; ++m) {
    int y = kTop + static_cast<int>(m) * kCellH;
    out += text(kLeft - 6, y + kCellH / 2 + 4, std::to_string(m), " text-anchor=\"end\"");
    for (int64_t n = 0; n < grid_.shownCols; ++n) {
      const Cell& c = cells_[static_cast<size_t>(m * grid_.shownCols + n)];
      int x = kLeft + static_cast<int>(n) * kCellW;
      out += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
             std::to_string(kCellW) + "\" height=\"" + std::to_string(kCellH) + "\" fill=\"" + c.fill +
             "\" stroke=\"#000000\"/>\n";
      int top = y + kCellH / 2 + 4 - 6 * (static_cast<int>(c.lines.size()) - 1);
      for (size_t k = 0; k < c.lines.size(); ++k)
        out += text(x + kCellW / 2, top + 12 * static_cast<int>(k), c.lines[k], " text-anchor=\"middle\"");
    }
  }
  int y = kTop + static_cast<int>(grid_.shownRows) * kCellH + kNoteH;
  for (const std::string& n : notes_) {
    out += text(4, y, n);
    y += kNoteH;
  }
  return out + "</svg>\n";
}

// The colour of a swizzled offset: the B bits at [M, M+B) that the XOR changes.
const char* swizzleColour(const Swizzle& s, int64_t offset) {
  int64_t chunk = (offset >> s.base) & ((int64_t(1) << s.bits) - 1);
  return kPastels[static_cast<size_t>(chunk % 8)];
}

std::string plainSvg(const Value& v) {
  detail::Grid g = detail::gridOf(v.layout, kSvgMaxCells);
  Picture p(valueText(v), g);
  for (int64_t m = 0; m < g.shownRows; ++m)
    for (int64_t n = 0; n < g.shownCols; ++n) {
      int64_t i = g.index(m, n);
      Cell& c = p.at(m, n);
      c.lines = {detail::cellText(v, i)};
      if (v.identity) continue;
      int64_t off = valueOffset(v, i);
      c.fill = v.swizzle ? swizzleColour(*v.swizzle, off) : kGreys[static_cast<size_t>(((off % 8) + 8) % 8)];
    }
  if (v.swizzle)
    p.note("colour: bits " + std::to_string(v.swizzle->base) + ".." +
           std::to_string(v.swizzle->base + v.swizzle->bits - 1) + " of the swizzled offset");
  p.note(v.note);
  return p.svg();
}

// The tile (M, N) of a TV layout, each cell labelled by the first (thread,
// value) that maps to it; cells reached several times are marked xK.
std::string tvSvg(const Value& v) {
  int64_t rows = product(v.tvTiler[0]);
  int64_t cols = v.tvTiler.isLeaf() ? 1 : product(v.tvTiler) / rows;
  detail::Grid g = detail::gridOf(rows, cols, kSvgMaxCells);
  Picture p(valueText(v) + "  tile " + toString(v.tvTiler), g);
  int64_t threads = product(v.layout.shape[0]);
  int64_t total = std::min(size(v.layout), kMaxTvIndices);
  std::map<int64_t, int> hits;
  int64_t outside = 0;
  bool shared = false;
  for (int64_t i = 0; i < total; ++i) {
    int64_t idx = call(v.layout, i);
    if (idx < 0 || idx >= rows * cols) {
      ++outside;
      continue;
    }
    int64_t m = idx % rows, n = idx / rows;
    if (m >= g.shownRows || n >= g.shownCols) continue;
    Cell& c = p.at(m, n);
    if (++hits[idx] > 1) {
      shared = true;
      c.lines.resize(3);
      c.lines[2] = "x" + std::to_string(hits[idx]);
      continue;
    }
    int64_t t = i % threads;
    c.fill = kPastels[static_cast<size_t>(t % 8)];
    c.lines = {"T" + std::to_string(t), "V" + std::to_string(i / threads)};
  }
  if (total < size(v.layout)) p.note("only the first " + std::to_string(total) + " (thread, value) pairs are placed");
  if (shared) p.note("xK: K (thread, value) pairs reach the cell; the first is labelled");
  if (outside) p.note(std::to_string(outside) + " (thread, value) pairs fall outside the tile");
  p.note(v.note);
  return p.svg();
}

}  // namespace

std::string renderSvg(const Value& v) {
  if (v.kind == Value::TvValue) return tvSvg(v);
  if (v.kind == Value::LayoutValue) return plainSvg(v);
  detail::Grid g = detail::gridOf(0, 0, kSvgMaxCells);
  return Picture(valueText(v), g).svg();
}

}  // namespace tilesight::layout
