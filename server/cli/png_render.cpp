// SVG to PNG through librsvg and cairo, loaded with dlopen (png_render.h).
#include "server/cli/png_render.h"

#include <cmath>
#include <cstdint>

#include "codegen/runtime/dynamic_library.h"

namespace tilesight::cli {

namespace {

// The C ABI of the few functions used (librsvg >= 2.52, cairo >= 1.0, GLib).
struct GError {
  uint32_t domain;
  int code;
  char* message;
};
struct RsvgRectangle {
  double x, y, width, height;
};
using RsvgNewFromData = void* (*)(const unsigned char*, size_t, GError**);
using RsvgIntrinsicSize = int (*)(void*, double*, double*);
using RsvgRenderDocument = int (*)(void*, void*, const RsvgRectangle*, GError**);
using GObjectUnref = void (*)(void*);
using GErrorFree = void (*)(GError*);
using CairoImageSurfaceCreate = void* (*)(int format, int width, int height);
using CairoCreate = void* (*)(void*);
using CairoDestroy = void (*)(void*);
using CairoWriteFunc = int (*)(void* closure, const unsigned char* data, unsigned int length);
using CairoWritePngStream = int (*)(void*, CairoWriteFunc, void*);
constexpr int kCairoFormatArgb32 = 0;
constexpr int kCairoStatusSuccess = 0;
// Beyond this many pixels a side the picture is refused rather than drawn.
constexpr double kMaxSide = 16384;

int appendBytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return kCairoStatusSuccess;
}

struct Api {
  runtime::DynamicLibrary rsvg{{"librsvg-2.so.2"}};
  RsvgNewFromData newFromData = rsvg.get<RsvgNewFromData>("rsvg_handle_new_from_data");
  RsvgIntrinsicSize intrinsicSize = rsvg.get<RsvgIntrinsicSize>("rsvg_handle_get_intrinsic_size_in_pixels");
  RsvgRenderDocument render = rsvg.get<RsvgRenderDocument>("rsvg_handle_render_document");
  GObjectUnref unref = rsvg.get<GObjectUnref>("g_object_unref");
  GErrorFree errorFree = rsvg.get<GErrorFree>("g_error_free");
  // cairo comes with librsvg: its symbols are found through librsvg's handle.
  CairoImageSurfaceCreate surfaceCreate = rsvg.get<CairoImageSurfaceCreate>("cairo_image_surface_create");
  CairoDestroy surfaceDestroy = rsvg.get<CairoDestroy>("cairo_surface_destroy");
  CairoCreate create = rsvg.get<CairoCreate>("cairo_create");
  CairoDestroy destroy = rsvg.get<CairoDestroy>("cairo_destroy");
  CairoWritePngStream writePng = rsvg.get<CairoWritePngStream>("cairo_surface_write_to_png_stream");

  bool complete() const {
    return newFromData && intrinsicSize && render && unref && errorFree && surfaceCreate && surfaceDestroy &&
           create && destroy && writePng;
  }
};

std::string takeMessage(const Api& api, GError* e) {
  std::string m = e && e->message ? e->message : "unknown error";
  if (e) api.errorFree(e);
  return m;
}

}  // namespace

PngImage svgToPng(const std::string& svg, double scale) {
  static const Api api;
  if (!api.rsvg.loaded())
    return {{}, "--format=png draws the SVG with librsvg, which is not installed (Debian: apt install librsvg2-2): " +
                    api.rsvg.error()};
  if (!api.complete()) return {{}, "--format=png: " + api.rsvg.name() + " lacks librsvg 2.52's functions"};
  GError* error = nullptr;
  void* handle = api.newFromData(reinterpret_cast<const unsigned char*>(svg.data()), svg.size(), &error);
  if (!handle) return {{}, "--format=png: librsvg cannot read the picture: " + takeMessage(api, error)};
  double w = 0, h = 0;
  PngImage out;
  if (!api.intrinsicSize(handle, &w, &h) || w <= 0 || h <= 0 || w * scale > kMaxSide || h * scale > kMaxSide) {
    out.error = "--format=png: the picture has no drawable size";
  } else {
    int pw = static_cast<int>(std::ceil(w * scale)), ph = static_cast<int>(std::ceil(h * scale));
    void* surface = api.surfaceCreate(kCairoFormatArgb32, pw, ph);
    void* cr = api.create(surface);
    RsvgRectangle viewport{0, 0, pw * 1.0, ph * 1.0};
    if (!api.render(handle, cr, &viewport, &error))
      out.error = "--format=png: librsvg cannot draw the picture: " + takeMessage(api, error);
    else if (api.writePng(surface, appendBytes, &out.bytes) != kCairoStatusSuccess)
      out.error = "--format=png: cairo cannot encode the PNG";
    api.destroy(cr);
    api.surfaceDestroy(surface);
  }
  api.unref(handle);
  if (!out.error.empty()) out.bytes.clear();
  return out;
}

}  // namespace tilesight::cli
