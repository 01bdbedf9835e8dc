/*
 * The C ABI from C: run by tests/c_abi.rs, built with `cc -Wall -Wextra -Werror` against
 * include/resound.h and the cdylib, and run under valgrind when it is installed.
 *
 *   resound_test DAT_DIR HALL_OUT AMBIENT_OUT X Y Z
 *
 * 1. renders the stone-hall scene offline, checks it is non-silent and writes its samples
 *    (raw little-endian f32) to HALL_OUT for the harness to compare with the Rust render;
 * 2. runs the retail ambient over the fixture world in DAT_DIR with the listener at (X, Y, Z)
 *    and writes its events and samples to AMBIENT_OUT;
 * 3. walks the error paths: NULL engine, NULL pointers, a destroyed engine, an ended voice,
 *    another engine's voice, non-UTF-8 text, values out of range, a panic behind the boundary.
 *
 * Prints "N passed, M failed" and exits non-zero on any failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resound.h"

static int passed = 0;
static int failed = 0;

/* One check: prints the failing call, its code and its message. */
#define CHECK(cond, what)                                                               \
    do {                                                                                \
        if (cond) {                                                                     \
            passed++;                                                                   \
        } else {                                                                        \
            failed++;                                                                   \
            fprintf(stderr, "FAIL %s:%d: %s (last error: %s)\n", __FILE__, __LINE__,    \
                    what, resound_last_error());                                        \
        }                                                                               \
    } while (0)

/* A call that must succeed. */
#define OK(call) CHECK((call) == RESOUND_RESULT_OK, #call)

/* A call that must fail with `code`, leaving a one-line message naming the function. */
static void expect(ResoundResult got, ResoundResult code, const char *fn, const char *what) {
    const char *msg = resound_last_error();
    if (got != code) {
        failed++;
        fprintf(stderr, "FAIL %s: got %s, want %s (%s)\n", what, resound_result_name(got),
                resound_result_name(code), msg);
        return;
    }
    if (msg == NULL || strncmp(msg, fn, strlen(fn)) != 0 || strchr(msg, '\n') != NULL) {
        failed++;
        fprintf(stderr, "FAIL %s: message \"%s\" is not one line starting with %s\n", what,
                msg ? msg : "(null)", fn);
        return;
    }
    passed++;
    printf("  %-34s %-32s %s\n", what, resound_result_name(got), msg);
}

#define HALL_BLOCKS 12
#define HALL_BLOCK 2048
#define AMBIENT_UPDATES 300
#define AMBIENT_FRAME 800
#define MAX_EVENTS 4096

/* The test sound: 0.1 s of integer noise, 16-bit mono at 48 kHz. */
static void test_sound(int16_t *pcm, size_t frames) {
    for (size_t i = 0; i < frames; i++) {
        pcm[i] = (int16_t)(((long)((i * 7919) % 2001) - 1000) * 16);
    }
}

static int write_file(const char *path, const void *data, size_t bytes) {
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return 0;
    }
    size_t n = fwrite(data, 1, bytes, f);
    return fclose(f) == 0 && n == bytes;
}

static ResoundVec3 vec3(double x, double y, double z) {
    ResoundVec3 v = {x, y, z};
    return v;
}

static ResoundCell cell(int32_t x, int32_t y, int32_t z) {
    ResoundCell c = {x, y, z};
    return c;
}

/* The stone hall: a 16 x 8 x 16 stone box, hollow, a looping noise source across it. */
static void stone_hall(const char *out_path) {
    ResoundSettings settings;
    OK(resound_settings_default(&settings));
    settings.mode = RESOUND_MODE_FULL;
    ResoundEngine engine = 0;
    OK(resound_engine_create(&settings, &engine));
    OK(resound_fill(engine, cell(0, 0, 0), cell(15, 7, 15), "stone", 0));
    OK(resound_fill(engine, cell(1, 1, 1), cell(14, 6, 14), "air", 0));
    OK(resound_set_listener(engine, vec3(4.5, 2.5, 4.5), vec3(0, 0, -1), vec3(0, 1, 0)));

    int16_t pcm[4800];
    test_sound(pcm, 4800);
    ResoundSound sound = 0;
    OK(resound_load_pcm_i16(engine, pcm, 4800, 1, 48000, &sound));
    ResoundSource source;
    OK(resound_source_default(&source));
    source.position = vec3(11.5, 2.5, 10.5);
    source.looping = 1;
    ResoundVoice voice = 0;
    OK(resound_play(engine, sound, &source, &voice));

    static float out[HALL_BLOCKS * HALL_BLOCK * 2];
    for (int b = 0; b < HALL_BLOCKS; b++) {
        OK(resound_update(engine, (double)HALL_BLOCK / 48000.0));
        OK(resound_render(engine, out + (size_t)b * HALL_BLOCK * 2, HALL_BLOCK * 2));
    }
    double energy = 0.0;
    int finite = 1;
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
        finite &= isfinite(out[i]) != 0;
        energy += (double)out[i] * out[i];
    }
    CHECK(finite, "every hall sample is finite");
    CHECK(energy > 1.0, "the hall render is not silent");
    ResoundEngineStatus status;
    OK(resound_status(engine, &status));
    CHECK(status.frames_rendered == HALL_BLOCKS * HALL_BLOCK, "status counts the frames");
    CHECK(status.live_voices == 1, "one voice plays");
    CHECK(write_file(out_path, out, sizeof out), "the hall render is written");
    printf("stone hall: energy %.3f over %d frames\n", energy, HALL_BLOCKS * HALL_BLOCK);
    OK(resound_engine_destroy(engine));
}

/* The retail ambient over the fixture world, the listener standing at (x, y, z). */
static void ambient(const char *dat_dir, const char *out_path, double x, double y, double z) {
    ResoundSettings settings;
    OK(resound_settings_default(&settings));
    settings.voice_policy = RESOUND_VOICE_POLICY_RETAIL16;
    ResoundEngine engine = 0;
    OK(resound_engine_create(&settings, &engine));
    OK(resound_set_listener(engine, vec3(x, y, z), vec3(0, 0, -1), vec3(0, 1, 0)));
    OK(resound_attach_ambient(engine, dat_dir, NULL));

    static ResoundAmbientEvent events[MAX_EVENTS];
    static float samples[AMBIENT_UPDATES * AMBIENT_FRAME * 2];
    size_t total = 0;
    for (int u = 0; u < AMBIENT_UPDATES; u++) {
        OK(resound_update(engine, 1.0 / 60.0));
        size_t count = 0;
        OK(resound_ambient_events(engine, NULL, 0, &count));
        if (total + count > MAX_EVENTS) {
            CHECK(0, "room for the ambient events");
            break;
        }
        size_t got = 0;
        OK(resound_ambient_events(engine, events + total, MAX_EVENTS - total, &got));
        CHECK(got == count, "the event count is stable");
        total += got;
        OK(resound_render(engine, samples + (size_t)u * AMBIENT_FRAME * 2, AMBIENT_FRAME * 2));
    }
    size_t played = 0;
    for (size_t i = 0; i < total; i++) {
        played += events[i].played;
    }
    CHECK(played > 0, "the ambient runtime played sounds");
    ResoundEngineStatus status;
    OK(resound_status(engine, &status));
    CHECK(status.ambient_attached == 1, "status: ambient attached");
    CHECK(status.ambient_events == total, "status counts the events");
    printf("ambient: %zu events, %zu played, %llu voices started\n", total, played,
           (unsigned long long)status.ambient_started);

    FILE *f = fopen(out_path, "wb");
    CHECK(f != NULL, "the ambient output opens");
    if (f != NULL) {
        uint64_t n = total;
        fwrite(&n, sizeof n, 1, f);
        for (size_t i = 0; i < total; i++) {
            /* field by field: the harness reads them without the struct's layout */
            fwrite(&events[i].time, sizeof(double), 1, f);
            fwrite(&events[i].sound_table_id, sizeof(uint32_t), 1, f);
            fwrite(&events[i].sound_type, sizeof(uint32_t), 1, f);
            fwrite(&events[i].played, sizeof(uint32_t), 1, f);
            fwrite(&events[i].wave_id, sizeof(uint32_t), 1, f);
            fwrite(&events[i].db, sizeof(int32_t), 1, f);
            fwrite(&events[i].pan, sizeof(int32_t), 1, f);
        }
        fwrite(samples, sizeof samples, 1, f);
        CHECK(fclose(f) == 0, "the ambient output is written");
    }

    ResoundSound wave = 0;
    OK(resound_load_wave(engine, dat_dir, 0x0A000101u, &wave));
    expect(resound_load_wave(engine, dat_dir, 0x0A00FFFFu, &wave), RESOUND_RESULT_NOT_FOUND,
           "resound_load_wave", "a Wave id the dat lacks");
    OK(resound_engine_destroy(engine));
}

/* Every error path the header promises. */
static void error_paths(void) {
    printf("error paths:\n");
    ResoundEngine engine = 0;
    expect(resound_update(0, 0.01), RESOUND_RESULT_INVALID_HANDLE, "resound_update",
           "a NULL (0) engine");
    expect(resound_engine_create(NULL, NULL), RESOUND_RESULT_NULL_POINTER,
           "resound_engine_create", "a NULL out pointer");
    expect(resound_update(0x00000005000000FFull, 0.01), RESOUND_RESULT_INVALID_HANDLE,
           "resound_update", "a garbage engine handle");

    ResoundSettings settings;
    OK(resound_settings_default(&settings));
    settings.mode = 42;
    expect(resound_engine_create(&settings, &engine), RESOUND_RESULT_INVALID_ARGUMENT,
           "resound_engine_create", "an unknown mode");
    settings.mode = RESOUND_MODE_OFF;
    OK(resound_engine_create(&settings, &engine));
    ResoundEngine other = 0;
    OK(resound_engine_create(&settings, &other));

    float pcm[480];
    for (int i = 0; i < 480; i++) {
        pcm[i] = (i % 48) < 24 ? 0.25f : -0.25f;
    }
    ResoundSound sound = 0;
    OK(resound_load_pcm_f32(engine, pcm, 480, 1, 48000, &sound));
    expect(resound_load_pcm_f32(engine, NULL, 480, 1, 48000, &sound),
           RESOUND_RESULT_NULL_POINTER, "resound_load_pcm_f32", "NULL samples");
    expect(resound_load_pcm_f32(engine, pcm, 160, 3, 48000, &sound),
           RESOUND_RESULT_INVALID_ARGUMENT, "resound_load_pcm_f32", "three channels");
    pcm[7] = NAN;
    ResoundSound bad = 0;
    expect(resound_load_pcm_f32(engine, pcm, 480, 1, 48000, &bad), RESOUND_RESULT_LOAD,
           "resound_load_pcm_f32", "a NaN sample");
    expect(resound_load_file(engine, "/nonexistent/resound.wav", &bad), RESOUND_RESULT_LOAD,
           "resound_load_file", "a missing file");
    const char not_utf8[] = {'/', 't', 'm', 'p', '/', (char)0xFF, (char)0xFE, 0};
    expect(resound_load_file(engine, not_utf8, &bad), RESOUND_RESULT_INVALID_UTF8,
           "resound_load_file", "a non-UTF-8 path");
    expect(resound_set_block(engine, cell(0, 0, 0), "unobtainium", 0), RESOUND_RESULT_NOT_FOUND,
           "resound_set_block", "an unknown material");
    expect(resound_set_block(engine, cell(0, 0, 0), NULL, 0), RESOUND_RESULT_NULL_POINTER,
           "resound_set_block", "a NULL material");
    OK(resound_material_exists("glass"));
    expect(resound_fill(engine, cell(5, 5, 5), cell(0, 0, 0), "stone", 0), RESOUND_RESULT_WORLD,
           "resound_fill", "an inverted box");
    expect(resound_update(engine, NAN), RESOUND_RESULT_INVALID_ARGUMENT, "resound_update",
           "a NaN dt");
    float odd[3];
    expect(resound_render(engine, odd, 3), RESOUND_RESULT_INVALID_ARGUMENT, "resound_render",
           "an odd render length");
    expect(resound_render(engine, NULL, 64), RESOUND_RESULT_NULL_POINTER, "resound_render",
           "a NULL render buffer");

    ResoundVoice voice = 0;
    ResoundSource source;
    OK(resound_source_default(&source));
    source.looping = 1;
    source.track = 7;
    expect(resound_play(engine, sound, &source, &voice), RESOUND_RESULT_INVALID_ARGUMENT,
           "resound_play", "an unknown track");
    uint32_t track = 0;
    OK(resound_add_track(engine, "music", &track));
    CHECK(track == 1, "the first added track is 1");
    source.track = track;
    OK(resound_play(engine, sound, &source, &voice));
    OK(resound_set_track_volume(engine, track, 0.5f, 0.1f));
    OK(resound_voice_set_volume_db(engine, voice, -6.0f, 0.05f));
    OK(resound_voice_set_rate(engine, voice, 1.5, 0.0f));
    OK(resound_voice_set_position(engine, voice, vec3(2, 1, 0)));
    OK(resound_voice_pause(engine, voice, 0.0f));
    OK(resound_voice_resume(engine, voice, 0.0f));
    expect(resound_voice_set_volume(engine, voice, 1000.0f, 0.0f),
           RESOUND_RESULT_INVALID_ARGUMENT, "resound_voice_set_volume", "a volume of 1000");
    expect(resound_voice_set_volume(engine, voice, 1.0f, -1.0f),
           RESOUND_RESULT_INVALID_ARGUMENT, "resound_voice_set_volume", "a negative fade");
    expect(resound_voice_set_rate(engine, voice, INFINITY, 0.0f),
           RESOUND_RESULT_INVALID_ARGUMENT, "resound_voice_set_rate", "an infinite rate");
    expect(resound_voice_set_volume(other, voice, 1.0f, 0.0f), RESOUND_RESULT_INVALID_HANDLE,
           "resound_voice_set_volume", "another engine's voice");
    expect(resound_voice_set_volume(engine, 0, 1.0f, 0.0f), RESOUND_RESULT_INVALID_HANDLE,
           "resound_voice_set_volume", "a 0 voice");
    expect(resound_play(other, sound, NULL, &voice), RESOUND_RESULT_INVALID_HANDLE,
           "resound_play", "another engine's sound");

    OK(resound_voice_stop(engine, voice, 0.0f));
    float block[2 * 1024];
    OK(resound_update(engine, 1024.0 / 48000.0));
    OK(resound_render(engine, block, 2 * 1024));
    OK(resound_update(engine, 1024.0 / 48000.0));
    int32_t state = -1;
    OK(resound_voice_state(engine, voice, &state));
    CHECK(state == RESOUND_VOICE_STATE_ENDED, "a stopped voice ends");
    expect(resound_voice_set_volume(engine, voice, 1.0f, 0.0f), RESOUND_RESULT_VOICE_ENDED,
           "resound_voice_set_volume", "a stopped (destroyed) voice");

    OK(resound_unload_sound(engine, sound));
    expect(resound_play(engine, sound, NULL, &voice), RESOUND_RESULT_STALE_HANDLE,
           "resound_play", "an unloaded sound");

    size_t devices = 0;
    ResoundResult listed = resound_devices(NULL, 0, &devices);
    CHECK(listed == RESOUND_RESULT_OK || listed == RESOUND_RESULT_DEVICE ||
              listed == RESOUND_RESULT_UNSUPPORTED,
          "the device list answers");
    printf("  devices: %s, %zu listed\n", resound_result_name(listed), devices);

    OK(resound_engine_destroy(engine));
    expect(resound_update(engine, 0.01), RESOUND_RESULT_STALE_HANDLE, "resound_update",
           "a destroyed engine");
    expect(resound_engine_destroy(engine), RESOUND_RESULT_STALE_HANDLE,
           "resound_engine_destroy", "a second destroy");

    OK(resound_debug_panic_next_call(other));
    expect(resound_update(other, 0.01), RESOUND_RESULT_PANIC, "resound_update",
           "a panic behind the boundary");
    expect(resound_update(other, 0.01), RESOUND_RESULT_PANIC, "resound_update",
           "the panicked engine after");
    OK(resound_engine_destroy(other));

    ResoundEngine fresh = 0;
    OK(resound_engine_create(NULL, &fresh));
    OK(resound_update(fresh, 0.01));
    OK(resound_engine_destroy(fresh));
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s DAT_DIR HALL_OUT AMBIENT_OUT X Y Z\n", argv[0]);
        return 2;
    }
    printf("resound %s, ABI %u\n", resound_version(), resound_abi_version());
    CHECK(resound_abi_version() == RESOUND_ABI_VERSION, "the library's ABI is the header's");
    stone_hall(argv[2]);
    ambient(argv[1], argv[3], atof(argv[4]), atof(argv[5]), atof(argv[6]));
    error_paths();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
