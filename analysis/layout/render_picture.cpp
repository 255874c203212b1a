// Pictures of layout values, written as SVG or as TikZ (CuTe's print_latex):
// one cell per coordinate with its offset. Plain layouts use print_latex's
// eight greys (by offset mod 8), or one colour per shared-memory bank;
// swizzled layouts colour each cell by the swizzled bits of its offset, so
// the XOR pattern shows; TV layouts are drawn over their tile, one colour per
// thread (mod 8), each cell labelled T<thread> V<value>. Axes show each
// mode's coordinates (hierarchical where the mode is nested), a legend says
// what the colours mean, and each label is black or white, whichever
// contrasts more with its fill (at least 4.5:1 on every fill used here).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "analysis/layout/render.h"
#include "analysis/layout/render_grid.h"

namespace tilesight::layout {

namespace {

constexpr int kCellW = 48, kCellH = 40, kNoteH = 18, kLegendH = 22;
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

// WCAG relative luminance of "#rrggbb".
double luminance(const std::string& hex) {
  double l = 0;
  const double weights[3] = {0.2126, 0.7152, 0.0722};
  for (int k = 0; k < 3; ++k) {
    double c = std::strtol(hex.substr(1 + 2 * k, 2).c_str(), nullptr, 16) / 255.0;
    c = c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    l += weights[k] * c;
  }
  return l;
}

}  // namespace

double contrastRatio(const std::string& a, const std::string& b) {
  double x = luminance(a), y = luminance(b);
  return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

std::string labelColour(const std::string& fill) {
  return contrastRatio(fill, "#000000") >= contrastRatio(fill, "#ffffff") ? "#000000" : "#ffffff";
}

namespace {

// Bank k of `banks` as a light colour of its own hue (HSL, lightness 0.8).
std::string bankColour(int64_t k, int64_t banks) {
  double h = 360.0 * double(k) / double(banks), s = 0.75, l = 0.8;
  auto f = [&](double n) {
    double a = s * std::min(l, 1 - l), kk = std::fmod(n + h / 30, 12);
    return l - a * std::max(-1.0, std::min({kk - 3, 9 - kk, 1.0}));
  };
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", int(std::lround(f(0) * 255)), int(std::lround(f(8) * 255)),
                int(std::lround(f(4) * 255)));
  return buf;
}

struct Cell {
  std::string fill = "#ffffff";
  std::vector<std::string> lines;  // one to three labels
};

// A picture's content, independent of how it is written.
class Picture {
public:
  Picture(std::string title, const detail::Grid& g, const IntTuple& rowShape, const IntTuple& colShape)
      : title_(std::move(title)), grid_(g) {
    cells_.assign(static_cast<size_t>(g.shownRows * g.shownCols), Cell{});
    for (int64_t m = 0; m < g.shownRows; ++m) rowLabels_.push_back(detail::axisLabel(m, rowShape));
    for (int64_t n = 0; n < g.shownCols; ++n) colLabels_.push_back(detail::axisLabel(n, colShape));
    if (g.truncated()) notes_.push_back(g.note());
  }
  Cell& at(int64_t m, int64_t n) { return cells_[static_cast<size_t>(m * grid_.shownCols + n)]; }
  void note(const std::string& s) {
    if (!s.empty()) notes_.push_back(s);
  }
  void legend(std::string fill, std::string label) { legend_.emplace_back(std::move(fill), std::move(label)); }
  std::string svg() const;
  std::string latex() const;

private:
  size_t widest(const std::vector<std::string>& labels) const {
    size_t w = 0;
    for (const std::string& s : labels) w = std::max(w, s.size());
    return w;
  }

  std::string title_;
  detail::Grid grid_;
  std::vector<Cell> cells_;
  std::vector<std::string> rowLabels_, colLabels_, notes_;
  std::vector<std::pair<std::string, std::string>> legend_;  // (fill, meaning)
};

std::string text(int x, int y, const std::string& s, const std::string& extra = "") {
  return "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\"" + extra + ">" + escape(s) +
         "</text>\n";
}

std::string rect(int x, int y, int w, int h, const std::string& fill) {
  return "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(w) +
         "\" height=\"" + std::to_string(h) + "\" fill=\"" + fill + "\" stroke=\"#000000\"/>\n";
}

std::string Picture::svg() const {
  // Column labels wider than a cell are turned 60 degrees.
  size_t colW = widest(colLabels_);
  bool turned = static_cast<int>(colW) * kCharW > kCellW - 4;
  int left = std::max(40, static_cast<int>(widest(rowLabels_)) * kCharW + 12);
  int top = 56 + (turned ? static_cast<int>(colW) * kCharW * 87 / 100 : 0);
  int legendTop = top + static_cast<int>(grid_.shownRows) * kCellH + 8;
  int legendRows = legend_.empty() ? 0 : static_cast<int>((legend_.size() + 3) / 4);
  size_t textW = title_.size() * kTitleCharW;
  for (const std::string& n : notes_) textW = std::max(textW, n.size() * kCharW);
  int w = std::max(left + static_cast<int>(grid_.shownCols) * kCellW, std::max(static_cast<int>(textW), 4 * 150)) + 10;
  int h = legendTop + legendRows * kLegendH + static_cast<int>(notes_.size()) * kNoteH + 14;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(w) + "\" height=\"" +
                    std::to_string(h) + "\" font-family=\"monospace\" font-size=\"11\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out += text(4, 18, title_, " font-size=\"13\"");
  for (int64_t n = 0; n < grid_.shownCols; ++n) {
    int x = left + static_cast<int>(n) * kCellW + kCellW / 2;
    out += turned ? text(x, top - 6, colLabels_[n], " transform=\"rotate(-60 " + std::to_string(x) + " " +
                                                        std::to_string(top - 6) + ")\"")
                  : text(x, top - 8, colLabels_[n], " text-anchor=\"middle\"");
  }
  for (int64_t m = 0; m < grid_.shownRows; ++m) {
    int y = top + static_cast<int>(m) * kCellH;
    out += text(left - 6, y + kCellH / 2 + 4, rowLabels_[m], " text-anchor=\"end\"");
    for (int64_t n = 0; n < grid_.shownCols; ++n) {
      const Cell& c = cells_[static_cast<size_t>(m * grid_.shownCols + n)];
      int x = left + static_cast<int>(n) * kCellW;
      out += rect(x, y, kCellW, kCellH, c.fill);
      int line = y + kCellH / 2 + 4 - 6 * (static_cast<int>(c.lines.size()) - 1);
      for (size_t k = 0; k < c.lines.size(); ++k)
        out += text(x + kCellW / 2, line + 12 * static_cast<int>(k), c.lines[k],
                    " text-anchor=\"middle\" fill=\"" + labelColour(c.fill) + "\"");
    }
  }
  for (size_t k = 0; k < legend_.size(); ++k) {
    int x = 4 + static_cast<int>(k % 4) * 150, y = legendTop + static_cast<int>(k / 4) * kLegendH;
    out += rect(x, y, 14, 14, legend_[k].first);
    out += text(x + 20, y + 11, legend_[k].second);
  }
  int y = legendTop + legendRows * kLegendH + kNoteH - 4;
  for (const std::string& n : notes_) {
    out += text(4, y, n);
    y += kNoteH;
  }
  return out + "</svg>\n";
}

std::string latexText(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '_' || c == '#' || c == '%' || c == '&' || c == '$' || c == '{' || c == '}') out += '\\';
    out += c;
  }
  return out;
}

// TikZ as CuTe's print_latex draws it: x down the rows, y across the columns,
// one node per cell; colours defined once each.
std::string Picture::latex() const {
  std::map<std::string, std::string> names;  // fill -> colour name
  auto nameOf = [&](const std::string& fill) {
    auto [it, fresh] = names.emplace(fill, "c" + std::to_string(names.size()));
    return it->second;
  };
  std::string body;
  for (int64_t m = 0; m < grid_.shownRows; ++m)
    for (int64_t n = 0; n < grid_.shownCols; ++n) {
      const Cell& c = cells_[static_cast<size_t>(m * grid_.shownCols + n)];
      std::string label;
      for (size_t k = 0; k < c.lines.size(); ++k) label += (k ? "\\\\ " : "") + latexText(c.lines[k]);
      body += "\\node[fill=" + nameOf(c.fill) + ",text=" + nameOf(labelColour(c.fill)) + "] at (" +
              std::to_string(m) + "," + std::to_string(n) + ") {\\shortstack{" + label + "}};\n";
    }
  for (int64_t m = 0; m < grid_.shownRows; ++m)
    body += "\\node[draw=none] at (" + std::to_string(m) + ",-1) {" + latexText(rowLabels_[m]) + "};\n";
  for (int64_t n = 0; n < grid_.shownCols; ++n)
    body += "\\node[draw=none] at (-1," + std::to_string(n) + ") {" + latexText(colLabels_[n]) + "};\n";
  for (size_t k = 0; k < legend_.size(); ++k)
    body += "\\node[fill=" + nameOf(legend_[k].first) + ",minimum size=0.4cm] at (" +
            std::to_string(grid_.shownRows + 1 + static_cast<int64_t>(k)) + ",0) {};\n\\node[draw=none,anchor=west] at (" +
            std::to_string(grid_.shownRows + 1 + static_cast<int64_t>(k)) + ",0.4) {" + latexText(legend_[k].second) +
            "};\n";
  std::string out = "% " + title_ + "\n";
  for (const std::string& n : notes_) out += "% " + n + "\n";
  out += "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n";
  for (const auto& [fill, name] : names) out += "\\definecolor{" + name + "}{HTML}{" + fill.substr(1) + "}\n";
  out += "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt, "
         "draw, font=\\scriptsize}]\n";
  return out + body + "\\end{tikzpicture}\n\\end{document}\n";
}

// The colour of a swizzled offset: the B bits at [M, M+B) that the XOR changes.
const char* swizzleColour(const Swizzle& s, int64_t offset) {
  int64_t chunk = (offset >> s.base) & ((int64_t(1) << s.bits) - 1);
  return kPastels[static_cast<size_t>(chunk % 8)];
}

// Bank k of a 4-byte word: offset * bytes / 4 mod banks. A warp's 32 threads
// read 32 consecutive indices (colex, mode 0 first), one group after another;
// a group needs as many wavefronts as its busiest bank has distinct words.
struct BankUse {
  int64_t groups = 0, wavefronts = 0, worst = 1;
};
BankUse bankUse(const Value& v, int64_t banks, int64_t bytes) {
  BankUse u;
  int64_t n = std::min(size(v.layout), kMaxTvIndices);
  for (int64_t g = 0; g < n; g += 32) {
    std::map<int64_t, std::set<int64_t>> words;  // bank -> words
    for (int64_t i = g; i < std::min(n, g + 32); ++i) {
      int64_t word = valueOffset(v, i) * bytes / 4;
      words[((word % banks) + banks) % banks].insert(word);
    }
    int64_t most = 1;
    for (const auto& [bank, ws] : words) most = std::max(most, static_cast<int64_t>(ws.size()));
    ++u.groups;
    u.wavefronts += most;
    u.worst = std::max(u.worst, most);
  }
  return u;
}

std::string plainPicture(const Value& v, const PictureOptions& o, bool latex) {
  detail::Grid g = detail::gridOf(v.layout, o.maxCells);
  auto [rowShape, colShape] = detail::axisShapes(v.layout);
  Picture p(valueText(v), g, rowShape, colShape);
  bool byBank = o.banks && !v.hasBasis();
  for (int64_t m = 0; m < g.shownRows; ++m)
    for (int64_t n = 0; n < g.shownCols; ++n) {
      int64_t i = g.index(m, n);
      Cell& c = p.at(m, n);
      c.lines = {detail::cellText(v, i)};
      if (v.hasBasis()) continue;
      int64_t off = valueOffset(v, i);
      if (byBank) {
        int64_t bank = ((off * o.elementBytes / 4) % *o.banks + *o.banks) % *o.banks;
        c.fill = bankColour(bank, *o.banks);
        c.lines.push_back("b" + std::to_string(bank));
      } else {
        c.fill = v.swizzle ? swizzleColour(*v.swizzle, off) : kGreys[static_cast<size_t>(((off % 8) + 8) % 8)];
      }
    }
  if (byBank) {
    // One hue per bank, around the colour wheel; each cell also says bN.
    int64_t step = std::max<int64_t>(1, *o.banks / 4);
    for (int64_t b = 0; b < *o.banks && b < 4 * step; b += step)
      p.legend(bankColour(b, *o.banks), "bank " + std::to_string(b) + (b ? "" : " (cells: bN)"));
    BankUse u = bankUse(v, *o.banks, o.elementBytes);
    p.note(std::to_string(*o.banks) + " banks of 4-byte words, " + std::to_string(o.elementBytes) +
           "-byte elements; a warp reads 32 consecutive indices: " + std::to_string(u.groups) + " reads, " +
           std::to_string(u.wavefronts) + " wavefronts (" + std::to_string(u.wavefronts - u.groups) +
           " from bank conflicts), worst " + std::to_string(u.worst) + "-way");
  } else if (v.swizzle) {
    for (size_t k = 0; k < std::min<size_t>(8, size_t(1) << v.swizzle->bits); ++k)
      p.legend(kPastels[k], "bits = " + std::to_string(k) + " (mod 8)");
    p.note("colour: bits " + std::to_string(v.swizzle->base) + ".." +
           std::to_string(v.swizzle->base + v.swizzle->bits - 1) + " of the swizzled offset");
  } else if (!v.hasBasis()) {
    for (size_t k = 0; k < 8; ++k) p.legend(kGreys[k], "offset % 8 = " + std::to_string(k));
  }
  p.note(v.note);
  return latex ? p.latex() : p.svg();
}

// The tile (M, N) of a TV layout, each cell labelled by the first (thread,
// value) that maps to it; cells reached several times are marked xK.
std::string tvPicture(const Value& v, const PictureOptions& o, bool latex) {
  int64_t rows = product(v.tvTiler[0]);
  int64_t cols = v.tvTiler.isLeaf() ? 1 : product(v.tvTiler) / rows;
  detail::Grid g = detail::gridOf(rows, cols, o.maxCells);
  IntTuple colShape = v.tvTiler.isLeaf() || v.tvTiler.rank() < 2 ? IntTuple(cols) : v.tvTiler[1];
  Picture p(valueText(v) + "  tile " + toString(v.tvTiler), g, v.tvTiler.isLeaf() ? v.tvTiler : v.tvTiler[0],
            colShape);
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
  for (size_t k = 0; k < std::min<size_t>(8, static_cast<size_t>(threads)); ++k)
    p.legend(kPastels[k], threads > 8 ? "T" + std::to_string(k) + ", T" + std::to_string(k + 8) + ", ..."
                                      : "T" + std::to_string(k));
  if (total < size(v.layout)) p.note("only the first " + std::to_string(total) + " (thread, value) pairs are placed");
  if (shared) p.note("xK: K (thread, value) pairs reach the cell (a replicated value); the first is labelled");
  if (outside) p.note(std::to_string(outside) + " (thread, value) pairs fall outside the tile");
  p.note(v.note);
  return latex ? p.latex() : p.svg();
}

std::string picture(const Value& v, const PictureOptions& o, bool latex) {
  if (v.kind == Value::TvValue) return tvPicture(v, o, latex);
  if (v.kind == Value::LayoutValue) return plainPicture(v, o, latex);
  detail::Grid g = detail::gridOf(0, 0, o.maxCells);
  Picture p(valueText(v), g, IntTuple(1), IntTuple(1));
  return latex ? p.latex() : p.svg();
}

}  // namespace

std::string renderSvg(const Value& v, const PictureOptions& o) { return picture(v, o, false); }
std::string renderLatex(const Value& v, const PictureOptions& o) { return picture(v, o, true); }

}  // namespace tilesight::layout
