/* A tiny software rasterizer for the demos and `carom render`: filled polygons, circles, thick
 * lines and text into an RGB buffer, written out as PNG with stb_image_write (or as GIF frames,
 * gif.h). Drawing is in world metres through a
 * view (a camera: centre and pixels per metre, +y up) or in pixels (+y down). Canvases meant
 * for a PNG are usually made `supersample` times larger and averaged down when written, which
 * smooths every edge without any anti-aliasing code.
 *
 * Tool code, not part of the engine: it may use libm freely. Its results are the same bits on
 * every build all the same (no contraction, correctly rounded sqrt), so a picture drawn from the
 * same world is the same file everywhere. */
#ifndef CAROM_RENDER_CANVAS_H
#define CAROM_RENDER_CANVAS_H

#include "atomic_file.h"

#include <carom/carom.h>

#include <stdbool.h>
#include <stdint.h>

typedef struct canvas {
    int width, height; /* pixels */
    uint8_t* pixels;   /* RGB, row-major, top row first */
} canvas;

/* World to pixels: the world point `center` lands at the middle of the canvas. */
typedef struct canvas_view {
    carom_vec2 center; /* m */
    double scale;      /* pixels per metre */
} canvas_view;

/* A canvas cleared to black; its pixels are NULL when there is not enough memory (or the size
 * is not positive), which the caller checks. */
canvas canvas_make(int width, int height);
void canvas_free(canvas* c);
void canvas_clear(canvas* c, uint32_t rgb);
carom_vec2 canvas_to_pixels(const canvas* c, canvas_view view, carom_vec2 world);

/* In pixel coordinates. alpha in [0, 1] blends over what is there. */
void canvas_fill_polygon_px(canvas* c, const carom_vec2* points, int count, uint32_t rgb,
                            double alpha);
void canvas_fill_circle_px(canvas* c, carom_vec2 center, double radius, uint32_t rgb,
                           double alpha);
/* The band between radius - width and radius, opaque. */
void canvas_ring_px(canvas* c, carom_vec2 center, double radius, double width, uint32_t rgb);
void canvas_line_px(canvas* c, carom_vec2 a, carom_vec2 b, double width, uint32_t rgb,
                    double alpha);
void canvas_fill_rect_px(canvas* c, double x0, double y0, double x1, double y1, uint32_t rgb,
                         double alpha);
/* Text with stb_easy_font, its top-left at (x, y), each font pixel `size` pixels wide. */
void canvas_text_px(canvas* c, double x, double y, double size, const char* text, uint32_t rgb);
/* Width of text in pixels at that size. */
double canvas_text_width(const char* text, double size);

/* The same in world coordinates through a view; widths and radii in metres. */
void canvas_fill_polygon(canvas* c, canvas_view view, const carom_vec2* points, int count,
                         uint32_t rgb, double alpha);
void canvas_fill_circle(canvas* c, canvas_view view, carom_vec2 center, double radius,
                        uint32_t rgb, double alpha);
void canvas_ring(canvas* c, canvas_view view, carom_vec2 center, double radius, double width,
                 uint32_t rgb);
void canvas_line(canvas* c, canvas_view view, carom_vec2 a, carom_vec2 b, double width,
                 uint32_t rgb, double alpha);
/* An arrow from a to b, head included. */
void canvas_arrow(canvas* c, canvas_view view, carom_vec2 a, carom_vec2 b, double width,
                  uint32_t rgb);
/* The outline of a closed polygon. */
void canvas_outline(canvas* c, canvas_view view, const carom_vec2* points, int count,
                    double width, uint32_t rgb);

/* Copy all of src into dst with its top-left corner at pixel (x, y), clipped. */
void canvas_blit(canvas* dst, const canvas* src, int x, int y);

/* A copy averaged down: each block of factor x factor pixels becomes one (the rounded mean).
 * Its pixels are NULL when there is not enough memory. */
canvas canvas_downsample(const canvas* c, int factor);

/* Encode the canvas as PNG into an open atomic file (its stream); false when stb could not
 * encode it (out of memory). A write error is the file's to report (atomic_file_failed). */
bool canvas_put_png(const canvas* c, atomic_file* file);

/* Write the canvas as PNG, averaging each block of downsample x downsample pixels into one.
 * The file is replaced whole or not at all (tools/atomic_file.h): a failed write leaves an
 * earlier file at path as it was, and says why on stderr, after "program: " unless program is
 * NULL. Returns 0 on success. */
int canvas_write_png(const canvas* c, const char* path, int downsample, const char* program);

#endif
