/* The software rasterizer of the demos and `carom render`: see canvas.h. Scanline polygon fill
 * (even-odd rule, sampled at pixel centres), circles by rows, lines as quads, text from
 * stb_easy_font's quads, PNG by stb_image_write (this file holds its one implementation). */
#include "canvas.h"

#include "atomic_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wconversion"
#endif
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#include <stb/stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

canvas canvas_make(int width, int height) {
    canvas c;
    c.width = width;
    c.height = height;
    c.pixels = width > 0 && height > 0 ? calloc((size_t)width * (size_t)height, 3) : NULL;
    return c;
}

void canvas_free(canvas* c) {
    free(c->pixels);
    c->pixels = NULL;
}

void canvas_clear(canvas* c, uint32_t rgb) {
    uint8_t r = (uint8_t)(rgb >> 16), g = (uint8_t)(rgb >> 8), b = (uint8_t)rgb;
    size_t n = (size_t)c->width * (size_t)c->height;
    for (size_t i = 0; i < n; ++i) {
        c->pixels[3 * i] = r;
        c->pixels[3 * i + 1] = g;
        c->pixels[3 * i + 2] = b;
    }
}

carom_vec2 canvas_to_pixels(const canvas* c, canvas_view view, carom_vec2 world) {
    return carom_v2(0.5 * c->width + (world.x - view.center.x) * view.scale,
                    0.5 * c->height - (world.y - view.center.y) * view.scale);
}

/* Far outside any canvas, and inside what an int holds. */
#define PIXEL_LIMIT 1e8

/* A coordinate in pixels, clamped to +-PIXEL_LIMIT: a view can put the world's far points (up
 * to 1e12 m) anywhere, or nowhere (NaN, which clamps to -PIXEL_LIMIT), and a double outside an
 * int's range must not be converted to one. Clamping moves no pixel that is drawn. */
static double clamp_pixels(double x) {
    return x > -PIXEL_LIMIT ? (x < PIXEL_LIMIT ? x : PIXEL_LIMIT) : -PIXEL_LIMIT;
}

/* The first and the last pixel whose centre a span from x covers. */
static int first_pixel(double x) {
    return (int)ceil(clamp_pixels(x));
}

static int last_pixel(double x) {
    return (int)floor(clamp_pixels(x));
}

/* Rows y0 to y1 within the canvas. */
static void clip_rows(const canvas* c, int* y0, int* y1) {
    *y0 = *y0 < 0 ? 0 : *y0;
    *y1 = *y1 > c->height - 1 ? c->height - 1 : *y1;
}

static void blend_span(canvas* c, int y, int x0, int x1, uint32_t rgb, double alpha) {
    if (y < 0 || y >= c->height) {
        return;
    }
    if (x0 < 0) {
        x0 = 0;
    }
    if (x1 > c->width - 1) {
        x1 = c->width - 1;
    }
    double src[3] = {(double)((rgb >> 16) & 0xff), (double)((rgb >> 8) & 0xff),
                     (double)(rgb & 0xff)};
    uint8_t* row = c->pixels + (size_t)y * (size_t)c->width * 3;
    for (int x = x0; x <= x1; ++x) {
        uint8_t* p = row + 3 * x;
        if (alpha >= 1.0) {
            p[0] = (uint8_t)src[0];
            p[1] = (uint8_t)src[1];
            p[2] = (uint8_t)src[2];
        } else {
            for (int k = 0; k < 3; ++k) {
                p[k] = (uint8_t)(p[k] + alpha * (src[k] - p[k]) + 0.5);
            }
        }
    }
}

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

void canvas_fill_polygon_px(canvas* c, const carom_vec2* points, int count, uint32_t rgb,
                            double alpha) {
    if (count < 3) {
        return;
    }
    double min_y = points[0].y, max_y = points[0].y;
    for (int i = 1; i < count; ++i) {
        min_y = fmin(min_y, points[i].y);
        max_y = fmax(max_y, points[i].y);
    }
    int y0 = first_pixel(min_y - 0.5), y1 = last_pixel(max_y - 0.5);
    clip_rows(c, &y0, &y1);
    double stack_crossings[64];
    double* crossings = count <= 64 ? stack_crossings : malloc(sizeof(double) * (size_t)count);
    for (int y = y0; y <= y1; ++y) {
        double sample = y + 0.5;
        int n = 0;
        for (int i = 0; i < count; ++i) {
            carom_vec2 a = points[i], b = points[(i + 1) % count];
            if ((a.y <= sample) != (b.y <= sample)) {
                crossings[n++] = a.x + (sample - a.y) / (b.y - a.y) * (b.x - a.x);
            }
        }
        qsort(crossings, (size_t)n, sizeof(double), compare_doubles);
        for (int i = 0; i + 1 < n; i += 2) {
            int x0 = first_pixel(crossings[i] - 0.5), x1 = last_pixel(crossings[i + 1] - 0.5);
            if (x1 >= x0) {
                blend_span(c, y, x0, x1, rgb, alpha);
            }
        }
    }
    if (crossings != stack_crossings) {
        free(crossings);
    }
}

void canvas_fill_circle_px(canvas* c, carom_vec2 center, double radius, uint32_t rgb,
                           double alpha) {
    int y0 = first_pixel(center.y - radius - 0.5), y1 = last_pixel(center.y + radius - 0.5);
    clip_rows(c, &y0, &y1);
    for (int y = y0; y <= y1; ++y) {
        double dy = y + 0.5 - center.y;
        double half = radius * radius - dy * dy;
        if (half < 0.0) {
            continue;
        }
        half = sqrt(half);
        int x0 = first_pixel(center.x - half - 0.5), x1 = last_pixel(center.x + half - 0.5);
        if (x1 >= x0) {
            blend_span(c, y, x0, x1, rgb, alpha);
        }
    }
}

/* Half the width of a disc's row at height dy from its centre, or -1 when the row misses it. */
static double half_chord(double radius, double dy) {
    double square = radius * radius - dy * dy;
    return square < 0.0 ? -1.0 : sqrt(square);
}

void canvas_ring_px(canvas* c, carom_vec2 center, double radius, double width, uint32_t rgb) {
    double inner = radius - width;
    int y0 = first_pixel(center.y - radius - 0.5), y1 = last_pixel(center.y + radius - 0.5);
    clip_rows(c, &y0, &y1);
    for (int y = y0; y <= y1; ++y) {
        double dy = y + 0.5 - center.y;
        double outer_half = half_chord(radius, dy);
        if (outer_half < 0.0) {
            continue;
        }
        double inner_half = inner > 0.0 ? half_chord(inner, dy) : -1.0;
        int x0 = first_pixel(center.x - outer_half - 0.5),
            x3 = last_pixel(center.x + outer_half - 0.5);
        if (inner_half < 0.0) {
            blend_span(c, y, x0, x3, rgb, 1.0);
            continue;
        }
        /* the pixels of the row outside the inner disc, on each side of it */
        int x1 = first_pixel(center.x - inner_half - 0.5) - 1;
        int x2 = last_pixel(center.x + inner_half - 0.5) + 1;
        if (x1 >= x0) {
            blend_span(c, y, x0, x1, rgb, 1.0);
        }
        if (x3 >= x2) {
            blend_span(c, y, x2, x3, rgb, 1.0);
        }
    }
}

void canvas_line_px(canvas* c, carom_vec2 a, carom_vec2 b, double width, uint32_t rgb,
                    double alpha) {
    carom_vec2 d = carom_sub(b, a);
    double length = carom_length(d);
    if (length < 1e-9) {
        canvas_fill_circle_px(c, a, 0.5 * width, rgb, alpha);
        return;
    }
    carom_vec2 n = carom_scale(0.5 * width / length, carom_left_perp(d));
    carom_vec2 quad[4] = {carom_add(a, n), carom_add(b, n), carom_sub(b, n), carom_sub(a, n)};
    canvas_fill_polygon_px(c, quad, 4, rgb, alpha);
}

void canvas_fill_rect_px(canvas* c, double x0, double y0, double x1, double y1, uint32_t rgb,
                         double alpha) {
    carom_vec2 quad[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    canvas_fill_polygon_px(c, quad, 4, rgb, alpha);
}

typedef struct font_vertex {
    float x, y, z;
    unsigned char color[4];
} font_vertex;

void canvas_text_px(canvas* c, double x, double y, double size, const char* text, uint32_t rgb) {
    static font_vertex buffer[4 * 4000];
    char copy[1024];
    strncpy(copy, text, sizeof(copy) - 1);
    copy[sizeof(copy) - 1] = '\0';
    int quads = stb_easy_font_print(0.0f, 0.0f, copy, NULL, buffer, (int)sizeof(buffer));
    for (int q = 0; q < quads; ++q) {
        const font_vertex* v = &buffer[4 * q];
        canvas_fill_rect_px(c, x + size * v[0].x, y + size * v[0].y, x + size * v[2].x,
                            y + size * v[2].y, rgb, 1.0);
    }
}

double canvas_text_width(const char* text, double size) {
    char copy[1024];
    strncpy(copy, text, sizeof(copy) - 1);
    copy[sizeof(copy) - 1] = '\0';
    return size * stb_easy_font_width(copy);
}

void canvas_fill_polygon(canvas* c, canvas_view view, const carom_vec2* points, int count,
                         uint32_t rgb, double alpha) {
    carom_vec2 stack_pixels[64] = {{0.0, 0.0}};
    carom_vec2* pixels = count <= 64 ? stack_pixels : malloc(sizeof(carom_vec2) * (size_t)count);
    for (int i = 0; i < count; ++i) {
        pixels[i] = canvas_to_pixels(c, view, points[i]);
    }
    canvas_fill_polygon_px(c, pixels, count, rgb, alpha);
    if (pixels != stack_pixels) {
        free(pixels);
    }
}

void canvas_fill_circle(canvas* c, canvas_view view, carom_vec2 center, double radius, uint32_t rgb,
                        double alpha) {
    canvas_fill_circle_px(c, canvas_to_pixels(c, view, center), radius * view.scale, rgb, alpha);
}

void canvas_ring(canvas* c, canvas_view view, carom_vec2 center, double radius, double width,
                 uint32_t rgb) {
    canvas_ring_px(c, canvas_to_pixels(c, view, center), radius * view.scale,
                   fmax(1.0, width * view.scale), rgb);
}

void canvas_line(canvas* c, canvas_view view, carom_vec2 a, carom_vec2 b, double width,
                 uint32_t rgb, double alpha) {
    canvas_line_px(c, canvas_to_pixels(c, view, a), canvas_to_pixels(c, view, b),
                   fmax(1.0, width * view.scale), rgb, alpha);
}

void canvas_arrow(canvas* c, canvas_view view, carom_vec2 a, carom_vec2 b, double width,
                  uint32_t rgb) {
    carom_vec2 d = carom_sub(b, a);
    double length = carom_length(d);
    if (length < 1e-9) {
        return;
    }
    carom_vec2 u = carom_scale(1.0 / length, d);
    double head = fmin(0.4 * length, 6.0 * width);
    carom_vec2 base = carom_mul_sub(b, head, u);
    canvas_line(c, view, a, base, width, rgb, 1.0);
    carom_vec2 side = carom_scale(0.5 * head, carom_left_perp(u));
    carom_vec2 tip[3] = {b, carom_add(base, side), carom_sub(base, side)};
    canvas_fill_polygon(c, view, tip, 3, rgb, 1.0);
}

void canvas_outline(canvas* c, canvas_view view, const carom_vec2* points, int count, double width,
                    uint32_t rgb) {
    for (int i = 0; i < count; ++i) {
        canvas_line(c, view, points[i], points[(i + 1) % count], width, rgb, 1.0);
        canvas_fill_circle(c, view, points[i], 0.5 * width, rgb, 1.0);
    }
}

void canvas_blit(canvas* dst, const canvas* src, int x, int y) {
    for (int row = 0; row < src->height; ++row) {
        int ty = y + row;
        if (ty < 0 || ty >= dst->height) {
            continue;
        }
        for (int col = 0; col < src->width; ++col) {
            int tx = x + col;
            if (tx >= 0 && tx < dst->width) {
                memcpy(dst->pixels + ((size_t)ty * (size_t)dst->width + (size_t)tx) * 3,
                       src->pixels + ((size_t)row * (size_t)src->width + (size_t)col) * 3, 3);
            }
        }
    }
}

/* stb_image_write hands over the encoded PNG in pieces; a failed write is caught by the stream's
 * error indicator when the file is committed. */
static void write_png_piece(void* context, void* data, int size) {
    atomic_file* file = context;
    if (fwrite(data, 1, (size_t)size, file->file) != (size_t)size) {
        atomic_file_failed(file); /* keeps errno, the reason, while it is fresh */
    }
}

canvas canvas_downsample(const canvas* c, int factor) {
    if (factor < 1) {
        factor = 1;
    }
    canvas out = canvas_make(c->width / factor, c->height / factor);
    if (out.pixels == NULL) {
        return out;
    }
    int area = factor * factor;
    for (int y = 0; y < out.height; ++y) {
        for (int x = 0; x < out.width; ++x) {
            for (int k = 0; k < 3; ++k) {
                int sum = 0;
                for (int dy = 0; dy < factor; ++dy) {
                    const uint8_t* row =
                        c->pixels + ((size_t)(y * factor + dy) * (size_t)c->width) * 3;
                    for (int dx = 0; dx < factor; ++dx) {
                        sum += row[3 * (x * factor + dx) + k];
                    }
                }
                out.pixels[((size_t)y * (size_t)out.width + (size_t)x) * 3 + (size_t)k] =
                    (uint8_t)((sum + area / 2) / area);
            }
        }
    }
    return out;
}

bool canvas_put_png(const canvas* c, atomic_file* file) {
    return stbi_write_png_to_func(write_png_piece, file, c->width, c->height, 3, c->pixels,
                                  c->width * 3) != 0;
}

/* "program: " before a message, or nothing. */
static void print_program(const char* program) {
    if (program != NULL) {
        fprintf(stderr, "%s: ", program);
    }
}

int canvas_write_png(const canvas* c, const char* path, int downsample, const char* program) {
    canvas small = canvas_downsample(c, downsample);
    if (small.pixels == NULL) {
        print_program(program);
        fprintf(stderr, "cannot write '%s': out of memory\n", path);
        return -1;
    }
    atomic_file file;
    bool ok = atomic_file_open(&file, path);
    if (ok && !canvas_put_png(&small, &file)) {
        /* stb could not encode (out of memory): nothing to blame on the file */
        print_program(program);
        fprintf(stderr, "could not encode '%s' as PNG\n", path);
        atomic_file_discard(&file);
        canvas_free(&small);
        return -1;
    }
    ok = ok && atomic_file_commit(&file);
    if (!ok) {
        atomic_file_report(&file, program);
    }
    atomic_file_discard(&file);
    canvas_free(&small);
    return ok ? 0 : -1;
}
