"""A hand calculator in the browser: ``asiapoker serve`` (needs the ``web`` extra:
``pip install '.[web]'`` in a clone, ``pip install 'asiapoker[web]'`` for a release).

:func:`create_app` makes a small ASGI app (Starlette) with the page at ``/`` and a JSON API:

- ``GET /api/solve?hand=...&way=...&a234=high|low&pays=1&table=A&dead=...&dealer=...``: the
  content of ``asiapoker solve --json`` (every legal setting ranked by exact ev, the best one,
  the house way's one and what it costs; ``dead``: cards seen elsewhere, not the dealer's;
  ``dealer``: cards the dealer shows), plus ``explain`` (the house way's setting and the rule that
  decided it) and ``bonus`` (the seven cards' bonus category and what it pays under ``table``).
- ``GET /api/ways``: the ways and pay tables a request may name.

Bad input gets a 4xx status and ``{"error": "<one line>"}``, the same line the CLI prints.
Requests are bounded: the query string (1 kB, each parameter once), the rate of solves per
client (a token bucket, each solve charged for what it costs: :func:`solve_cost`, and a
request that makes the server build a way's dealer model first :data:`MODEL_BUILD_COST` more),
the solves one client runs at once (half the slots) and the solves running at once in all.
The server keeps the dealer model of every (way, A-2-3-4) pair it has served, so switching
among them costs nothing after the first.  Every error the app answers is JSON with the
page's security headers; so is :func:`make_server`'s answer to a request that is not HTTP
at all (400).  What the HTTP layer (uvicorn) does before the app sees a request is its own: a
request whose body the app does not read (a POST, answered 405) has its connection closed
after the answer, and a client still sending a large body then sees the connection reset.
The server binds to 127.0.0.1 unless told otherwise, and a request can name only a built-in
way or the one the server was started with, never a file.
"""

from __future__ import annotations

import asyncio
import json
import math
import socket
import threading
import time
from importlib import resources
from typing import Any

from ._validate import whole_number
from .bonus import PayTable, bonus_hand
from .cards import to_ids
from .errors import AsiaPokerError, MissingExtraError, OptionError, install_hint
from .house_way import DEFAULT_WAY, HouseWay, WayLike, resolve_way
from .rules import Rules, resolve
from .solver import dealer_model, model_ready, solve

__all__ = ["BUILTIN_WAYS", "MODEL_BUILD_COST", "REQUEST_TIMEOUT", "create_app", "make_server",
           "serve", "solve_cost"]

BUILTIN_WAYS = ("standard", "equilibrium", "classic", "medium-first", "high-first")
"""The built-in ways the page offers."""
MAX_QUERY = 1024
_WAY_TEXT = {"standard": "the default: a written rack card of 40 plain rules a dealer can "
                         "follow, derived from an earlier equilibrium way",
             "equilibrium": "a fixed point of the dealer's exact best response to itself",
             "classic": "the classic way of the regulations' examples (rule 5.4)",
             "medium-first": "the legal setting with the best medium hand, then low, then high",
             "high-first": "the legal setting with the best high hand, then medium, then low"}


class _Bucket:
    """Per-client token buckets: ``rate`` solves a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.state: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()

    def take(self, client: str, cost: float = 1.0) -> bool:
        """Charge ``client`` ``cost`` solves (at most a whole burst), or refuse."""
        cost = min(float(self.burst), cost)
        now = time.monotonic()
        with self.lock:
            if len(self.state) > 10_000:               # forget idle clients, bounded memory
                self.state = {k: v for k, v in self.state.items() if now - v[1] < 60}
            tokens, last = self.state.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens < cost:
                self.state[client] = (tokens, now)
                return False
            self.state[client] = (tokens - cost, now)
            return True


MODEL_BUILD_COST = 400
"""What a request that needs a dealer model not yet in memory is charged on top, in plain
solves (a build or a cache load takes 1 to 1.75 s, a solve 1 to 5 ms; the charge is capped
at a client's burst)."""


def solve_cost(n_shown: int) -> int:
    """What a solve costs, in plain solves: with ``n_shown`` dealer cards shown the core
    makes 2^(n_shown - 1) passes (inclusion and exclusion over the shown cards)."""
    return 1 << max(0, n_shown - 1)


def create_app(way: WayLike = DEFAULT_WAY, rules: Rules | None = None, *,
               rate: float = 20.0, burst: int = 40, concurrent: int = 2) -> Any:
    """The calculator (a page and a JSON API) as an ASGI app, for any ASGI server.

    Parameters
    ----------
    way : WayLike, default "standard"
        The page's default house way (the built-in ways are offered too).
    rules : Rules, optional
        The page's default rule options.
    rate : float, default 20.0
        Solves a second each client may run.
    burst : int, default 40
        Solves a client may run at once before ``rate`` applies.
    concurrent : int, default 2
        Solves running at once, over all clients.

    Returns
    -------
    starlette.applications.Starlette
        The app: ``GET /`` the page, ``GET /api/solve?hand=...`` a solve, ``GET /api/ways``
    the ways offered.

    Raises
    ------
    MissingExtraError
        The ``web`` extra (Starlette) is not installed.
    OptionError
        ``rate``, ``burst`` or ``concurrent`` is not a positive number.
    HouseWayError
        ``way`` is not a house way.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.
    """
    try:
        from starlette.applications import Starlette
        from starlette.concurrency import run_in_threadpool
        from starlette.exceptions import HTTPException
        from starlette.requests import Request
        from starlette.responses import HTMLResponse, JSONResponse, Response
        from starlette.routing import Route
    except ImportError:
        raise MissingExtraError(f"asiapoker serve needs Starlette and uvicorn (the web extra): "
                                f"{install_hint('web')}") from None
    if (isinstance(rate, bool) or not isinstance(rate, (int, float)) or not math.isfinite(rate)
            or rate <= 0):
        raise OptionError(f"rate must be a number of solves a second > 0, got {rate!r}")
    burst = whole_number(burst, "burst")
    concurrent = whole_number(concurrent, "concurrent")
    default_way = resolve_way(way)
    default_rules = resolve(rules)
    ways: dict[str, HouseWay] = {name: HouseWay.named(name) for name in BUILTIN_WAYS}
    ways.setdefault(default_way.name, default_way)
    bucket = _Bucket(rate, burst)
    slots = asyncio.Semaphore(concurrent)
    # solves running per client: at most half the slots, so one client never holds them all
    per_client = max(1, concurrent // 2)
    running: dict[str, int] = {}
    page = resources.files("asiapoker").joinpath("static/index.html").read_text("utf-8")
    headers = SECURITY_HEADERS

    def error(status: int, message: str, retry: float | None = None) -> Response:
        extra = {} if retry is None else {"Retry-After": str(max(1, math.ceil(retry)))}
        return JSONResponse({"error": message}, status_code=status,
                            headers={**headers, **extra})

    def compute(hand: str, w: HouseWay, r: Rules, table: PayTable, dead: str | None,
                dealer: str | None) -> dict[str, Any]:
        dealer_model(w, r, keep=True)          # kept for the server's life: no switching cost
        sol = solve(hand, w, r, dead=dead, dealer=dealer)
        data = sol.to_dict()
        setting, why = w.explain(hand, r)
        data["explain"] = {"setting": str(setting), "reason": why}
        cat = bonus_hand(hand, table)
        data["bonus"] = {"category": cat, "pays": table.pay(cat), "table": table.name}
        return data

    async def index(request: Request) -> Response:
        return HTMLResponse(page, headers=headers)

    async def api_ways(request: Request) -> Response:
        return JSONResponse({
            "default": default_way.name, "rules": default_rules.to_dict(),
            "ways": [{"name": n, "description": _WAY_TEXT.get(n, w.description)}
                     for n, w in ways.items()],
            "tables": ["A", "B", "C"]}, headers=headers)

    async def api_solve(request: Request) -> Response:
        if len(request.url.query) > MAX_QUERY:
            return error(414, f"the query is longer than {MAX_QUERY} characters")
        q = request.query_params
        unknown = sorted(set(q) - {"hand", "way", "a234", "pays", "table", "dead", "dealer"})
        if unknown:
            return error(400, f"unknown parameter {unknown[0]!r} (hand, way, a234, pays, "
                              f"table, dead, dealer)")
        twice = sorted((k, len(q.getlist(k))) for k in set(q) if len(q.getlist(k)) > 1)
        if twice:
            return error(400, f"parameter {twice[0][0]!r} given {twice[0][1]} times: give it "
                              f"once (several cards in one value, e.g. dead=Ks Qh)")
        hand = q.get("hand", "").strip()
        if not hand:
            return error(400, "no hand: give seven cards, e.g. hand=As Kd 7h 7c Jk 2s 9d")
        name = q.get("way", default_way.name)
        w = ways.get(name)
        if w is None:
            return error(400, f"unknown house way {name!r} (one of: {', '.join(ways)})")
        try:
            pays = _number(q.get("pays", str(default_rules.pays)))
            r = Rules(a234=q.get("a234", default_rules.a234), pays=pays)  # type: ignore[arg-type]
            table = PayTable.named(q.get("table", "A"))
        except AsiaPokerError as exc:
            return error(400, str(exc))
        dead = q.get("dead", "").strip() or None
        shown = q.get("dealer", "").strip() or None
        try:
            cost = solve_cost(0 if shown is None else len(to_ids(shown, what="list")))
        except AsiaPokerError as exc:
            return error(400, f"dealer cards: {exc}")
        if not model_ready(w, r):
            cost += MODEL_BUILD_COST
        client = request.client.host if request.client else "?"
        if running.get(client, 0) >= per_client:
            return error(429, "a solve of yours is still running; wait for it", retry=1)
        if not bucket.take(client, cost):
            return error(429, f"too many requests: at most {rate:g} solves a second (this "
                              f"one costs {cost:g}: a solve with k shown dealer cards costs "
                              f"2^(k-1), one that first builds a way's model "
                              f"{MODEL_BUILD_COST} more)", retry=min(cost, bucket.burst) / rate)
        running[client] = running.get(client, 0) + 1
        try:
            try:
                await asyncio.wait_for(slots.acquire(), timeout=10)
            except asyncio.TimeoutError:
                return error(503, "the server is busy; try again", retry=2)
            try:
                data = await run_in_threadpool(compute, hand, w, r, table, dead, shown)
            except AsiaPokerError as exc:
                return error(400, str(exc))
            finally:
                slots.release()
        finally:
            running[client] -= 1
            if not running[client]:
                del running[client]
        return Response(json.dumps(data), media_type="application/json", headers=headers)

    async def icon(request: Request) -> Response:
        return Response(FAVICON, media_type="image/svg+xml",
                        headers={**headers, "Cache-Control": "max-age=86400"})

    async def http_error(request: Request, exc: Exception) -> Response:
        """Every error Starlette itself answers (404, 405, ...) as JSON with the headers."""
        status = getattr(exc, "status_code", 500)
        if status == 404:
            return error(404, f"no such page {request.url.path!r}")
        if status == 405:
            response = error(405, f"method {request.method} is not allowed here (GET only)")
            response.headers["Allow"] = "GET, HEAD"
            return response
        return error(status, str(getattr(exc, "detail", "error")))

    app = Starlette(routes=[Route("/", index), Route("/api/solve", api_solve),
                            Route("/api/ways", api_ways), Route("/favicon.svg", icon),
                            Route("/favicon.ico", icon)],
                    exception_handlers={HTTPException: http_error})
    app.router.redirect_slashes = False      # no redirect built from the Host header
    return app


FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" '
           'height="16" rx="3" fill="#14532d"/><text x="8" y="12.5" font-size="12" '
           'text-anchor="middle" fill="#fff">&#9824;</text></svg>')
"""The page's icon: a spade."""


def _number(text: str) -> float | str:
    """``pays`` from a query: the number it reads as, else the text itself, for
    :class:`asiapoker.Rules` to reject in its own words."""
    try:
        return float(text)
    except ValueError:
        return text


SECURITY_HEADERS = {"Content-Security-Policy": "default-src 'self'; style-src 'self' "
                    "'unsafe-inline'; script-src 'self' 'unsafe-inline'; img-src 'self' data:",
                    "X-Content-Type-Options": "nosniff"}
"""The headers every answer carries."""

REQUEST_TIMEOUT = 10.0
"""Seconds a connection may take from opening (or its last answer) to a whole request head."""


def _protocol() -> Any:
    """uvicorn's HTTP protocol with a deadline for each request head: a connection that opens
    and sends nothing (or a head a byte at a time) is closed after :data:`REQUEST_TIMEOUT`
    seconds, so idle sockets cannot pile up; the work, not the sockets, is what is limited."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(REQUEST_TIMEOUT, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if not self.transport.is_closing() and (self.cycle is None
                                                    or self.cycle.response_complete):
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            cycle = self.cycle
            super().data_received(data)
            if self.cycle is not None and self.cycle is not cycle:   # a whole head arrived
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            """A request that is not HTTP: answered in JSON, like the app's own errors."""
            import h11
            body = json.dumps({"error": f"not an HTTP request: {msg}"}).encode()
            head = [(b"content-type", b"application/json"), (b"connection", b"close"),
                    (b"content-length", str(len(body)).encode()),
                    *((k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items())]
            for event in (h11.Response(status_code=400, headers=head, reason=b"Bad Request"),
                          h11.Data(data=body), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
            self.transport.close()

    return Protocol


def _check_address(host: Any, port: Any) -> None:
    if not isinstance(host, str) or not host.strip():
        raise OptionError(f"host must name an address to listen on (127.0.0.1 for this "
                          f"machine only, 0.0.0.0 for every interface), got {host!r}")
    whole_number(port, "port", 0, 65535)


def make_server(app: Any, host: str = "127.0.0.1", port: int = 8000,
                proxy: bool = False) -> Any:
    """The uvicorn server :func:`serve` runs: a deadline on every request head
    (:data:`REQUEST_TIMEOUT`), no limit on sockets (the solves are limited), and proxy headers
    believed only with ``proxy``.

    Parameters
    ----------
    app : ASGI app
        What to serve (:func:`create_app`).
    host : str, default "127.0.0.1"
        The address to listen on.
    port : int, default 8000
        The port (0: any free one).
    proxy : bool, default False
        Believe the X-Forwarded-For a reverse proxy on this machine sends.

    Raises
    ------
    MissingExtraError
        uvicorn (the ``web`` extra) is not installed.
    OptionError
        ``host`` is not a text, or ``port`` is not 0 to 65535.
    """
    _check_address(host, port)
    try:
        import uvicorn
    except ImportError:
        raise MissingExtraError(f"asiapoker serve needs uvicorn (the web extra): "
                                f"{install_hint('web')}") from None
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            http=_protocol(), timeout_keep_alive=5, proxy_headers=proxy,
                            forwarded_allow_ips="127.0.0.1,::1" if proxy else "")
    return uvicorn.Server(config)


def serve(way: WayLike = DEFAULT_WAY, rules: Rules | None = None, host: str = "127.0.0.1",
          port: int = 8000, proxy: bool = False) -> None:
    """Run the calculator with uvicorn until interrupted, printing its address.  With
    ``proxy``, the client address a reverse proxy on this machine sends (X-Forwarded-For) is
    believed, so that the rate limit applies per real client; without it such headers are
    ignored.

    Parameters
    ----------
    way : WayLike, default "standard"
        The page's default house way.
    rules : Rules, optional
        The page's default rule options.
    host : str, default "127.0.0.1"
        The address to listen on.
    port : int, default 8000
        The port (0: any free one).
    proxy : bool, default False
        Believe the client address a reverse proxy on this machine sends.

    Raises
    ------
    MissingExtraError
        The ``web`` extra is not installed.
    OptionError
        ``host`` is not a text, or ``port`` is not 0 to 65535.
    """
    _check_address(host, port)
    app = create_app(way, rules)
    server = make_server(app, host, port, proxy)
    try:                                   # a clear error before uvicorn logs and exits
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise OptionError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    shown = f"[{host}]" if ":" in host else host
    print(f"asiapoker calculator on http://{shown}:{port}/ (Ctrl-C stops it)", flush=True)
    server.run()
