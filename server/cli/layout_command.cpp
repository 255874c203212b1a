// `tilesight layout` (DESIGN §3): evaluate one layout expression and print
// it as text, a print_layout table, markdown, JSON or SVG; or, with --at,
// the offset of one coordinate.
#include <nlohmann/json.hpp>

#include <llvm/Support/raw_ostream.h>

#include "analysis/layout/expr.h"
#include "analysis/layout/render.h"
#include "server/cli/commands.h"
#include "server/cli/json_text.h"
#include "server/cli/options.h"
#include "server/cli/png_render.h"

namespace tilesight::cli {

namespace {

using json = nlohmann::ordered_json;  // keys in the order of the contract
namespace ly = tilesight::layout;

constexpr const char* kUsage =
    "usage: tilesight layout [--format=text|table|markdown|json|svg|latex|png] [--at COORD] [--max-cells=N] "
    "[--banks=N [--element-bytes=B]] EXPR\n";

// The picture options, or a usage error.
std::optional<ly::PictureOptions> pictureOptions(const LayoutOptions& o) {
  ly::PictureOptions p;
  if (o.maxCells < 1 || o.maxCells > ly::kPictureMaxCells) {
    llvm::errs() << "tilesight: --max-cells must be 1 to " << ly::kPictureMaxCells << ", got " << o.maxCells << "\n";
    return std::nullopt;
  }
  if (o.banks && (*o.banks < 1 || *o.banks > 1024)) {
    llvm::errs() << "tilesight: --banks must be 1 to 1024, got " << *o.banks << "\n";
    return std::nullopt;
  }
  if (o.elementBytes < 1 || o.elementBytes > 64) {
    llvm::errs() << "tilesight: --element-bytes must be 1 to 64, got " << o.elementBytes << "\n";
    return std::nullopt;
  }
  p.maxCells = o.maxCells;
  p.banks = o.banks;
  p.elementBytes = o.elementBytes;
  return p;
}

// clang style: `<expr>:1:COL: error: RULE: MESSAGE`, the expression, a caret.
void printError(const std::string& text, const ly::ExprError& e) {
  llvm::errs() << "<expr>:1:" << e.column + 1 << ": error: " << e.text() << "\n"
               << text << "\n"
               << std::string(e.column, ' ') << "^\n";
}

json tupleJson(const ly::IntTuple& t) {
  if (t.isLeaf()) return t.value();
  json a = json::array();
  for (const auto& e : t.elems()) a.push_back(tupleJson(e));
  return a;
}

// Basis strides as CuTe prints them: `1@0` for mode 0, `2@0@1` for twice
// sub-mode 0 of mode 1 (innermost index first).
json basisJson(const ly::IntTuple& shape, const std::vector<int64_t>& scales,
               const std::vector<ly::BasisPath>& paths, size_t& next) {
  if (shape.isLeaf()) {
    size_t k = next++;
    return ly::basisStrideText(scales[k], paths[k]);
  }
  json a = json::array();
  for (size_t i = 0; i < shape.rank(); ++i) a.push_back(basisJson(shape[i], scales, paths, next));
  return a;
}

json strideJson(const ly::LayoutFacts& f) {
  size_t next = 0;
  return f.basis.empty() ? tupleJson(f.stride) : basisJson(f.shape, ly::leaves(f.stride), f.basis, next);
}

json factsJson(const std::string& expr, const ly::Value& v) {
  if (v.kind == ly::Value::Int) return {{"expr", expr}, {"value", v.integer}};
  if (v.kind == ly::Value::TilerValue) return {{"expr", expr}, {"layout", ly::valueText(v)}};
  ly::LayoutFacts f = ly::layoutFacts(v);
  json j = {{"expr", expr},
            {"layout", f.layout},
            {"shape", tupleJson(f.shape)},
            {"stride", strideJson(f)},
            {"size", f.size},
            {"cosize", f.cosize ? json(*f.cosize) : json(nullptr)},
            {"rank", f.rank},
            {"depth", f.depth},
            {"injective", f.properties.injective},
            {"surjective", f.properties.surjective},
            {"bijective", f.properties.bijective}};
  if (f.offsets) {
    json o = json::array();
    for (const auto& x : *f.offsets) o.push_back(tupleJson(x));
    j["offsets"] = o;
  }
  j["collision"] = nullptr;
  if (const auto& c = f.properties.collision)
    j["collision"] = {{"coords", {tupleJson(c->coord1), tupleJson(c->coord2)}}, {"offset", c->offset}};
  if (f.tiler) j["tiler"] = tupleJson(*f.tiler);
  if (!f.note.empty()) j["note"] = f.note;
  return j;
}

// --at COORD: the offset (or, with basis strides, the coordinate) at COORD.
int printAt(const LayoutOptions& o, const ly::Value& v) {
  auto coord = ly::parseCoordinate(*o.at);
  if (!coord.ok()) {
    llvm::errs() << "tilesight: --at: " << coord.error().text() << " (column " << coord.error().column + 1 << ")\n"
                 << kUsage;
    return 2;
  }
  if (v.kind != ly::Value::LayoutValue && v.kind != ly::Value::TvValue) {
    llvm::errs() << "tilesight: --at needs a layout, but the expression is " << ly::valueText(v) << "\n";
    return 2;
  }
  // The colex index of the coordinate, then the value's offset at that index.
  auto idx = ly::callCoord(ly::compactColMajor(v.layout.shape), coord.value());
  if (!idx.ok()) {
    llvm::errs() << "tilesight: error: " << idx.error().text() << "\n";
    return 1;
  }
  json at = v.hasBasis() ? tupleJson(ly::valueCoord(v, idx.value())) : json(ly::valueOffset(v, idx.value()));
  if (o.format == LayoutFormat::Json)
    llvm::outs() << jsonText(json{{"expr", o.expr}, {"coord", tupleJson(coord.value())}, {"offset", at}}) << "\n";
  else
    llvm::outs() << (v.hasBasis() ? ly::toString(ly::valueCoord(v, idx.value())) : at.dump()) << "\n";
  return 0;
}

// The PNG's bytes on stdout, which must not be a terminal.
int writePng(const std::string& svg) {
  if (llvm::outs().is_displayed()) {
    llvm::errs() << "tilesight: --format=png writes a binary image: redirect standard output to a file\n";
    return 2;
  }
  PngImage png = svgToPng(svg);
  if (!png.error.empty()) {
    llvm::errs() << "tilesight: " << png.error << "\n";
    return 3;
  }
  llvm::outs() << png.bytes;
  return 0;
}

}  // namespace

int runLayout() {
  LayoutOptions o = layoutOptions();
  if (o.expr.empty()) {
    llvm::errs() << kUsage;
    return 2;
  }
  auto v = ly::evaluate(o.expr);
  if (!v.ok()) {
    printError(o.expr, v.error());
    return 1;
  }
  if (o.at) return printAt(o, v.value());
  std::optional<ly::PictureOptions> picture = pictureOptions(o);
  if (!picture) {
    llvm::errs() << kUsage;
    return 2;
  }
  switch (o.format) {
    case LayoutFormat::Text: llvm::outs() << ly::valueText(v.value()) << "\n"; break;
    case LayoutFormat::Table: llvm::outs() << ly::renderTable(v.value()); break;
    case LayoutFormat::Markdown: llvm::outs() << ly::renderMarkdown(v.value()); break;
    case LayoutFormat::Json: llvm::outs() << jsonText(factsJson(o.expr, v.value())) << "\n"; break;
    case LayoutFormat::Svg: llvm::outs() << ly::renderSvg(v.value(), *picture); break;
    case LayoutFormat::Latex: llvm::outs() << ly::renderLatex(v.value(), *picture); break;
    case LayoutFormat::Png: return writePng(ly::renderSvg(v.value(), *picture));
  }
  return 0;
}

}  // namespace tilesight::cli
