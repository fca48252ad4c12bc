/* The renderer's GIF writer (tools/render/gif.c) against an independent decoder, giflib's
 * (Debian libgif-dev): every frame written is decoded, laid over the previous ones as a viewer
 * does, and compared pixel by pixel with the frame given. Frames of at most 256 colors in
 * different buckets must come back exactly; others within the palette's error. */
#define _POSIX_C_SOURCE 200809L
#include "gif.h"

#include <criterion/criterion.h>
#include <gif_lib.h>

#include <stdlib.h>
#include <string.h>

/* ---- Writing and decoding ---------------------------------------------------------------- */

typedef struct encoded {
    char* bytes;
    size_t size;
} encoded;

static encoded encode(int width, int height, uint8_t* const* frames, const int* delays,
                      int count) {
    encoded e = {NULL, 0};
    FILE* out = open_memstream(&e.bytes, &e.size);
    cr_assert(out != NULL);
    gif_writer gif;
    cr_assert(gif_begin(&gif, out, width, height));
    for (int i = 0; i < count; ++i) {
        cr_assert(gif_add_frame(&gif, frames[i], delays[i]));
    }
    gif_end(&gif);
    cr_assert(fclose(out) == 0);
    return e;
}

typedef struct reader {
    const encoded* from;
    size_t at;
} reader;

static int read_bytes(GifFileType* file, GifByteType* into, int count) {
    reader* r = file->UserData;
    size_t left = r->from->size - r->at;
    size_t n = (size_t)count < left ? (size_t)count : left;
    memcpy(into, r->from->bytes + r->at, n);
    r->at += n;
    return (int)n;
}

static GifFileType* decode(const encoded* e, reader* r) {
    r->from = e;
    r->at = 0;
    int error = 0;
    GifFileType* file = DGifOpen(r, read_bytes, &error);
    cr_assert(file != NULL, "giflib cannot open the file: %s", GifErrorString(error));
    cr_assert(DGifSlurp(file) == GIF_OK, "giflib cannot decode the file: %s",
              GifErrorString(file->Error));
    return file;
}

/* Lay frame `index` over the screen as a viewer does ("do not dispose"). */
static void compose(const GifFileType* file, int index, uint8_t* screen) {
    const SavedImage* image = &file->SavedImages[index];
    const GifImageDesc* d = &image->ImageDesc;
    cr_assert(d->ColorMap != NULL, "frame %d has no local color table", index);
    cr_assert(!d->Interlace);
    cr_assert(d->Left + d->Width <= file->SWidth && d->Top + d->Height <= file->SHeight);
    for (int y = 0; y < d->Height; ++y) {
        for (int x = 0; x < d->Width; ++x) {
            int i = image->RasterBits[y * d->Width + x];
            cr_assert(i < d->ColorMap->ColorCount);
            GifColorType c = d->ColorMap->Colors[i];
            uint8_t* p = screen + 3 * ((size_t)(d->Top + y) * (size_t)file->SWidth + (size_t)(d->Left + x));
            p[0] = c.Red;
            p[1] = c.Green;
            p[2] = c.Blue;
        }
    }
}

/* Largest difference of a channel between the decoded screens and the frames given. */
static int round_trip(int width, int height, uint8_t* const* frames, int count) {
    int delays[64];
    for (int i = 0; i < count; ++i) {
        delays[i] = 3 + i % 2;
    }
    encoded e = encode(width, height, frames, delays, count);
    reader r;
    GifFileType* file = decode(&e, &r);
    cr_assert_eq(file->SWidth, width);
    cr_assert_eq(file->SHeight, height);
    cr_assert_eq(file->ImageCount, count);
    uint8_t* screen = calloc((size_t)width * (size_t)height, 3);
    int worst = 0;
    for (int f = 0; f < count; ++f) {
        GraphicsControlBlock control;
        cr_assert(DGifSavedExtensionToGCB(file, f, &control) == GIF_OK);
        cr_assert_eq(control.DelayTime, delays[f]);
        cr_assert_eq(control.DisposalMode, DISPOSE_DO_NOT);
        compose(file, f, screen);
        for (size_t i = 0; i < 3 * (size_t)width * (size_t)height; ++i) {
            int difference = abs((int)screen[i] - (int)frames[f][i]);
            worst = difference > worst ? difference : worst;
        }
    }
    free(screen);
    int error = 0;
    DGifCloseFile(file, &error);
    free(e.bytes);
    return worst;
}

/* ---- Frames ------------------------------------------------------------------------------ */

static uint64_t random_state = 0x9e3779b97f4a7c15u;

static uint32_t next_random(void) {
    random_state = random_state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(random_state >> 33);
}

/* n colors, each in its own bucket of 6 bits a channel (so the writer keeps them exactly):
 * the low 2 bits of each channel are free, the high 6 differ between colors. */
static void distinct_colors(uint8_t* colors, int n) {
    for (int i = 0; i < n; ++i) {
        int bucket = (int)((uint32_t)i * 2654435761u % 262144u); /* a permutation of buckets */
        colors[3 * i] = (uint8_t)(((bucket >> 12) & 63) << 2 | (next_random() & 3));
        colors[3 * i + 1] = (uint8_t)(((bucket >> 6) & 63) << 2 | (next_random() & 3));
        colors[3 * i + 2] = (uint8_t)((bucket & 63) << 2 | (next_random() & 3));
    }
}

static uint8_t* noise_frame(int width, int height, const uint8_t* colors, int n) {
    uint8_t* frame = malloc(3 * (size_t)width * (size_t)height);
    for (size_t i = 0; i < (size_t)width * (size_t)height; ++i) {
        memcpy(frame + 3 * i, colors + 3 * (next_random() % (uint32_t)n), 3);
    }
    return frame;
}

Test(gif, one_pixel_one_color) {
    uint8_t pixel[3] = {12, 200, 99};
    uint8_t* frames[1] = {pixel};
    cr_assert_eq(round_trip(1, 1, frames, 1), 0);
}

Test(gif, every_palette_size_exact) {
    /* 2, 3, 4, 5, ... 256 colors: every color table size and LZW starting width */
    for (int n = 1; n <= 256; n = n < 8 ? n + 1 : n * 2) {
        uint8_t colors[3 * 256];
        distinct_colors(colors, n);
        uint8_t* frame = noise_frame(37, 23, colors, n);
        uint8_t* frames[1] = {frame};
        cr_assert_eq(round_trip(37, 23, frames, 1), 0, "%d colors", n);
        free(frame);
    }
}

Test(gif, noise_fills_the_code_table_many_times) {
    /* 256 colors at random over 400x300: the 4096-code table fills every few hundred pixels */
    uint8_t colors[3 * 256];
    distinct_colors(colors, 256);
    uint8_t* frame = noise_frame(400, 300, colors, 256);
    uint8_t* frames[1] = {frame};
    cr_assert_eq(round_trip(400, 300, frames, 1), 0);
    free(frame);
}

Test(gif, long_runs_of_one_color) {
    /* a flat picture: codes grow to 12 bits from a few long strings */
    uint8_t* frame = malloc(3 * 500 * 400);
    for (int i = 0; i < 500 * 400; ++i) {
        frame[3 * i] = (uint8_t)(i / 50000 * 60);
        frame[3 * i + 1] = 30;
        frame[3 * i + 2] = 200;
    }
    uint8_t* frames[1] = {frame};
    cr_assert_eq(round_trip(500, 400, frames, 1), 0);
    free(frame);
}

Test(gif, frames_store_only_what_changed) {
    uint8_t colors[3 * 16];
    distinct_colors(colors, 16);
    enum { W = 64, H = 48, COUNT = 4 };
    uint8_t* frames[COUNT];
    frames[0] = noise_frame(W, H, colors, 16);
    for (int f = 1; f < COUNT; ++f) {
        frames[f] = malloc(3 * W * H);
        memcpy(frames[f], frames[f - 1], 3 * W * H);
    }
    /* frame 1: a 5x3 patch at (10, 20) changes; frame 2: nothing; frame 3: one corner pixel */
    for (int y = 20; y < 23; ++y) {
        for (int x = 10; x < 15; ++x) {
            memcpy(frames[1] + 3 * (y * W + x), colors + 3 * ((x + y) % 16), 3);
        }
    }
    for (int f = 2; f < COUNT; ++f) {
        memcpy(frames[f], frames[1], 3 * W * H);
    }
    memcpy(frames[3] + 3 * (W * H - 1), frames[3], 3);
    cr_assert_eq(round_trip(W, H, frames, COUNT), 0);
    int delays[COUNT] = {1, 2, 3, 4};
    encoded e = encode(W, H, frames, delays, COUNT);
    reader r;
    GifFileType* file = decode(&e, &r);
    const GifImageDesc* d = &file->SavedImages[1].ImageDesc;
    cr_assert(d->Width <= 5 && d->Height <= 3 && d->Left >= 10 && d->Top >= 20,
              "frame 1 stored %dx%d at (%d, %d), not the patch", d->Width, d->Height, d->Left,
              d->Top);
    d = &file->SavedImages[2].ImageDesc;
    cr_assert(d->Width == 1 && d->Height == 1, "an unchanged frame is one pixel");
    d = &file->SavedImages[3].ImageDesc;
    cr_assert(d->Width == 1 && d->Height == 1 && d->Left == W - 1 && d->Top == H - 1);
    int error = 0;
    DGifCloseFile(file, &error);
    free(e.bytes);
    for (int f = 0; f < COUNT; ++f) {
        free(frames[f]);
    }
}

Test(gif, many_colors_come_back_close) {
    /* 65,536 colors, all equally common: the palette's cube bounds the error. A color is at
     * most 42.5 per channel from a cube point, so the nearest entry is within sqrt(3) * 42.5
     * = 73.6 of it, in any one channel too. */
    enum { W = 256, H = 256 };
    uint8_t* frame = malloc(3 * W * H);
    for (int y = 0; y < H; ++y) {
        for (int x = 0; x < W; ++x) {
            frame[3 * (y * W + x)] = (uint8_t)x;
            frame[3 * (y * W + x) + 1] = (uint8_t)y;
            frame[3 * (y * W + x) + 2] = 128;
        }
    }
    uint8_t* frames[1] = {frame};
    int worst = round_trip(W, H, frames, 1);
    cr_assert(worst > 0 && worst <= 73, "worst channel error %d", worst);
    free(frame);
}

Test(gif, same_frames_same_bytes) {
    uint8_t colors[3 * 300];
    distinct_colors(colors, 300);
    uint8_t* frames[2] = {noise_frame(50, 40, colors, 300), noise_frame(50, 40, colors, 300)};
    int delays[2] = {5, 5};
    encoded a = encode(50, 40, frames, delays, 2);
    encoded b = encode(50, 40, frames, delays, 2);
    cr_assert_eq(a.size, b.size);
    cr_assert(memcmp(a.bytes, b.bytes, a.size) == 0);
    free(a.bytes);
    free(b.bytes);
    free(frames[0]);
    free(frames[1]);
}

Test(gif, refuses_sizes_a_gif_cannot_say) {
    gif_writer gif;
    cr_assert(!gif_begin(&gif, stdout, 0, 10));
    cr_assert(!gif_begin(&gif, stdout, 10, -1));
    cr_assert(!gif_begin(&gif, stdout, GIF_MAX_SIZE + 1, 1));
}
