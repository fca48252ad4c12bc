"""Conversions between Python values and carom's C structs, shared by the package's modules."""

import ctypes

import numpy as np

from . import _native
from ._native import lib

def vec2(value, what):
    try:
        x, y = value
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be a pair of numbers (x, y), got {value!r}") from None
    return _native.Vec2(float(x), float(y))


def shape_key(shape_id):
    return (int(shape_id.index1) << 32) | int(shape_id.generation)


# How each kind of field of python/native/layout.c's table is read and written.
_FIELD_CTYPES = {"d": ctypes.c_double, "i": ctypes.c_int, "v": _native.Vec2,
                 "f": _native.Filter, "s": _native.ShapeId, "j": _native.JointId}
_FIELD_DTYPES = {"d": np.dtype(np.float64), "i": np.dtype(np.intc),
                 "v": np.dtype(_native.Vec2), "f": np.dtype(_native.Filter),
                 "s": np.dtype(_native.ShapeId), "j": np.dtype(_native.JointId)}


def record_dtype(type_name):
    """A numpy dtype for the C struct of that name, with the fields of layout.c's table at the
    compiler's offsets and the compiler's size (fields not in the table are padding)."""
    fields = sorted(_native.FIELDS[type_name].items(), key=lambda item: item[1][0])
    return np.dtype({"names": [name for name, _ in fields],
                     "formats": [_FIELD_DTYPES[kind] for _, (_, kind) in fields],
                     "offsets": [offset for _, (offset, _) in fields],
                     "itemsize": _native.sizeof(type_name)})


def c_records(address, count, dtype):
    """A copy of count C structs at address (an int, or a ctypes array) as a numpy structured
    array of dtype."""
    if count == 0:
        return np.zeros(0, dtype=dtype)
    if not isinstance(address, int):
        address = ctypes.addressof(address)
    raw = (ctypes.c_char * (count * dtype.itemsize)).from_address(address)
    return np.frombuffer(raw, dtype=dtype, count=count).copy()


def id_keys(ids):
    """index1 << 32 | generation of a structured array of ids: one int per object."""
    return (ids["index1"].astype(np.uint64) << np.uint64(32)) | ids["generation"].astype(np.uint64)


def pairs_of(vec2s):
    """(n, 2) float64 from a structured array of carom_vec2."""
    return np.stack([vec2s["x"], vec2s["y"]], axis=-1) if len(vec2s) else np.zeros((0, 2))


def make_def(type_name, fields, what):
    """A C def (a ctypes buffer of the compiler's size) holding the engine's default
    (carom_default_*_def), with the keyword arguments' fields set by their C names."""
    known = _native.FIELDS[type_name]
    definition = ctypes.create_string_buffer(_native.sizeof(type_name))
    lib.carompy_default_def(type_name.encode(), definition)
    for name, value in fields.items():
        if name not in known:
            valid = ", ".join(sorted(known))
            raise TypeError(f"{what}: unknown keyword '{name}'; valid keywords: {valid}")
        offset, kind = known[name]
        field = _FIELD_CTYPES[kind].from_buffer(definition, offset)
        if kind == "v":
            given = vec2(value, f"{what} {name}")
            field.x, field.y = given.x, given.y
        elif kind == "f":
            # held in a name: a temporary would be freed before memmove reads it (the shape's
            # filter was then whatever the freed memory held)
            source = filter_of(value)
            ctypes.memmove(ctypes.addressof(field), ctypes.addressof(source),
                           ctypes.sizeof(_native.Filter))
        elif kind == "i":
            if isinstance(value, float):
                raise TypeError(f"{what} {name} must be an integer or a bool, got {value!r}")
            field.value = int(value)
        else:
            field.value = float(value)
    return definition


def filter_of(value):
    """A carom_filter from None (every shape), a Filter, or a dict of category, mask, group."""
    result = lib.carom_default_filter()
    if value is None:
        return result
    if isinstance(value, _native.Filter):
        return value
    for name in value:
        if name not in ("category", "mask", "group"):
            raise TypeError(f"filter: unknown key '{name}': use category, mask, group")
    result.category = int(value.get("category", result.category))
    result.mask = int(value.get("mask", result.mask))
    result.group = int(value.get("group", result.group))
    return result


# include/carom/base.h: larger magnitudes are refused, they would overflow in a step.
MAX_MAGNITUDE = 1e12


def set_body_velocities(ids, count, linear, angular, name_row):
    """Set the velocities of count bodies (a ctypes array of carom_body_id) from (count, 2)
    linear and (count,) angular arrays (either None), in one C call. Every value is checked
    first against the engine's rules (finite, at most MAX_MAGNITUDE, zeros on static bodies),
    so that a refusal changes nothing; name_row(i) names row i in the message."""
    from .errors import NotFiniteError, OutOfRangeError, check

    arrays = {}
    for key, value, shape in (("linear", linear, (count, 2)), ("angular", angular, (count,))):
        if value is None:
            arrays[key] = None
            continue
        array = np.ascontiguousarray(value, dtype=np.float64)
        if array.shape != shape:
            raise ValueError(f"{key} velocities must have shape {shape}, got {array.shape}")
        bad = ~np.isfinite(array)
        if bad.any():
            row = int(np.argwhere(bad)[0][0])
            raise NotFiniteError(f"{name_row(row)}: {key} velocity {array[row]} is NaN or "
                                 "infinite: it must be finite", 3)
        big = np.abs(array) > MAX_MAGNITUDE
        if big.any():
            row = int(np.argwhere(big)[0][0])
            raise OutOfRangeError(f"{name_row(row)}: {key} velocity {array[row]}: magnitudes "
                                  f"above {MAX_MAGNITUDE:g} are refused", 4)
        arrays[key] = array
    types = np.zeros(count, dtype=np.intc)
    lib.carompy_get_body_types(ids, count, types.ctypes.data_as(_native.c_int_p))
    moving = np.zeros(count, dtype=bool)
    for array in arrays.values():
        if array is not None:
            moving |= (array != 0).reshape(count, -1).any(axis=1)
    static_moving = (types == 0) & moving
    if static_moving.any():
        row = int(np.argmax(static_moving))
        raise OutOfRangeError(f"{name_row(row)}: a static body cannot have a velocity: give it "
                              "zeros (or make it kinematic)", 4)
    pointers = [None if arrays[key] is None else arrays[key].ctypes.data_as(_native.c_double_p)
                for key in ("linear", "angular")]
    failed = ctypes.c_int()
    check(lib.carompy_set_body_velocities(ids, count, *pointers, ctypes.byref(failed)),
          context=f"{name_row(failed.value)}" if failed.value >= 0 else None)
