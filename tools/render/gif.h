/* Animated GIF files (GIF89a) from RGB frames: `carom render --gif`.
 *
 * A GIF holds at most 256 colors a frame, so each frame gets its own palette: its colors are
 * put in buckets of 6 bits a channel; when there are at most 256 buckets each is an entry (the
 * mean of its colors, so a frame of at most 256 flat colors keeps every one exactly), else the
 * 192 fullest are, with a cube of 4 levels a channel, and every other bucket takes the nearest
 * entry. A drawing's flat fills are its fullest buckets and so stay exact. Only the rectangle that changed since
 * the previous frame is stored; the rest stays on screen. The animation loops forever.
 *
 * Everything is integer arithmetic with fixed tie-breaks, so the same frames give the same
 * bytes on every build. The LZW coder is written out here (GIF's variable-width codes, from 3
 * to 12 bits, a clear code when the table of 4096 is full); tests/test_gif.c decodes what it
 * writes with giflib and compares every pixel.
 *
 * Use:
 *     gif_writer gif;
 *     if (!gif_begin(&gif, stream, width, height)) ...out of memory...
 *     for each frame: gif_add_frame(&gif, rgb, delay_centiseconds)
 *     gif_end(&gif);   (writes the trailer and frees; a write error is the stream's)
 * gif_free() gives up without the trailer. */
#ifndef CAROM_RENDER_GIF_H
#define CAROM_RENDER_GIF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The largest width and height a GIF can say (16-bit fields). */
#define GIF_MAX_SIZE 65535

typedef struct gif_quantizer gif_quantizer; /* gif.c */

typedef struct gif_writer {
    FILE* out;
    int width, height;  /* pixels, 1 to GIF_MAX_SIZE */
    int frame_count;    /* frames added so far */
    uint8_t* previous;  /* the previous frame's RGB, for the changed rectangle */
    uint8_t* indices;   /* one frame's palette indices */
    gif_quantizer* quantizer;
} gif_writer;

/* Write the header for frames of width x height pixels to an open stream. False, having written
 * nothing, when the size is out of range or memory runs out. */
bool gif_begin(gif_writer* gif, FILE* out, int width, int height);

/* One frame: width x height RGB pixels, 3 bytes each, row-major, top row first, shown for
 * delay hundredths of a second (0 to 65535). False when memory runs out (nothing of the frame
 * is written then). */
bool gif_add_frame(gif_writer* gif, const uint8_t* rgb, int delay);

/* The trailer, then gif_free. */
void gif_end(gif_writer* gif);
void gif_free(gif_writer* gif);

#endif
