/* The racing demo's window (built only when meson finds SDL2): you drive one car with the
 * keyboard against the seven AI cars; the camera follows you. The picture is drawn by the same
 * software rasterizer as the headless PNGs and shown through an SDL streaming texture.
 *
 * Keys: Up/W throttle, Down/S brake (and reverse once stopped), Left/A and Right/D steer,
 * Space handbrake, R the AI's rays, Escape quits. */
#include "race.h"
#include "render.h"

#include <SDL.h>

#include <math.h>
#include <stdio.h>

int racing_interactive(race* r, int human);

#define WINDOW_WIDTH 1280
#define WINDOW_HEIGHT 720

typedef struct controls {
    double steer; /* eased towards the key's value, so a tap does not jerk the wheel */
    int rays;
    int quit;
} controls;

static void read_keys(race* r, race_car* car, controls* c) {
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
        if (event.type == SDL_QUIT ||
            (event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_ESCAPE)) {
            c->quit = 1;
        } else if (event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_r) {
            c->rays = !c->rays;
        }
    }
    const Uint8* keys = SDL_GetKeyboardState(NULL);
    int up = keys[SDL_SCANCODE_UP] || keys[SDL_SCANCODE_W];
    int down = keys[SDL_SCANCODE_DOWN] || keys[SDL_SCANCODE_S];
    int left = keys[SDL_SCANCODE_LEFT] || keys[SDL_SCANCODE_A];
    int right = keys[SDL_SCANCODE_RIGHT] || keys[SDL_SCANCODE_D];
    int handbrake = keys[SDL_SCANCODE_SPACE] ? 1 : 0;
    double target = (double)left - (double)right;
    double rate = 4.0 * RACE_DT;
    c->steer += fmax(-rate, fmin(rate, target - c->steer));
    carom_vehicle_state state;
    carom_vehicle_get_state(car->vehicle, &state);
    double throttle = up ? 1.0 : 0.0, brake = 0.0;
    if (down) {
        if (state.forward_speed > 1.0) {
            brake = 1.0;
        } else {
            throttle = -0.7; /* reverse */
        }
    }
    race_set_human_input(r, throttle, brake, c->steer, handbrake);
}

static void draw_speed(const race_car* car, canvas* c) {
    char text[96];
    double speed = carom_length(carom_body_get_linear_velocity(car->body));
    snprintf(text, sizeof(text), "%3.0f km/h   lap %d", speed * 3.6, car->lap_count + 1);
    canvas_fill_rect_px(c, 8, c->height - 40, 8 + canvas_text_width(text, 2.0) + 16, c->height - 8,
                        0x101418, 0.75);
    canvas_text_px(c, 16, c->height - 32, 2.0, text, 0xffffff);
}

int racing_interactive(race* r, int human) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "racing: SDL_Init: %s (try --headless)\n", SDL_GetError());
        return 1;
    }
    SDL_Window* window = SDL_CreateWindow("carom racing", SDL_WINDOWPOS_CENTERED,
                                          SDL_WINDOWPOS_CENTERED, WINDOW_WIDTH, WINDOW_HEIGHT, 0);
    SDL_Renderer* renderer =
        window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC) : NULL;
    SDL_Texture* texture =
        renderer ? SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB24, SDL_TEXTUREACCESS_STREAMING,
                                     WINDOW_WIDTH, WINDOW_HEIGHT)
                 : NULL;
    if (texture == NULL) {
        fprintf(stderr, "racing: SDL window: %s (try --headless)\n", SDL_GetError());
        SDL_Quit();
        return 1;
    }
    canvas c = canvas_make(WINDOW_WIDTH, WINDOW_HEIGHT);
    race_car* car = &r->cars[human];
    controls keys = {0.0, 0, 0};
    canvas_view view = {carom_body_get_position(car->body), 7.0};
    double accumulator = 0.0;
    Uint64 last = SDL_GetPerformanceCounter();
    int status = 0;
    while (!keys.quit && status == 0) {
        Uint64 now = SDL_GetPerformanceCounter();
        accumulator += (double)(now - last) / (double)SDL_GetPerformanceFrequency();
        last = now;
        /* whole fixed steps only; after a stall, drop time rather than run many steps */
        accumulator = fmin(accumulator, 5.0 * RACE_DT);
        while (accumulator >= RACE_DT && status == 0) {
            read_keys(r, car, &keys);
            status = race_step(r);
            accumulator -= RACE_DT;
        }
        carom_vec2 target = carom_body_get_position(car->body);
        view.center = carom_lerp(view.center, target, 0.2);
        render_options options = {keys.rays, 1, 1.5};
        render_race(r, &c, view, options);
        draw_speed(car, &c);
        SDL_UpdateTexture(texture, NULL, c.pixels, WINDOW_WIDTH * 3);
        SDL_RenderCopy(renderer, texture, NULL, NULL);
        SDL_RenderPresent(renderer);
    }
    race_print_table(r, stdout);
    canvas_free(&c);
    SDL_DestroyTexture(texture);
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return status;
}
