/* `carom render`: a scene, state or snapshot file drawn as a PNG, or its run as an animated GIF
 * or a numbered PNG sequence (docs/cli.md, "carom render"). The drawing is the shared
 * renderer's (tools/render/), the one the demos use. */
#ifndef CAROM_TOOLS_RENDER_COMMAND_H
#define CAROM_TOOLS_RENDER_COMMAND_H

/* The arguments after "render". Returns the exit status: 0, 1 (an output could not be written,
 * the engine failed) or 2 (bad arguments or input). */
int command_render(int argc, char** argv);

/* The lines `carom --help` shows for render. */
extern const char render_usage_text[];

#endif
