"""The C ABI from Python's ctypes, as C#'s P/Invoke would use it: run by tests/c_abi.rs.

    python3 resound_test.py LIBRARY OUT

Renders the stone-hall scene of tests/c/resound_test.c and writes its samples (raw
little-endian f32) to OUT for the harness to compare with the C and Rust renders; checks an
error path's code and message.
"""

import ctypes
import sys

RESULT_OK = 0
RESULT_INVALID_HANDLE = 2
MODE_FULL = 3


class Vec3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("z", ctypes.c_double)]


class Cell(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int32), ("y", ctypes.c_int32), ("z", ctypes.c_int32)]


class Settings(ctypes.Structure):
    _fields_ = [
        ("sample_rate", ctypes.c_uint32),
        ("mode", ctypes.c_int32),
        ("voice_policy", ctypes.c_int32),
        ("output", ctypes.c_int32),
        ("device_name", ctypes.c_char_p),
        ("device_buffer_frames", ctypes.c_uint32),
        ("max_voices", ctypes.c_uint32),
    ]


class Source(ctypes.Structure):
    _fields_ = [
        ("position", Vec3),
        ("volume", ctypes.c_float),
        ("range", ctypes.c_float),
        ("rate", ctypes.c_double),
        ("start_at", ctypes.c_double),
        ("fade_in_seconds", ctypes.c_float),
        ("track", ctypes.c_uint32),
        ("looping", ctypes.c_uint8),
        ("relative", ctypes.c_uint8),
        ("impulsive", ctypes.c_uint8),
        ("reserved", ctypes.c_uint8),
        ("power", ctypes.c_float),
        ("event", ctypes.c_uint64),
    ]


def load(path):
    lib = ctypes.CDLL(path)
    u64, p = ctypes.c_uint64, ctypes.POINTER
    sigs = {
        "resound_settings_default": [p(Settings)],
        "resound_engine_create": [p(Settings), p(u64)],
        "resound_engine_destroy": [u64],
        "resound_fill": [u64, Cell, Cell, ctypes.c_char_p, ctypes.c_uint8],
        "resound_set_listener": [u64, Vec3, Vec3, Vec3],
        "resound_load_pcm_i16": [u64, p(ctypes.c_int16), ctypes.c_size_t, ctypes.c_uint32,
                                 ctypes.c_uint32, p(u64)],
        "resound_source_default": [p(Source)],
        "resound_play": [u64, u64, p(Source), p(u64)],
        "resound_update": [u64, ctypes.c_double],
        "resound_render": [u64, p(ctypes.c_float), ctypes.c_size_t],
    }
    for name, args in sigs.items():
        f = getattr(lib, name)
        f.argtypes = args
        f.restype = ctypes.c_int32
    lib.resound_last_error.restype = ctypes.c_char_p
    lib.resound_last_error.argtypes = []
    return lib


def main():
    lib_path, out_path = sys.argv[1], sys.argv[2]
    lib = load(lib_path)
    failures = []

    def ok(code, what):
        if code != RESULT_OK:
            failures.append(f"{what}: {code} {lib.resound_last_error().decode()}")

    settings = Settings()
    ok(lib.resound_settings_default(ctypes.byref(settings)), "settings")
    settings.mode = MODE_FULL
    engine = ctypes.c_uint64(0)
    ok(lib.resound_engine_create(ctypes.byref(settings), ctypes.byref(engine)), "create")
    e = engine.value
    ok(lib.resound_fill(e, Cell(0, 0, 0), Cell(15, 7, 15), b"stone", 0), "fill stone")
    ok(lib.resound_fill(e, Cell(1, 1, 1), Cell(14, 6, 14), b"air", 0), "carve air")
    ok(lib.resound_set_listener(e, Vec3(4.5, 2.5, 4.5), Vec3(0, 0, -1), Vec3(0, 1, 0)),
       "listener")
    pcm = (ctypes.c_int16 * 4800)(*[((i * 7919) % 2001 - 1000) * 16 for i in range(4800)])
    sound = ctypes.c_uint64(0)
    ok(lib.resound_load_pcm_i16(e, pcm, 4800, 1, 48000, ctypes.byref(sound)), "load")
    source = Source()
    ok(lib.resound_source_default(ctypes.byref(source)), "source")
    source.position = Vec3(11.5, 2.5, 10.5)
    source.looping = 1
    voice = ctypes.c_uint64(0)
    ok(lib.resound_play(e, sound.value, ctypes.byref(source), ctypes.byref(voice)), "play")

    blocks, block = 12, 2048
    out = (ctypes.c_float * (blocks * block * 2))()
    for b in range(blocks):
        ok(lib.resound_update(e, block / 48000.0), "update")
        view = ctypes.cast(ctypes.byref(out, b * block * 2 * 4), ctypes.POINTER(ctypes.c_float))
        ok(lib.resound_render(e, view, block * 2), "render")
    energy = sum(s * s for s in out)
    if not energy > 1.0:
        failures.append(f"the hall render is silent (energy {energy})")
    ok(lib.resound_engine_destroy(e), "destroy")

    code = lib.resound_update(e, 0.01)
    message = lib.resound_last_error().decode()
    if code == RESULT_OK or not message.startswith("resound_update: engine"):
        failures.append(f"a destroyed engine gave {code} {message!r}")
    code = lib.resound_update(0, 0.01)
    if code != RESULT_INVALID_HANDLE:
        failures.append(f"a 0 engine gave {code}")

    with open(out_path, "wb") as f:
        f.write(bytes(out))
    for line in failures:
        print("FAIL", line)
    print(f"python ctypes: energy {energy:.3f}; {len(failures)} failures")
    sys.exit(1 if failures else 0)


main()
