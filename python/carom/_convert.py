"""Conversions between Python values and carom's C structs, shared by the package's modules."""

import ctypes

import numpy as np

from . import _native
from ._native import lib

# Fields of the C defs that Python does not set from keywords.
HIDDEN_FIELDS = {"internal_cookie", "user_data"}

def vec2(value, what):
    try:
        x, y = value
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be a pair of numbers (x, y), got {value!r}") from None
    return _native.Vec2(float(x), float(y))


def shape_key(shape_id):
    return (int(shape_id.index1) << 32) | int(shape_id.generation)


def c_records(pointer, count, struct):
    """A copy of count C structs at pointer (or a ctypes array) as a numpy structured array
    whose dtype mirrors the struct (numpy reads the ctypes layout, offsets and padding)."""
    dtype = np.dtype(struct)
    if count == 0:
        return np.zeros(0, dtype=dtype)
    raw = ctypes.cast(pointer, ctypes.POINTER(ctypes.c_char * (count * dtype.itemsize)))
    return np.frombuffer(raw.contents, dtype=dtype, count=count).copy()


def id_keys(ids):
    """index1 << 32 | generation of a structured array of ids: one int per object."""
    return (ids["index1"].astype(np.uint64) << np.uint64(32)) | ids["generation"].astype(np.uint64)


def pairs_of(vec2s):
    """(n, 2) float64 from a structured array of carom_vec2."""
    return np.stack([vec2s["x"], vec2s["y"]], axis=-1) if len(vec2s) else np.zeros((0, 2))


def fill_def(definition, fields, what):
    """Set the fields of a ctypes def from keyword arguments, with the C names."""
    names = {name: kind for name, kind in definition._fields_ if name not in HIDDEN_FIELDS}
    for name, value in fields.items():
        if name not in names:
            valid = ", ".join(sorted(names))
            raise TypeError(f"{what}: unknown keyword '{name}'; valid keywords: {valid}")
        kind = names[name]
        if kind is _native.Vec2:
            setattr(definition, name, vec2(value, f"{what} {name}"))
        elif kind is _native.Filter:
            setattr(definition, name, filter_of(value))
        elif kind is ctypes.c_int:
            if isinstance(value, float):
                raise TypeError(f"{what} {name} must be an integer or a bool, got {value!r}")
            setattr(definition, name, int(value))
        else:
            setattr(definition, name, float(value))
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
