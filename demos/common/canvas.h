/* A tiny software rasterizer for the demos: filled polygons, circles, thick lines and text into
 * an RGB buffer, written out as PNG with stb_image_write. Drawing is in world metres through a
 * view (a camera: centre and pixels per metre, +y up) or in pixels (+y down). Canvases meant
 * for a PNG are usually made `supersample` times larger and averaged down when written, which
 * smooths every edge without any anti-aliasing code.
 *
 * Demo code, not part of the engine: it may use libm freely. */
#ifndef DEMO_CANVAS_H
#define DEMO_CANVAS_H

#include <carom/carom.h>

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

canvas canvas_make(int width, int height);
void canvas_free(canvas* c);
void canvas_clear(canvas* c, uint32_t rgb);
carom_vec2 canvas_to_pixels(const canvas* c, canvas_view view, carom_vec2 world);

/* In pixel coordinates. alpha in [0, 1] blends over what is there. */
void canvas_fill_polygon_px(canvas* c, const carom_vec2* points, int count, uint32_t rgb,
                            double alpha);
void canvas_fill_circle_px(canvas* c, carom_vec2 center, double radius, uint32_t rgb,
                           double alpha);
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

/* Write the canvas as PNG, averaging each block of downsample x downsample pixels into one.
 * The file is replaced whole or not at all (tools/atomic_file.h): a failed write leaves an
 * earlier file at path as it was, and says why on stderr, after "program: " unless program is
 * NULL. Returns 0 on success. */
int canvas_write_png(const canvas* c, const char* path, int downsample, const char* program);

/* carom_world_draw callbacks that draw into a canvas: shapes filled with their color and
 * outlined darker, segments (walls) as lines of `line_width` metres. */
typedef struct canvas_draw_context {
    canvas* target;
    canvas_view view;
    double line_width; /* m */
    double fill_alpha;
    /* optional: return the color to draw a shape in, given its engine color and the
     * world-space centroid of the polygon, circle or segment (0xffffffff: skip the shape);
     * lets a demo color its cars */
    uint32_t (*recolor)(uint32_t color, carom_vec2 centroid, void* user);
    void* user;
} canvas_draw_context;

carom_debug_draw canvas_debug_draw(canvas_draw_context* context);

#endif
