"""One exception class per sgk_status, each also a fitting Python built-in."""

OK = 0
ERR_INVALID_ARGUMENT = 1
ERR_SHAPE = 2
ERR_INDEX_OUT_OF_RANGE = 3
ERR_UNSUPPORTED = 4
ERR_OUT_OF_MEMORY = 5
ERR_OVERFLOW = 6

_NAMES = {
    OK: "SGK_OK",
    ERR_INVALID_ARGUMENT: "SGK_ERR_INVALID_ARGUMENT",
    ERR_SHAPE: "SGK_ERR_SHAPE",
    ERR_INDEX_OUT_OF_RANGE: "SGK_ERR_INDEX_OUT_OF_RANGE",
    ERR_UNSUPPORTED: "SGK_ERR_UNSUPPORTED",
    ERR_OUT_OF_MEMORY: "SGK_ERR_OUT_OF_MEMORY",
    ERR_OVERFLOW: "SGK_ERR_OVERFLOW",
}


class SgkError(Exception):
    """A failed sgk call.

    status: the sgk_status value; status_name: its name; message: the
    library's sgk_last_error() detail (or the binding's own, for problems it
    finds before calling the library).
    """
    status = None

    def __init__(self, message, status=None):
        if status is not None:
            self.status = status
        self.status_name = _NAMES.get(self.status, f"SGK_STATUS_{self.status}")
        self.message = message
        super().__init__(f"{self.status_name}: {message}")


class InvalidArgumentError(SgkError, ValueError):
    """NULL pointer, bad enum, overlapping buffers, wrong output array."""
    status = ERR_INVALID_ARGUMENT


class ShapeError(SgkError, ValueError):
    """Ranks or dimensions break the operator's rules."""
    status = ERR_SHAPE


class IndexOutOfRangeError(SgkError, IndexError):
    """An index coordinate outside [-s, s-1]."""
    status = ERR_INDEX_OUT_OF_RANGE


class UnsupportedError(SgkError, TypeError):
    """A reduction the type does not define, or an unsupported type."""
    status = ERR_UNSUPPORTED


class OutOfMemoryError(SgkError, MemoryError):
    status = ERR_OUT_OF_MEMORY


class SizeOverflowError(SgkError, OverflowError):
    """A size product does not fit in 64 bits."""
    status = ERR_OVERFLOW


_CLASSES = {cls.status: cls for cls in (InvalidArgumentError, ShapeError, IndexOutOfRangeError,
                                        UnsupportedError, OutOfMemoryError, SizeOverflowError)}


def error_for(status, message):
    """The exception instance for a non-OK status."""
    cls = _CLASSES.get(status)
    if cls is None:
        return SgkError(message, status)
    return cls(message)
