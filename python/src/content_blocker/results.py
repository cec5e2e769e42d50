"""Results and diagnostics as Python objects (the JSON of `content-blocker match` / `check --json`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass(frozen=True)
class Diagnostic:
    """One problem of a JSON rule list, as WebKit reports it (`content-blocker check --json`)."""

    severity: str
    """``"error"`` (WebKit rejects the list) or ``"warning"`` (WebKit drops the rule)."""
    error: Optional[str]
    """WebKit's ``ContentExtensionError`` case name, e.g. ``"JSONInvalidRegex"``."""
    message: str
    """WebKit's message, e.g. ``"Invalid or unsupported regular expression."``."""
    rule: Optional[int]
    """Index of the rule in the JSON array."""
    key: Optional[str]
    """Key path inside the rule, e.g. ``"trigger.url-filter"``."""
    detail: Optional[str]
    """Our reason, more precise than WebKit's message."""
    byte_offset: Optional[int] = None
    """Byte offset in the JSON text, for JSON syntax errors."""

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "Diagnostic":
        return cls(obj["severity"], obj.get("error"), obj["message"], obj.get("rule"), obj.get("key"),
                   obj.get("detail"), obj.get("byteOffset"))

    def __str__(self) -> str:
        """``rule N: KEY: message (detail)``, as the CLI prints it after ``FILE:LINE:COLUMN: error:``."""
        parts: List[str] = []
        if self.rule is not None:
            parts.append(f"rule {self.rule}")
        if self.key is not None:
            parts.append(self.key)
        if self.byte_offset is not None and self.rule is None:
            parts.append(f"byte {self.byte_offset}")
        text = self.message if self.error is not None else ""
        if self.severity == "warning":
            text = "warning: " + text
        if self.detail is not None:
            text = text + (f" ({self.detail})" if self.error is not None else self.detail)
        parts.append(text)
        return ": ".join(parts)


@dataclass(frozen=True)
class Action:
    """An action a list applies to the load, in WebKit's order."""

    list: str
    type: str
    """``block``, ``block-cookies``, ``css-display-none``, ``notify``, ``make-https``, ``redirect``,
    ``modify-headers``."""
    selector: Optional[str] = None
    notification: Optional[str] = None

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "Action":
        return cls(obj["list"], obj["type"], obj.get("selector"), obj.get("notification"))


@dataclass(frozen=True)
class ListResult:
    """One installed list's part of a check."""

    list: str
    ignored_previous_rules: bool
    global_stylesheet: Optional[str] = None
    """The list's global display:none stylesheet (full results only)."""
    global_stylesheet_bytes: Optional[int] = None
    """Its size in bytes (brief results only)."""
    fired_rules: Optional[List[int]] = None
    """Indices of the rules whose triggers matched (``fired_rules=True`` only)."""

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "ListResult":
        return cls(obj["list"], obj["ignoredPreviousRules"], obj.get("globalStylesheet"),
                   obj.get("globalStylesheetBytes"), obj.get("firedRules"))


@dataclass(frozen=True)
class SecondCheck:
    """The second check WebKit makes for some loads (a ping or CSP report as ``other``, a popup as the
    new window's navigation)."""

    resource_type: str
    url: str
    main_document_url: str
    load_type: str
    blocked_load: bool
    blocked_cookies: bool
    made_https: bool
    actions: List[Action]
    lists: List[ListResult]
    css_display_none_actions: Optional[int] = None

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "SecondCheck":
        return cls(obj["resourceType"], obj["url"], obj["mainDocumentURL"], obj["loadType"], obj["blockedLoad"],
                   obj["blockedCookies"], obj["madeHTTPS"], [Action.from_json(a) for a in obj["actions"]],
                   [ListResult.from_json(item) for item in obj["lists"]], obj.get("cssDisplayNoneActions"))


@dataclass(frozen=True)
class Result:
    """What WebKit decides for one load: a result line of `content-blocker match --requests`.

    For a request that could not be decided (``match_many``), ``error`` holds why and the decision
    fields are at their defaults; ``ok`` tells the two apart. ``json`` is the result object as the
    library wrote it.
    """

    url: str = ""
    """The URL as the first check saw it (canonical, without the fragment WebKit drops)."""
    load_type: str = ""
    blocked_load: bool = False
    blocked_cookies: bool = False
    made_https: bool = False
    redirected: bool = False
    notifications: List[str] = field(default_factory=list)
    actions: List[Action] = field(default_factory=list)
    """The first check's actions, every list's in order (brief: without css-display-none)."""
    lists: List[ListResult] = field(default_factory=list)
    css_display_none_actions: Optional[int] = None
    """Brief results: the css-display-none actions left out of ``actions``."""
    request_url: Optional[str] = None
    """The URL after make-https / redirect, when an action changed it."""
    request_headers: Optional[Dict[str, str]] = None
    second_check: Optional[SecondCheck] = None
    warnings: List[str] = field(default_factory=list)
    id: Any = None
    """The request's ``id``, echoed."""
    error: Optional[str] = None
    json: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        """Whether the request was decided (no ``error``)."""
        return self.error is None

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "Result":
        if "error" in obj:
            return cls(error=obj["error"], warnings=obj.get("warnings", []), id=obj.get("id"), json=obj)
        second = obj.get("secondCheck")
        return cls(
            url=obj["url"], load_type=obj["loadType"], blocked_load=obj["blockedLoad"],
            blocked_cookies=obj["blockedCookies"], made_https=obj["madeHTTPS"], redirected=obj["redirected"],
            notifications=obj["notifications"], actions=[Action.from_json(a) for a in obj["actions"]],
            lists=[ListResult.from_json(item) for item in obj["lists"]],
            css_display_none_actions=obj.get("cssDisplayNoneActions"), request_url=obj.get("requestURL"),
            request_headers=obj.get("requestHeaders"),
            second_check=SecondCheck.from_json(second) if second is not None else None,
            warnings=obj.get("warnings", []), id=obj.get("id"), json=obj)
