#pragma once
// SVG to PNG for `tilesight layout --format=png`: librsvg draws the picture's
// SVG on a cairo image surface. Both are loaded at run time (Debian's
// librsvg2-2 brings cairo), so a tilesight without them still runs and says
// what is missing when a PNG is asked for.
#include <string>

namespace tilesight::cli {

struct PngImage {
  std::string bytes;  // the PNG file
  std::string error;  // why there is none (empty when bytes is the image)
};

// Renders `svg` at its own size in pixels, times `scale`.
PngImage svgToPng(const std::string& svg, double scale = 1.0);

}  // namespace tilesight::cli
