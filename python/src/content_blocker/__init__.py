"""Safari/WebKit content-blocker rule lists on Linux: compile, load and match.

A Python binding (ctypes) of swift-content-blocker's C library, libContentBlockerC. Answers are
exactly `content-blocker match`'s: a request is a load as a page makes it, decided as WebKit's
loader does.

    import content_blocker as cb

    rules = cb.compile('[{"trigger": {"url-filter": "ads"}, "action": {"type": "block"}}]')
    rules.save("ads.cbin")                      # a binary rule list, as `content-blocker compile` writes
    rules = cb.load("ads.cbin")                 # memory-mapped, validated
    cb.match(rules, "https://x.test/ads.js", main_document_url="https://news.test/",
             resource_type="script").blocked_load                          # True
    cb.match_many(rules, [{"url": "https://x.test/ads.js", "resourceType": "script"}])

Every object may be used from several threads at once; the library's calls release the GIL, and
``match_many`` matches on every core.
"""

from __future__ import annotations

import ctypes
import json as _json
import os
import re
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union

from . import _native
from .results import Action, Diagnostic, ListResult, Result, SecondCheck

__all__ = [
    "Action", "CompileError", "ContentBlockerError", "Diagnostic", "ListResult", "LoadError", "Matcher",
    "RequestError", "Result", "RuleList", "SecondCheck", "binary_format_version", "compile", "library_path",
    "load", "match", "match_many", "shared_matcher", "version",
]

__version__ = "0.2.0"

Request = Union[Mapping[str, Any], str, bytes]
"""A request: a mapping with `content-blocker match`'s request keys (``url``, ``mainDocumentURL``,
``frameURL``, ``resourceType``, ``loadContext``, ``requestMethod``, ``loadType``, ``requestHeaders``,
``id``), or that object's JSON text on one line."""


class ContentBlockerError(Exception):
    """Base class of this package's errors."""


class CompileError(ContentBlockerError, ValueError):
    """A JSON rule list WebKit would reject. ``diagnostics`` has every problem (the first error is the
    one WebKit reports), each with WebKit's message, the rule index and the key."""

    def __init__(self, message: str, diagnostics: List[Diagnostic]):
        super().__init__(message)
        self.diagnostics = diagnostics

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


class LoadError(ContentBlockerError, OSError):
    """A binary rule list that cannot be read: missing, unreadable, damaged or of another version."""


class RequestError(ContentBlockerError, ValueError):
    """A request that is not one (no url, an invalid URL, an unknown resource type, …)."""


def _raise(status: int, message: Optional[str]) -> None:
    message = message or f"status {status}"
    if status in (_native.ERROR_IO, _native.ERROR_BINARY):
        raise LoadError(message)
    if status == _native.ERROR_REQUEST:
        raise RequestError(message)
    raise ContentBlockerError(message)


def version() -> str:
    """The library's version."""
    return _native.library().cb_version().decode()


def binary_format_version() -> int:
    """The binary rule list format version the library reads and writes."""
    return int(_native.library().cb_binary_format_version())


def library_path() -> str:
    """The path of the libContentBlockerC.so in use."""
    return _native.library_path()


class RuleList:
    """A compiled rule list ready to match (``compile`` or ``load``). Immutable; thread-safe."""

    def __init__(self, handle: int, diagnostics: Optional[List[Diagnostic]] = None):
        self._handle: Optional[int] = handle
        self._lib = _native.library()
        self.diagnostics: List[Diagnostic] = diagnostics or []
        """Warnings of a compiled list (rules WebKit drops)."""

    @property
    def identifier(self) -> str:
        """The list's name in results."""
        return self._lib.cb_rule_list_identifier(self._checked()).decode()

    @property
    def rule_count(self) -> int:
        """The number of rules of the JSON list it was compiled from."""
        return int(self._lib.cb_rule_list_rule_count(self._checked()))

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the binary rule list to ``path`` (atomically), for ``load`` or `content-blocker`."""
        status, message = _native.call_with_error(self._lib.cb_rule_list_save, self._checked(), os.fsencode(path))
        if status != _native.OK:
            _raise(status, message)

    def close(self) -> None:
        """Releases the list now (matchers made from it keep it alive)."""
        handle, self._handle = self._handle, None
        if handle:
            self._lib.cb_rule_list_free(handle)

    def _checked(self) -> int:
        if not self._handle:
            raise ValueError("the rule list is closed")
        return self._handle

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        if not self._handle:
            return "RuleList(closed)"
        return f"RuleList(identifier={self.identifier!r}, rules={self.rule_count})"


def compile(json: Union[str, bytes], identifier: str = "list") -> RuleList:  # noqa: A001 (WebKit's verb)
    """Compiles a JSON rule list as WebKit validates it.

    Raises ``CompileError`` (with every diagnostic) when WebKit would reject it; warnings of an
    accepted list are in the result's ``diagnostics``.
    """
    data = json.encode("utf-8") if isinstance(json, str) else bytes(json)
    lib = _native.library()
    handle = ctypes.c_void_p()
    diagnostics = ctypes.c_void_p()
    error = ctypes.c_void_p()
    status = lib.cb_rule_list_compile(data, len(data), identifier.encode(), ctypes.byref(handle),
                                      ctypes.byref(diagnostics), ctypes.byref(error))
    diagnostics_text = _native.take_string(diagnostics)
    message = _native.take_string(error)
    parsed = [Diagnostic.from_json(d) for d in _json.loads(diagnostics_text)] if diagnostics_text else []
    if status == _native.ERROR_COMPILE:
        raise CompileError(message.decode() if message else "the rule list is invalid", parsed)
    if status != _native.OK:
        _raise(status, message.decode() if message else None)
    return RuleList(handle.value, parsed)


def load(path: Union[str, os.PathLike], identifier: Optional[str] = None, copy: bool = False) -> RuleList:
    """Maps and validates a binary rule list (``content-blocker compile`` output, or ``RuleList.save``).

    ``identifier`` defaults to the file name without extension, as the CLI names lists. The file is
    memory-mapped (``copy=True`` reads it instead): replace it only by renaming a new file over it.
    Raises ``LoadError``.
    """
    lib = _native.library()
    handle = ctypes.c_void_p()
    status, message = _native.call_with_error(
        lib.cb_rule_list_load, os.fsencode(path), identifier.encode() if identifier is not None else None,
        _native.LOAD_COPY if copy else 0, ctypes.byref(handle))
    if status != _native.OK:
        _raise(status, message)
    return RuleList(handle.value)


Lists = Union["Matcher", RuleList, Sequence[RuleList]]

_ERROR_MEMBER = re.compile(r'"error":"line (\d+): ')


class Matcher:
    """Rule lists installed together (evaluated in order), ready to decide loads. Thread-safe.

    ``active_actions``: match patterns (``"<all_urls>"``, ``"*://example.com/*"``) where redirect and
    modify-headers actions apply (`--active-actions`). ``engine``: ``"fast"`` or ``"reference"``.
    """

    def __init__(self, lists: Union[RuleList, Sequence[RuleList]], active_actions: Sequence[str] = (),
                 engine: str = "fast"):
        if isinstance(lists, RuleList):
            lists = [lists]
        if engine not in ("fast", "reference"):
            raise ValueError(f"engine must be fast or reference, not {engine!r}")
        self._lists = list(lists)
        self._lib = _native.library()
        handles = (ctypes.c_void_p * max(len(self._lists), 1))(*[rule_list._checked() for rule_list in self._lists])
        patterns = (ctypes.c_char_p * max(len(active_actions), 1))(*[p.encode() for p in active_actions])
        handle = ctypes.c_void_p()
        status, message = _native.call_with_error(
            self._lib.cb_matcher_new, handles, len(self._lists), patterns, len(active_actions),
            _native.MATCHER_REFERENCE_ENGINE if engine == "reference" else 0, ctypes.byref(handle))
        if status != _native.OK:
            _raise(status, message)
        self._handle: Optional[int] = handle.value

    @property
    def lists(self) -> List[RuleList]:
        return list(self._lists)

    def match(self, url: str, main_document_url: Optional[str] = None, resource_type: str = "document", *,
              frame_url: Optional[str] = None, load_context: Optional[str] = None,
              request_method: Optional[str] = None, load_type: Optional[str] = None,
              request_headers: Optional[Mapping[str, str]] = None, brief: bool = True,
              fired_rules: bool = False) -> Result:
        """Decides one load (see the module's ``match``). Raises ``RequestError`` for a bad request."""
        request: Dict[str, Any] = {"url": url, "resourceType": resource_type}
        optional = {"mainDocumentURL": main_document_url, "frameURL": frame_url, "loadContext": load_context,
                    "requestMethod": request_method, "loadType": load_type,
                    "requestHeaders": dict(request_headers) if request_headers is not None else None}
        request.update({key: value for key, value in optional.items() if value is not None})
        return self.match_request(request, brief=brief, fired_rules=fired_rules)

    def match_request(self, request: Request, brief: bool = True, fired_rules: bool = False) -> Result:
        """Decides one request given as `content-blocker match` reads it (a mapping or its JSON)."""
        data = _request_bytes(request)
        text = ctypes.c_void_p()
        length = ctypes.c_size_t()
        status, message = _native.call_with_error(
            self._lib.cb_match, self._checked(), data, len(data), _flags(brief, fired_rules), ctypes.byref(text),
            ctypes.byref(length))
        if status != _native.OK:
            _raise(status, message)
        return Result.from_json(_json.loads(_native.take_string(text, length.value)))

    def match_lines(self, requests: Iterable[Request], brief: bool = True, fired_rules: bool = False,
                    jobs: int = 0, chunk_size: int = 4096) -> Iterator[str]:
        """The result line (JSON text, no newline) of each request, in order, exactly as
        `content-blocker match --requests` writes it; requests are sent ``chunk_size`` at a time and
        matched on ``jobs`` threads (0: every core). A bad request gives ``{"error": "line N: …"}``,
        N counted from 1 over all the requests."""
        first = 0
        chunk: List[bytes] = []
        for request in requests:
            chunk.append(_request_bytes(request))
            if len(chunk) >= chunk_size:
                yield from self._match_chunk(chunk, first, brief, fired_rules, jobs)
                first += len(chunk)
                chunk = []
        if chunk:
            yield from self._match_chunk(chunk, first, brief, fired_rules, jobs)

    def imatch_many(self, requests: Iterable[Request], brief: bool = True, fired_rules: bool = False,
                    jobs: int = 0, chunk_size: int = 4096) -> Iterator[Result]:
        """``match_many`` as an iterator: results are made a chunk at a time."""
        for line in self.match_lines(requests, brief, fired_rules, jobs, chunk_size):
            yield Result.from_json(_json.loads(line))

    def match_many(self, requests: Iterable[Request], brief: bool = True, fired_rules: bool = False,
                   jobs: int = 0, chunk_size: int = 4096) -> List[Result]:
        """Decides requests in order (see the module's ``match_many``)."""
        return list(self.imatch_many(requests, brief, fired_rules, jobs, chunk_size))

    def _match_chunk(self, chunk: List[bytes], first: int, brief: bool, fired_rules: bool,
                     jobs: int) -> List[str]:
        data = b"\n".join(chunk) + b"\n"  # every request ends its line, a blank last one too
        text = ctypes.c_void_p()
        length = ctypes.c_size_t()
        status, message = _native.call_with_error(
            self._lib.cb_match_many, self._checked(), data, len(data), _flags(brief, fired_rules), jobs,
            ctypes.byref(text), ctypes.byref(length))
        if status != _native.OK:
            _raise(status, message)
        output = _native.take_string(text, length.value) or b""
        lines = output.decode("utf-8").split("\n")[:-1]
        if first:
            lines = [_renumber(line, first) if '"error":"line ' in line and '"blockedLoad":' not in line else line
                     for line in lines]
        if len(lines) != len(chunk):
            raise ContentBlockerError(f"{len(chunk)} requests gave {len(lines)} results")
        return lines

    def close(self) -> None:
        """Releases the matcher now."""
        handle, self._handle = self._handle, None
        if handle:
            self._lib.cb_matcher_free(handle)

    def _checked(self) -> int:
        if not self._handle:
            raise ValueError("the matcher is closed")
        return self._handle

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


def _flags(brief: bool, fired_rules: bool) -> int:
    return (_native.MATCH_BRIEF if brief else 0) | (_native.MATCH_FIRED_RULES if fired_rules else 0)


def _request_bytes(request: Request) -> bytes:
    if isinstance(request, Mapping):
        return _json.dumps(request, separators=(",", ":")).encode()
    data = request.encode("utf-8") if isinstance(request, str) else bytes(request)
    if b"\n" in data:
        raise ValueError("a request's JSON text must be one line")
    return data


def _renumber(line: str, first: int) -> str:
    """An error line of a chunk that starts at request ``first``, numbered over all the requests. The
    error member is the last ``"error":"line N: `` of the line (only an ``id`` comes before it, and
    quotes inside strings are escaped)."""
    found = None
    for found in _ERROR_MEMBER.finditer(line):
        pass
    if found is None:
        return line
    return f'{line[:found.start(1)]}{int(found.group(1)) + first}{line[found.end(1):]}'


_SHARED: Dict[tuple, tuple] = {}
_SHARED_LOCK = __import__("threading").Lock()


def shared_matcher(paths: Sequence[Union[str, os.PathLike]], active_actions: Sequence[str] = (),
                   engine: str = "fast") -> Matcher:
    """A ``Matcher`` of the binary rule lists at ``paths``, loaded (memory-mapped) once per process
    and then reused: for engines that call a function per partition (Spark's ``mapPartitions``,
    Dask's ``map_partitions``), whose worker processes run many partitions. A list file replaced
    (renamed over) since is loaded again."""
    key = (tuple(os.fspath(path) for path in paths), tuple(active_actions), engine)
    files = tuple((info.st_dev, info.st_ino, info.st_mtime_ns) for info in map(os.stat, key[0]))
    with _SHARED_LOCK:
        cached = _SHARED.get(key)
        if cached is None or cached[0] != files:
            cached = (files, Matcher([load(path) for path in key[0]], active_actions=active_actions, engine=engine))
            _SHARED[key] = cached
        return cached[1]


def _matcher(lists: Lists) -> Matcher:
    return lists if isinstance(lists, Matcher) else Matcher(lists)


def match(lists: Lists, url: str, main_document_url: Optional[str] = None, resource_type: str = "document", *,
          frame_url: Optional[str] = None, load_context: Optional[str] = None, request_method: Optional[str] = None,
          load_type: Optional[str] = None, request_headers: Optional[Mapping[str, str]] = None, brief: bool = True,
          fired_rules: bool = False) -> Result:
    """Decides one load as a page makes it, against ``lists`` (a ``Matcher``, a ``RuleList`` or a
    sequence of them, evaluated in order): `content-blocker match --url URL …`'s answer.

    ``main_document_url`` is the top URL (default: ``url`` without its fragment: a top-level
    navigation); ``resource_type``: ``document``, ``image``, ``style-sheet``, ``script``, ``font``,
    ``svg-document``, ``media``, ``popup``, ``ping``, ``fetch``, ``websocket``, ``csp-report``,
    ``other``, ``top-document``, ``child-document``; ``load_context``: ``top-frame`` or
    ``child-frame``; ``load_type``: ``first-party`` or ``third-party`` (computed when omitted).
    ``brief`` (the default) leaves css-display-none selectors and global stylesheets out of the
    result, counting them (``--brief``). Raises ``RequestError`` for an invalid request.
    """
    return _matcher(lists).match(url, main_document_url, resource_type, frame_url=frame_url,
                                 load_context=load_context, request_method=request_method, load_type=load_type,
                                 request_headers=request_headers, brief=brief, fired_rules=fired_rules)


def match_many(lists: Lists, requests: Iterable[Request], brief: bool = True, fired_rules: bool = False,
               jobs: int = 0) -> List[Result]:
    """Decides many requests, in order, on ``jobs`` threads (0: every core): the results of
    `content-blocker match --requests` for them. Each request is a mapping with the CLI's request
    keys (``{"url": …, "mainDocumentURL": …, "resourceType": …}``) or its JSON text. A bad request
    gives a ``Result`` whose ``error`` says why (``"line N: …"``, N from 1); the others go on."""
    return _matcher(lists).match_many(requests, brief=brief, fired_rules=fired_rules, jobs=jobs)
