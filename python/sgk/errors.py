"""One exception class per sgk_status, each also a fitting Python built-in.

The classes are named by the statuses' names; their codes are the
library's (sgk_status_name over the registry's statuses), asked at import.
"""
from __future__ import annotations

from ._native import LibraryNotFoundError, available, ext  # noqa: F401 (re-exported)


class SgkError(Exception):
    """A failed sgk call.

    status: the sgk_status value; status_name: its name; message: the
    library's sgk_last_error() detail (or the binding's own, for problems it
    finds before calling the library).
    """
    status: int | None = None
    status_name: str | None = None

    def __init__(self, message: str, status: int | None = None) -> None:
        if status is not None:
            self.status = status
            self.status_name = _NAMES.get(status, f"SGK_STATUS_{status}")
        self.message = message
        super().__init__(f"{self.status_name}: {message}")


class InvalidArgumentError(SgkError, ValueError):
    """NULL pointer, bad enum, overlapping buffers, wrong output array."""
    status_name = "SGK_ERR_INVALID_ARGUMENT"


class ShapeError(SgkError, ValueError):
    """Ranks or dimensions break the operator's rules."""
    status_name = "SGK_ERR_SHAPE"


class IndexOutOfRangeError(SgkError, IndexError):
    """An index coordinate outside [-s, s-1]."""
    status_name = "SGK_ERR_INDEX_OUT_OF_RANGE"


class UnsupportedError(SgkError, TypeError):
    """A reduction the type does not define, or an unsupported type."""
    status_name = "SGK_ERR_UNSUPPORTED"


class OutOfMemoryError(SgkError, MemoryError):
    """The library could not allocate its scratch or plan."""
    status_name = "SGK_ERR_OUT_OF_MEMORY"


class SizeOverflowError(SgkError, OverflowError):
    """A size product does not fit in 64 bits."""
    status_name = "SGK_ERR_OVERFLOW"


_CLASSES: dict[str | None, type[SgkError]] = {
    cls.status_name: cls for cls in (InvalidArgumentError, ShapeError, IndexOutOfRangeError,
                                     UnsupportedError, OutOfMemoryError, SizeOverflowError)}
# status code -> name, from the library
_NAMES: dict[int, str] = dict(enumerate(ext.status_names())) if available else {}
for _code, _name in _NAMES.items():
    if _name in _CLASSES:
        _CLASSES[_name].status = _code


def error_for(status: int, message: str) -> SgkError:
    """The exception instance for a non-OK status."""
    cls = _CLASSES.get(_NAMES.get(status))
    if cls is None:
        return SgkError(message, status)
    return cls(message)
