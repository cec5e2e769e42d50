"""ctypes bindings of libContentBlockerC (Sources/ContentBlockerC/include/content_blocker.h)."""

from __future__ import annotations

import ctypes
import os
import threading
from pathlib import Path
from typing import List, Optional, Tuple

LIBRARY_NAME = "libContentBlockerC.so"

OK = 0
ERROR_ARGUMENT = 1
ERROR_IO = 2
ERROR_BINARY = 3
ERROR_COMPILE = 4
ERROR_REQUEST = 5

LOAD_COPY = 1
MATCHER_REFERENCE_ENGINE = 1
MATCH_BRIEF = 1
MATCH_FIRED_RULES = 2

_c_char_pp = ctypes.POINTER(ctypes.c_void_p)  # char ** (void * so that ctypes does not copy and free)
_lock = threading.Lock()
_library: Optional[ctypes.CDLL] = None
_library_path: Optional[str] = None


def candidate_paths() -> List[Path]:
    """Where the library is looked for, in order: $CONTENT_BLOCKER_LIBRARY, the copy bundled into
    the package when it was built, then ``.build/release`` of the checkout this file is in (when it
    is imported from ``python/src`` of a checkout)."""
    paths: List[Path] = []
    given = os.environ.get("CONTENT_BLOCKER_LIBRARY")
    if given:
        paths.append(Path(given))
    here = Path(__file__).resolve().parent
    paths.append(here / LIBRARY_NAME)
    checkout = here.parent.parent.parent
    if (checkout / "Package.swift").is_file():
        paths.append(checkout / ".build" / "release" / LIBRARY_NAME)
    return paths


def library() -> ctypes.CDLL:
    """The loaded library (loaded on first use)."""
    global _library, _library_path
    with _lock:
        if _library is not None:
            return _library
        tried = candidate_paths()
        for path in tried:
            if path.is_file():
                lib = ctypes.CDLL(str(path))
                _declare(lib)
                _library, _library_path = lib, str(path)
                return lib
        raise ImportError(
            "content_blocker: libContentBlockerC.so not found (looked at "
            + ", ".join(str(p) for p in tried)
            + "). Reinstall from a checkout with Swift (`pip install ./python`), or build it with "
            "`swift build -c release --product ContentBlockerC` and set CONTENT_BLOCKER_LIBRARY to "
            ".build/release/libContentBlockerC.so."
        )


def library_path() -> str:
    """The path of the library in use."""
    library()
    assert _library_path is not None
    return _library_path


def _declare(lib: ctypes.CDLL) -> None:
    p = ctypes.c_void_p
    size = ctypes.c_size_t
    u32 = ctypes.c_uint32
    status = ctypes.c_int32
    out = ctypes.POINTER(ctypes.c_void_p)
    signatures = {
        "cb_version": (ctypes.c_char_p, []),
        "cb_binary_format_version": (u32, []),
        "cb_string_free": (None, [p]),
        "cb_rule_list_load": (status, [ctypes.c_char_p, ctypes.c_char_p, u32, out, _c_char_pp]),
        "cb_rule_list_compile": (status, [ctypes.c_char_p, size, ctypes.c_char_p, out, _c_char_pp, _c_char_pp]),
        "cb_rule_list_save": (status, [p, ctypes.c_char_p, _c_char_pp]),
        "cb_rule_list_identifier": (ctypes.c_char_p, [p]),
        "cb_rule_list_rule_count": (size, [p]),
        "cb_rule_list_free": (None, [p]),
        "cb_matcher_new": (status, [ctypes.POINTER(p), size, ctypes.POINTER(ctypes.c_char_p), size, u32, out,
                                    _c_char_pp]),
        "cb_matcher_free": (None, [p]),
        "cb_match": (status, [p, ctypes.c_char_p, size, u32, _c_char_pp, ctypes.POINTER(size), _c_char_pp]),
        "cb_match_many": (status, [p, ctypes.c_char_p, size, u32, size, _c_char_pp, ctypes.POINTER(size),
                                   _c_char_pp]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes


def take_string(pointer: ctypes.c_void_p, length: Optional[int] = None) -> Optional[bytes]:
    """The bytes of a string the library gave us, which is then freed."""
    if not pointer.value:
        return None
    try:
        if length is None:
            return ctypes.string_at(pointer.value)
        return ctypes.string_at(pointer.value, length)
    finally:
        library().cb_string_free(pointer.value)


def call_with_error(function, *args) -> Tuple[int, Optional[str]]:
    """Calls a function whose last parameter is `char **error`: its status and message."""
    error = ctypes.c_void_p()
    status = function(*args, ctypes.byref(error))
    message = take_string(error)
    return status, message.decode("utf-8", "replace") if message is not None else None
