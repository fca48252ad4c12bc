"""Exceptions: every refusal of the C library raised with the library's own message.

carom's C functions return a status and record a message that names the offending value
(carom_last_error()). The package raises a CaromError subclass chosen by the status, whose text
is that message, so what C says is what Python shows. Value problems are also ValueErrors and a
stale id is also a LookupError, so ordinary `except ValueError` code catches them.
"""

from . import _native


class CaromError(Exception):
    """A call refused by the C library. `status` is the carom_status code, `status_name` its
    short description (carom_status_str), str(error) the library's message."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status
        self.status_name = (_native.lib.carom_status_str(status).decode()
                            if status is not None else None)


class InvalidIdError(CaromError, LookupError):
    """A null, stale (destroyed) or foreign id: the body, shape, joint or world is gone."""


class WorldLockedError(CaromError):
    """The world is stepping, or a query is calling back into Python."""


class NotFiniteError(CaromError, ValueError):
    """A number is NaN or infinite."""


class OutOfRangeError(CaromError, ValueError):
    """A number is outside its allowed range (the message gives the range)."""


class InvalidPolygonError(CaromError, ValueError):
    """A polygon that is not convex, has duplicate or collinear points, or too many."""


class NoMassError(CaromError, ValueError):
    """A dynamic body has no mass (give it a shape with area and density > 0)."""


class TooManyWorldsError(CaromError):
    """carom's limit of worlds existing at once in one process (CAROM_MAX_WORLDS, 128)."""


class SnapshotError(CaromError, ValueError):
    """Snapshot bytes that are truncated, corrupt, of another version or of another scene."""


class TooManyContactsError(CaromError):
    """A step would make more contacts than the world's max_contacts: it was refused."""


class SceneError(CaromError, ValueError):
    """A scene (docs/cli.md) the loader refuses. `lines` holds every problem, one line each,
    as `carom run` prints them: `FILE: JSON.path: message`."""

    def __init__(self, lines):
        super().__init__("\n".join(lines))
        self.lines = list(lines)


# carom_status codes, in the order of CAROM_STATUS_LIST (include/carom/base.h).
OK = 0
_STATUS_CLASSES = [
    None,                  # CAROM_OK
    InvalidIdError,        # CAROM_ERROR_INVALID_ID
    WorldLockedError,      # CAROM_ERROR_WORLD_LOCKED
    NotFiniteError,        # CAROM_ERROR_NOT_FINITE
    OutOfRangeError,       # CAROM_ERROR_OUT_OF_RANGE
    InvalidPolygonError,   # CAROM_ERROR_INVALID_POLYGON
    InvalidPolygonError,   # CAROM_ERROR_TOO_MANY_VERTICES
    NoMassError,           # CAROM_ERROR_NO_MASS
    CaromError,            # CAROM_ERROR_INVALID_DEF
    TooManyWorldsError,    # CAROM_ERROR_TOO_MANY_WORLDS
    CaromError,            # CAROM_ERROR_NULL_ARGUMENT
    CaromError,            # CAROM_ERROR_DETERMINISM_MISMATCH
    CaromError,            # CAROM_ERROR_BUFFER_TOO_SMALL
    SnapshotError,         # CAROM_ERROR_INVALID_SNAPSHOT
    SnapshotError,         # CAROM_ERROR_SNAPSHOT_VERSION
    SnapshotError,         # CAROM_ERROR_SCENE_MISMATCH
    TooManyContactsError,  # CAROM_ERROR_TOO_MANY_CONTACTS
]


def error_for(status, message=None, context=None):
    """The exception for a failed status, with carom_last_error() as its message unless one is
    given; context, if any, goes before it ("step 12 of world 3: ...")."""
    if message is None:
        message = _native.lib.carom_last_error().decode("utf-8", "replace")
    if context:
        message = f"{context}: {message}"
    cls = _STATUS_CLASSES[status] if 0 < status < len(_STATUS_CLASSES) else CaromError
    return cls(message, status)


def check(status, context=None):
    """Raise the exception for status unless it is CAROM_OK."""
    if status != OK:
        raise error_for(status, context=context)


def checked_call(function, *args):
    """Call a C getter that reports failure only through carom_last_error (it returns zeros
    then), and raise if it failed."""
    _native.lib.carom_clear_last_error()
    result = function(*args)
    status = _native.lib.carom_last_status()
    if status != OK:
        raise error_for(status)
    return result
