"""Who may change a score: referee sessions with CSRF tokens, API bearer tokens, login limits.

Public pages are read-only. Anything that changes a record needs either a logged-in
referee (browser: session cookie plus the CSRF token of the page) or a bearer token
(table nodes and tools: ``Authorization: Bearer …``, made by ``guandan user token``).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import defaultdict, deque
from functools import wraps

from flask import current_app, g, redirect, request, session, url_for

from web.i18n import refuse

LOGIN_ATTEMPTS = 5
LOGIN_WINDOW_S = 300


class LoginLimiter:
    """At most ``LOGIN_ATTEMPTS`` failed logins per address in ``LOGIN_WINDOW_S``."""

    def __init__(self, attempts: int = LOGIN_ATTEMPTS, window: float = LOGIN_WINDOW_S) -> None:
        self.attempts = attempts
        self.window = window
        self._failures: dict[str, deque] = defaultdict(deque)
        self._lock = threading.Lock()

    def _recent(self, who: str) -> deque:
        q = self._failures[who]
        while q and time.monotonic() - q[0] > self.window:
            q.popleft()
        return q

    def blocked(self, who: str) -> bool:
        with self._lock:
            return len(self._recent(who)) >= self.attempts

    def failed(self, who: str) -> None:
        with self._lock:
            self._recent(who).append(time.monotonic())

    def succeeded(self, who: str) -> None:
        with self._lock:
            self._failures.pop(who, None)


def csrf_token() -> str:
    """The session's CSRF token, made on first use; forms carry it as ``csrf_token``."""
    token = session.get("csrf")
    if token is None:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def csrf_ok() -> bool:
    sent = request.form.get("csrf_token") or request.headers.get("X-CSRF-Token") or ""
    expected = session.get("csrf") or ""
    return bool(expected) and hmac.compare_digest(sent, expected)


def current_user() -> str | None:
    return session.get("user")


def referee_page(view):
    """A page for logged-in referees; others go to the login page."""
    @wraps(view)
    def wrapped(*args, **kwargs):
        if current_user() is None:
            # the whole path, query included: a link's ?lang=en survives the login
            return redirect(url_for("referee.login", next=request.full_path.rstrip("?")))
        if request.method == "POST" and not csrf_ok():
            refuse(400, "csrf")
        g.user = current_user()
        return view(*args, **kwargs)
    return wrapped


def api_writer(view):
    """A mutating API route: a bearer token, or a referee session with the CSRF header."""
    @wraps(view)
    def wrapped(*args, **kwargs):
        header = request.headers.get("Authorization", "")
        if header.startswith("Bearer "):
            user = current_app.config["STORE"].user_for_token(header[7:].strip())
            if user is None:
                refuse(401, "bad_token")
        elif current_user() is not None and csrf_ok():
            user = current_user()
        else:
            refuse(401, "login_needed")
        g.user = user
        return view(*args, **kwargs)
    return wrapped
