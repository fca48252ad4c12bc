/* Animated GIF files: see gif.h. The layout follows the GIF89a specification: a header and a
 * logical screen without a global color table, the NETSCAPE2.0 extension that makes it loop,
 * then per frame a graphic control extension (its delay; "do not dispose", so the part of the
 * screen a frame does not cover stays), an image descriptor with a local color table, and the
 * pixels' LZW codes in sub-blocks of at most 255 bytes. */
#include "gif.h"

#include <stdlib.h>
#include <string.h>

/* ---- Palette ----------------------------------------------------------------------------- */

#define BUCKET_BITS 6 /* per channel */
#define BUCKET_COUNT (1 << (3 * BUCKET_BITS))
#define PALETTE_MAX 256
#define CUBE_ENTRIES 64 /* 4 levels a channel: 0, 85, 170, 255 */

struct gif_quantizer {
    uint32_t* count; /* pixels in each bucket */
    uint64_t* sum;   /* their red, green and blue, 3 per bucket */
    int32_t* used;   /* the buckets with pixels in this frame, in the order first met */
    int used_count;
    uint8_t* index; /* each used bucket's palette entry */
    uint8_t palette[3 * PALETTE_MAX];
    int palette_size;
};

static int bucket_of(const uint8_t* rgb) {
    const int drop = 8 - BUCKET_BITS;
    return ((rgb[0] >> drop) << (2 * BUCKET_BITS)) | ((rgb[1] >> drop) << BUCKET_BITS) |
           (rgb[2] >> drop);
}

static gif_quantizer* quantizer_make(void) {
    gif_quantizer* q = calloc(1, sizeof(gif_quantizer));
    if (q == NULL) {
        return NULL;
    }
    q->count = calloc(BUCKET_COUNT, sizeof(uint32_t));
    q->sum = calloc(3 * (size_t)BUCKET_COUNT, sizeof(uint64_t));
    q->used = malloc(BUCKET_COUNT * sizeof(int32_t));
    q->index = malloc(BUCKET_COUNT);
    if (q->count == NULL || q->sum == NULL || q->used == NULL || q->index == NULL) {
        free(q->count);
        free(q->sum);
        free(q->used);
        free(q->index);
        free(q);
        return NULL;
    }
    return q;
}

static void quantizer_free(gif_quantizer* q) {
    if (q != NULL) {
        free(q->count);
        free(q->sum);
        free(q->used);
        free(q->index);
        free(q);
    }
}

/* Empty the buckets the last frame used (only those: the others are empty already). */
static void quantizer_reset(gif_quantizer* q) {
    for (int i = 0; i < q->used_count; ++i) {
        int b = q->used[i];
        q->count[b] = 0;
        q->sum[3 * b] = q->sum[3 * b + 1] = q->sum[3 * b + 2] = 0;
    }
    q->used_count = 0;
}

typedef struct bucket_rank {
    uint32_t count;
    int32_t bucket;
} bucket_rank;

/* Fullest first; equal counts by bucket number, so the order never depends on qsort's. */
static int compare_ranks(const void* a, const void* b) {
    const bucket_rank* x = a;
    const bucket_rank* y = b;
    if (x->count != y->count) {
        return x->count > y->count ? -1 : 1;
    }
    return (x->bucket > y->bucket) - (x->bucket < y->bucket);
}

static int nearest_entry(const gif_quantizer* q, const uint8_t* color) {
    int best = 0;
    int32_t best_distance = INT32_MAX;
    for (int i = 0; i < q->palette_size; ++i) {
        const uint8_t* p = &q->palette[3 * i];
        int32_t dr = (int32_t)p[0] - color[0], dg = (int32_t)p[1] - color[1],
                db = (int32_t)p[2] - color[2];
        int32_t distance = dr * dr + dg * dg + db * db;
        if (distance < best_distance) {
            best_distance = distance;
            best = i;
        }
    }
    return best;
}

/* The palette of the rectangle's pixels, and each used bucket's entry. False when out of
 * memory. */
static bool quantize(gif_quantizer* q, const uint8_t* rgb, int stride, int x0, int y0, int w,
                     int h) {
    quantizer_reset(q);
    for (int y = y0; y < y0 + h; ++y) {
        const uint8_t* p = rgb + ((size_t)y * (size_t)stride + (size_t)x0) * 3;
        for (int x = 0; x < w; ++x, p += 3) {
            int b = bucket_of(p);
            if (q->count[b]++ == 0) {
                q->used[q->used_count++] = b;
            }
            q->sum[3 * b] += p[0];
            q->sum[3 * b + 1] += p[1];
            q->sum[3 * b + 2] += p[2];
        }
    }
    bucket_rank* ranks = malloc((size_t)q->used_count * sizeof(bucket_rank));
    if (ranks == NULL) {
        return false;
    }
    for (int i = 0; i < q->used_count; ++i) {
        ranks[i].count = q->count[q->used[i]];
        ranks[i].bucket = q->used[i];
    }
    qsort(ranks, (size_t)q->used_count, sizeof(bucket_rank), compare_ranks);
    uint8_t* means = malloc(3 * (size_t)q->used_count);
    if (means == NULL) {
        free(ranks);
        return false;
    }
    for (int i = 0; i < q->used_count; ++i) {
        int b = ranks[i].bucket;
        uint64_t n = q->count[b];
        for (int k = 0; k < 3; ++k) {
            means[3 * i + k] = (uint8_t)((q->sum[3 * b + k] + n / 2) / n);
        }
    }
    /* Every bucket when they fit; else the fullest, and a coarse cube under them so that no
     * color is far from an entry however its pixels spread (a smooth gradient). */
    int popular = q->used_count <= PALETTE_MAX ? q->used_count : PALETTE_MAX - CUBE_ENTRIES;
    memcpy(q->palette, means, 3 * (size_t)popular);
    q->palette_size = popular;
    if (popular < q->used_count) {
        for (int i = 0; i < CUBE_ENTRIES; ++i) {
            uint8_t* entry = &q->palette[3 * q->palette_size++];
            entry[0] = (uint8_t)(85 * (i / 16));
            entry[1] = (uint8_t)(85 * (i / 4 % 4));
            entry[2] = (uint8_t)(85 * (i % 4));
        }
    }
    for (int i = 0; i < q->used_count; ++i) {
        q->index[ranks[i].bucket] = (uint8_t)(i < popular ? i : nearest_entry(q, &means[3 * i]));
    }
    free(means);
    free(ranks);
    return true;
}

/* ---- LZW --------------------------------------------------------------------------------- */

#define LZW_MAX_CODES 4096
#define LZW_TABLE_SIZE 8192 /* a power of two, twice the codes: probes stay short */

typedef struct lzw_coder {
    FILE* out;
    uint8_t block[255]; /* the sub-block being filled */
    int block_size;
    uint32_t bits; /* not yet written, the oldest in the lowest bits */
    int bit_count;
    /* the string table as a hash of (prefix code, next index) -> code */
    int32_t keys[LZW_TABLE_SIZE]; /* prefix << 8 | index, or -1 for an empty slot */
    int16_t codes[LZW_TABLE_SIZE];
} lzw_coder;

static void put_byte(lzw_coder* lzw, uint8_t byte) {
    lzw->block[lzw->block_size++] = byte;
    if (lzw->block_size == 255) {
        fputc(255, lzw->out);
        fwrite(lzw->block, 1, 255, lzw->out);
        lzw->block_size = 0;
    }
}

static void put_code(lzw_coder* lzw, int code, int size) {
    lzw->bits |= (uint32_t)code << lzw->bit_count;
    lzw->bit_count += size;
    while (lzw->bit_count >= 8) {
        put_byte(lzw, (uint8_t)lzw->bits);
        lzw->bits >>= 8;
        lzw->bit_count -= 8;
    }
}

static void flush_codes(lzw_coder* lzw) {
    if (lzw->bit_count > 0) {
        put_byte(lzw, (uint8_t)lzw->bits);
    }
    if (lzw->block_size > 0) {
        fputc(lzw->block_size, lzw->out);
        fwrite(lzw->block, 1, (size_t)lzw->block_size, lzw->out);
    }
    fputc(0, lzw->out); /* the empty block that ends the image data */
}

static void clear_table(lzw_coder* lzw) {
    memset(lzw->keys, 0xff, sizeof(lzw->keys));
}

/* The slot of key: where it is, or the empty slot where it would go. */
static int find_slot(const lzw_coder* lzw, int32_t key) {
    uint32_t slot = ((uint32_t)key * 2654435761u) >> (32 - 13);
    while (lzw->keys[slot] != -1 && lzw->keys[slot] != key) {
        slot = (slot + 1) & (LZW_TABLE_SIZE - 1);
    }
    return (int)slot;
}

/* The indices of one image, coded: the minimum code size byte, then the sub-blocks. The
 * decoder builds the same table one code behind the coder, and widens its codes when its next
 * code reaches a power of two, which is when the coder's next code passes it. */
static bool put_lzw(FILE* out, const uint8_t* indices, size_t count, int min_code_size) {
    lzw_coder* lzw = malloc(sizeof(lzw_coder));
    if (lzw == NULL) {
        return false;
    }
    lzw->out = out;
    lzw->block_size = 0;
    lzw->bits = 0;
    lzw->bit_count = 0;
    const int clear = 1 << min_code_size, end = clear + 1;
    int size = min_code_size + 1;
    int next = end + 1;
    clear_table(lzw);
    fputc(min_code_size, out);
    put_code(lzw, clear, size);
    int prefix = indices[0];
    for (size_t i = 1; i < count; ++i) {
        int32_t key = (int32_t)(prefix << 8 | indices[i]);
        int slot = find_slot(lzw, key);
        if (lzw->keys[slot] == key) {
            prefix = lzw->codes[slot];
            continue;
        }
        put_code(lzw, prefix, size);
        lzw->keys[slot] = key;
        lzw->codes[slot] = (int16_t)next;
        if (next == 1 << size && size < 12) {
            ++size;
        }
        if (++next == LZW_MAX_CODES) {
            /* The table is full: start it again. The decoder, one code behind, never makes the
             * last entry, and so never reads a code wider than 12 bits. */
            put_code(lzw, clear, size);
            clear_table(lzw);
            size = min_code_size + 1;
            next = end + 1;
        }
        prefix = indices[i];
    }
    put_code(lzw, prefix, size);
    put_code(lzw, end, size);
    flush_codes(lzw);
    free(lzw);
    return true;
}

/* ---- The file ---------------------------------------------------------------------------- */

static void put_u16(FILE* out, int value) {
    fputc(value & 0xff, out);
    fputc((value >> 8) & 0xff, out);
}

bool gif_begin(gif_writer* gif, FILE* out, int width, int height) {
    memset(gif, 0, sizeof(*gif));
    if (width < 1 || height < 1 || width > GIF_MAX_SIZE || height > GIF_MAX_SIZE) {
        return false;
    }
    gif->out = out;
    gif->width = width;
    gif->height = height;
    size_t pixels = (size_t)width * (size_t)height;
    gif->previous = malloc(3 * pixels);
    gif->indices = malloc(pixels);
    gif->quantizer = quantizer_make();
    if (gif->previous == NULL || gif->indices == NULL || gif->quantizer == NULL) {
        gif_free(gif);
        return false;
    }
    fputs("GIF89a", out);
    put_u16(out, width);
    put_u16(out, height);
    fputc(0x70, out); /* no global color table; 8 bits a primary color */
    fputc(0, out);    /* background color index */
    fputc(0, out);    /* square pixels */
    /* the NETSCAPE2.0 application extension: loop forever */
    static const uint8_t loop[] = {0x21, 0xff, 0x0b, 'N', 'E',  'T',  'S',  'C',  'A', 'P',
                                   'E',  '2',  '.',  '0', 0x03, 0x01, 0x00, 0x00, 0x00};
    fwrite(loop, 1, sizeof(loop), out);
    return true;
}

/* The smallest rectangle holding every pixel that differs from the previous frame; false when
 * none does. */
static bool changed_rectangle(const gif_writer* gif, const uint8_t* rgb, int* x0, int* y0, int* x1,
                              int* y1) {
    *x0 = gif->width;
    *y0 = gif->height;
    *x1 = -1;
    *y1 = -1;
    for (int y = 0; y < gif->height; ++y) {
        size_t row = (size_t)y * (size_t)gif->width * 3;
        for (int x = 0; x < gif->width; ++x) {
            if (memcmp(rgb + row + 3 * (size_t)x, gif->previous + row + 3 * (size_t)x, 3) != 0) {
                *x0 = x < *x0 ? x : *x0;
                *x1 = x > *x1 ? x : *x1;
                *y0 = y < *y0 ? y : *y0;
                *y1 = y;
            }
        }
    }
    return *x1 >= 0;
}

bool gif_add_frame(gif_writer* gif, const uint8_t* rgb, int delay) {
    int x0 = 0, y0 = 0, x1 = gif->width - 1, y1 = gif->height - 1;
    if (gif->frame_count > 0 && !changed_rectangle(gif, rgb, &x0, &y0, &x1, &y1)) {
        x1 = x0 = 0; /* nothing changed: one pixel, as it was, keeps the frame's time */
        y1 = y0 = 0;
    }
    int w = x1 - x0 + 1, h = y1 - y0 + 1;
    gif_quantizer* q = gif->quantizer;
    if (!quantize(q, rgb, gif->width, x0, y0, w, h)) {
        return false;
    }
    uint8_t* index = gif->indices;
    for (int y = y0; y <= y1; ++y) {
        const uint8_t* p = rgb + ((size_t)y * (size_t)gif->width + (size_t)x0) * 3;
        for (int x = 0; x < w; ++x, p += 3) {
            *index++ = q->index[bucket_of(p)];
        }
    }
    int table_bits = 1; /* the color table holds 2^table_bits entries, 2 to 256 */
    while ((1 << table_bits) < q->palette_size) {
        ++table_bits;
    }
    /* graphic control extension: do not dispose (1 << 2), no transparency */
    const uint8_t control[] = {0x21, 0xf9, 0x04, 0x04};
    fwrite(control, 1, sizeof(control), gif->out);
    put_u16(gif->out, delay);
    fputc(0, gif->out); /* transparent index, unused */
    fputc(0, gif->out);
    fputc(0x2c, gif->out); /* image descriptor */
    put_u16(gif->out, x0);
    put_u16(gif->out, y0);
    put_u16(gif->out, w);
    put_u16(gif->out, h);
    fputc(0x80 | (table_bits - 1), gif->out); /* a local color table, not interlaced */
    fwrite(q->palette, 1, 3 * (size_t)q->palette_size, gif->out);
    for (int i = q->palette_size; i < 1 << table_bits; ++i) {
        fputc(0, gif->out);
        fputc(0, gif->out);
        fputc(0, gif->out);
    }
    if (!put_lzw(gif->out, gif->indices, (size_t)w * (size_t)h, table_bits < 2 ? 2 : table_bits)) {
        return false;
    }
    memcpy(gif->previous, rgb, 3 * (size_t)gif->width * (size_t)gif->height);
    gif->frame_count += 1;
    return true;
}

void gif_end(gif_writer* gif) {
    fputc(0x3b, gif->out);
    gif_free(gif);
}

void gif_free(gif_writer* gif) {
    free(gif->previous);
    free(gif->indices);
    quantizer_free(gif->quantizer);
    gif->previous = NULL;
    gif->indices = NULL;
    gif->quantizer = NULL;
}
