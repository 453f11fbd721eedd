"""The browser calculator: the JSON API through Starlette's test client, and the page in a real
headless Chromium (Debian's chromium and chromedriver, driven by Selenium).  The browser tests
never skip: the README's test command installs the browser (tools/install-chromium.sh)."""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import pytest
from starlette.testclient import TestClient

from asiapoker import HouseWay, Rules, bonus_hand, house_way, solve
from asiapoker.cli import main
from asiapoker.web import create_app, make_server

HAND = "As Kd 7h 7c Jk 2s 9d"
DOCS = Path(__file__).resolve().parents[1] / "docs"


def screenshot(browser, name: str, tmp_path: Path) -> None:
    """Save the page as ``name``: into docs/ with ASIAPOKER_REFRESH_DOCS=1 (the README's
    images), else into ``tmp_path``, so that a test run leaves the tree as it was."""
    target = (DOCS if os.environ.get("ASIAPOKER_REFRESH_DOCS") == "1" else tmp_path) / name
    assert browser.save_screenshot(str(target))
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


ROOMY = {"rate": 1e6, "burst": 10**6}
"""Rate limits no request here meets: the tests that are about limits make their own app, and
the others must not depend on timing or on which models earlier tests in the process built (a
model build is charged a whole default burst, so two requests close together may be refused)."""


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(**ROOMY)) as c:
        yield c


def cli_json(args, capsys):
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("way,a234,pays", [("standard", "high", 1.0),
                                           ("classic", "low", 0.95 + 0.05)])
def test_solve_endpoint_is_the_cli_json(client, capsys, way, a234, pays):
    r = client.get("/api/solve", params={"hand": HAND, "way": way, "a234": a234,
                                         "pays": pays, "table": "B"})
    assert r.status_code == 200
    data = r.json()
    want = cli_json(["solve", HAND, "--way", way, "--a234", a234, "--pays", str(pays)], capsys)
    extra = {k: data.pop(k) for k in ("explain", "bonus")}
    assert data == want
    setting, why = HouseWay.named(way).explain(HAND, Rules(a234=a234))
    assert extra["explain"] == {"setting": str(setting), "reason": why}
    cat = bonus_hand(HAND, "B")
    assert extra["bonus"]["category"] == cat and extra["bonus"]["table"] == "B"


@pytest.mark.parametrize("query,status,message", [
    ({"hand": "As As Kd 7h 7c 2s 9d"}, 400, "duplicate card: As"),
    ({"hand": "Jk Joker Kd 7h 7c 2s 9d"}, 400, "a second joker"),
    ({"hand": "As Ks Kd 7h 7c 2s 9d 3c"}, 400, "a seven-card hand needs 7 cards, got 8"),
    ({"hand": "As Kd 7h 7c Jk 2s 1d"}, 400, "1d"),
    ({"hand": HAND, "way": "my-casino"}, 400, "unknown house way 'my-casino'"),
    ({"hand": HAND, "way": "/etc/passwd"}, 400, "unknown house way '/etc/passwd'"),
    ({"hand": HAND, "a234": "middle"}, 400, "a234 must be 'high' or 'low'"),
    ({"hand": HAND, "pays": "lots"}, 400, "pays must be a number"),
    ({"hand": HAND, "pays": "0.5"}, 400, "pays must be a number from 1 to 1000"),
    ({"hand": HAND, "table": "Z"}, 400, "unknown pay table 'Z'"),
    ({"hand": HAND, "seat": "3"}, 400, "unknown parameter 'seat'"),
    ({"hand": HAND, "dead": "Kd"}, 400, "dead card Kd is in the hand"),
    ({"hand": HAND, "dead": "Qc", "dealer": "Qc"}, 400, "card Qc is both dead and the dealer's"),
    ({"hand": HAND, "dealer": "Qx"}, 400, "dealer cards: unknown suit in 'Qx'"),
    ({}, 400, "no hand"),
    ({"hand": "As " * 400}, 414, "longer than 1024"),
])
def test_bad_input_is_a_4xx_with_one_line(client, query, status, message):
    r = client.get("/api/solve", params=query)
    assert r.status_code == status
    err = r.json()["error"]
    assert message in err and "\n" not in err
    assert client.get("/api/solve", params={"hand": HAND}).status_code == 200   # still up


def test_known_cards_are_the_cli_json(client, capsys):
    r = client.get("/api/solve", params={"hand": HAND, "dead": "Ks Qh", "dealer": "Ad"})
    assert r.status_code == 200
    data = r.json()
    want = cli_json(["solve", HAND, "--dead", "Ks Qh", "--dealer", "Ad"], capsys)
    assert {k: v for k, v in data.items() if k not in ("explain", "bonus")} == want
    assert (data["dead"], data["dealer"], data["total"]) == (["Ks", "Qh"], ["Ad"],
                                                              math.comb(43, 6))


def test_same_line_as_the_cli(client, capsys):
    bad = "As As Kd 7h 7c 2s 9d"
    assert main(["solve", bad]) == 2
    line = capsys.readouterr().err.strip().removeprefix("asiapoker: error: ")
    assert client.get("/api/solve", params={"hand": bad}).json()["error"] == line


def test_rate_limit_and_unknown_pages():
    with TestClient(create_app(rate=1, burst=2)) as c:
        codes = [c.get("/api/solve", params={"hand": HAND}).status_code for _ in range(4)]
        assert codes[:2] == [200, 200] and codes[-1] == 429
        assert "too many requests" in c.get("/api/solve", params={"hand": HAND}).json()["error"]
        r = c.get("/nothing-here")
        assert r.status_code == 404 and "no such page" in r.json()["error"]


def test_ways_endpoint_and_page(client):
    w = client.get("/api/ways").json()
    assert w["default"] == "standard"
    assert [x["name"] for x in w["ways"]][:3] == ["standard", "equilibrium", "classic"]
    page = client.get("/")
    assert page.status_code == 200 and "Asia Poker hand calculator" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]


def test_serve_refuses_a_busy_port(capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in err


# ---------------------------------------------------------------------------------------------
# a real browser
# ---------------------------------------------------------------------------------------------

@contextlib.contextmanager
def running(app):
    """A real server on a free loopback port, as asiapoker serve runs it; yields its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = make_server(app, "127.0.0.1", port)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def server():
    with running(create_app(**ROOMY)) as url:
        yield url


def get(url, headers=None):
    """(status, headers, JSON body) of a GET, errors included."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, e.headers, json.loads(e.read())


def test_idle_connections_cannot_lock_clients_out(server):
    url = server + "/api/solve?" + urlencode({"hand": HAND})
    assert get(url)[0] == 200                          # the model is built
    port = int(server.rsplit(":", 1)[1])
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(100)]
    try:
        t = time.monotonic()
        status, _, data = get(url)
        assert status == 200 and data["total"] == 53_524_680
        assert time.monotonic() - t < 1
    finally:
        for s in idle:
            s.close()


def test_a_connection_that_sends_no_request_is_closed(monkeypatch):
    import asiapoker.web as web
    monkeypatch.setattr(web, "REQUEST_TIMEOUT", 0.5)
    with running(create_app(**ROOMY)) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"GET /api/ways HTTP/1.1\r\nHost: x\r\n")   # a head that never ends
            s.settimeout(5)
            t = time.monotonic()
            assert s.recv(100) == b""                  # closed by the server
            assert time.monotonic() - t < 3


def test_forwarded_for_is_not_believed_without_proxy():
    with running(create_app(rate=0.01, burst=2)) as url:
        q = url + "/api/solve?" + urlencode({"hand": HAND})
        codes = [get(q, {"X-Forwarded-For": f"10.0.0.{i}"})[0] for i in range(4)]
        assert codes[:2] == [200, 200] and codes[2:] == [429, 429]
        status, headers, body = get(q, {"X-Forwarded-For": "10.9.9.9"})
        assert status == 429 and int(headers["Retry-After"]) >= 1
        assert "too many requests" in body["error"]


@pytest.mark.parametrize("path,status,message", [
    ("/api/solve/?hand=x", 404, "no such page '/api/solve/'"),
    ("/api/solve?" + urlencode({"hand": HAND, "pays": ""}), 400,
     "pays must be a number from 1 to 1000 (to 1), got ''"),
    ("/api/solve?" + urlencode({"hand": HAND, "pays": "4e300"}), 400,
     "pays must be a number from 1 to 1000 (to 1), got 4e+300"),
    ("/api/solve?" + urlencode({"hand": HAND, "pays": "nan"}), 400,
     "pays must be a number from 1 to 1000 (to 1), got nan"),
    ("/api/solve?" + urlencode({"hand": HAND, "a234": "foo"}), 400,
     "a234 must be 'high' or 'low', got 'foo'"),
])
def test_edges_of_the_api(client, path, status, message):
    r = client.get(path, follow_redirects=False)
    assert r.status_code == status and r.json() == {"error": message}
    assert "location" not in r.headers


def test_the_icon(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in r.text


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    chrome, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chrome and driver, ("the browser tests need Debian's chromium and chromium-driver: "
                               "sh tools/install-chromium.sh")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,1500",
                "--disable-dev-shm-usage"):
        opts.add_argument(arg)
    d = webdriver.Chrome(service=Service(driver), options=opts)
    d.set_page_load_timeout(30)
    yield d
    d.quit()


def wait_for(browser, fn, timeout=20):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(browser, timeout).until(lambda d: fn(d))


def best_on_page(browser):
    from selenium.webdriver.common.by import By
    return wait_for(browser, lambda d: d.find_elements(By.ID, "best-setting")
                    and d.find_element(By.ID, "best-setting").get_attribute("data-setting"))


def test_pick_cards_by_clicking(browser, server, tmp_path):
    from selenium.webdriver.common.by import By
    browser.get(server + "/")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#way option"))
    for code in HAND.split():
        browser.find_element(By.CSS_SELECTOR, f'#deck button[data-card="{code}"]').click()
    best = best_on_page(browser)
    assert best == str(solve(HAND).best.setting)
    pressed = browser.find_elements(By.CSS_SELECTOR, '#deck button[aria-pressed="true"]')
    assert sorted(b.get_attribute("data-card") for b in pressed) == sorted(HAND.split())
    rows = browser.find_elements(By.CSS_SELECTOR, "#rows tr")
    assert len(rows) == sum(r.legal for r in solve(HAND).settings)
    assert "best" in rows[0].get_attribute("class")
    assert "standard" in browser.find_element(By.ID, "context-line").text
    assert "hand=" in browser.current_url and "way=standard" in browser.current_url
    screenshot(browser, "serve.png", tmp_path)


def test_change_the_house_way(browser, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    browser.get(server + "/?" + urlencode({"hand": HAND}))
    best_on_page(browser)
    Select(browser.find_element(By.ID, "way")).select_by_value("classic")
    wait_for(browser, lambda d: "House way classic" in d.find_element(By.ID, "context-line").text)
    hw = browser.find_element(By.ID, "hw-setting").get_attribute("data-setting")
    assert sorted(hw.split()) == sorted(str(house_way(HAND, "classic")).split())
    assert hw == solve(HAND, "classic").house_way_result.setting.__str__()
    assert "way=classic" in browser.current_url


def test_bad_hand_shows_the_message(browser, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    browser.get(server + "/")
    box = wait_for(browser, lambda d: d.find_element(By.ID, "hand"))
    box.clear()
    box.send_keys("As As Kd 7h 7c 2s 9d", Keys.ENTER)
    msg = wait_for(browser, lambda d: d.find_element(By.ID, "error").text)
    assert msg == "duplicate card: As"
    assert not browser.find_element(By.ID, "result").is_displayed()


def test_follow_a_shared_url(browser, server):
    q = {"hand": "Ah Kh Qh Jh 9c 9d 2s", "way": "equilibrium", "a234": "low", "pays": "1"}
    browser.get(server + "/?" + urlencode(q))
    best = best_on_page(browser)
    assert best == str(solve(q["hand"], "equilibrium", Rules(a234="low")).best.setting)
    from selenium.webdriver.common.by import By
    assert browser.find_element(By.ID, "way").get_attribute("value") == "equilibrium"
    assert "A-2-3-4 low" in browser.find_element(By.ID, "context-line").text


def test_known_cards_on_the_page(browser, server, tmp_path):
    """The URL carries the known cards into their fields; a change re-solves and updates it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    q = {"hand": HAND, "dead": "Ks Qh", "dealer": "Ad"}
    browser.get(server + "/?" + urlencode(q))
    best = best_on_page(browser)
    assert best == str(solve(HAND, dead="Ks Qh", dealer="Ad").best.setting)
    assert browser.find_element(By.ID, "dead").get_attribute("value") == "Ks Qh"
    line = browser.find_element(By.ID, "context-line").text
    assert "cards seen elsewhere Ks Qh; the dealer shows Ad" in line
    assert f"{math.comb(43, 6):,} dealer hands" in line
    box = browser.find_element(By.ID, "dealer")
    box.clear()
    box.send_keys("Kh", Keys.ENTER)
    wait_for(browser, lambda d: "the dealer shows Kh" in d.find_element(By.ID, "context-line").text)
    assert "dealer=Kh" in browser.current_url and "dead=Ks" in browser.current_url
    screenshot(browser, "serve-known.png", tmp_path)
    box = browser.find_element(By.ID, "dead")
    box.clear()
    box.send_keys("Kd", Keys.ENTER)
    msg = wait_for(browser, lambda d: d.find_element(By.ID, "error").text)
    assert msg == "dead card Kd is in the hand"


def test_keyboard_selection(browser, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    browser.get(server + "/")
    first = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#deck button"))
    first.send_keys(Keys.ENTER)                       # As
    active = browser.switch_to.active_element
    active.send_keys(Keys.ARROW_RIGHT)                # to Ks
    browser.switch_to.active_element.send_keys(Keys.SPACE)
    pressed = browser.find_elements(By.CSS_SELECTOR, '#deck button[aria-pressed="true"]')
    assert [b.get_attribute("aria-label") for b in pressed] == ["Ace of spades",
                                                                 "King of spades"]
    assert browser.find_element(By.ID, "hand").get_attribute("value") == "As Ks"


def test_page_edges(browser, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    browser.get(server + "/?" + urlencode({"hand": HAND, "a234": "foo"}))
    msg = wait_for(browser, lambda d: d.find_element(By.ID, "error").text)
    assert msg == "a234 must be 'high' or 'low', got 'foo'"
    browser.get(server + "/")
    wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#way option"))
    stops = browser.find_elements(By.CSS_SELECTOR, "#deck button[tabindex='0']")
    assert len(stops) == 1                              # the deck is one tab stop
    box = browser.find_element(By.ID, "hand")
    box.send_keys(HAND, Keys.ENTER)
    wait_for(browser, lambda d: d.find_element(By.ID, "result").is_displayed())
    assert "→" in browser.find_element(By.ID, "explain-line").text
    assert "hand=" in browser.current_url
    box.clear()
    box.send_keys("As As Kd 7h 7c 2s 9d", Keys.ENTER)
    wait_for(browser, lambda d: d.find_element(By.ID, "error").text)
    assert browser.find_elements(By.CSS_SELECTOR, '#deck button[aria-pressed="true"]') == []
    browser.find_element(By.ID, "clear").click()
    assert "hand=" not in browser.current_url


def test_every_error_is_json_with_the_security_headers(client):
    for method in ("post", "put", "delete"):
        r = getattr(client, method)("/api/solve")
        assert r.status_code == 405 and r.headers["content-type"] == "application/json"
        assert r.json() == {"error": f"method {method.upper()} is not allowed here (GET only)"}
        assert r.headers["allow"] == "GET, HEAD"
    for path in ("/nowhere", "/api/solve?hand=x", "/api/solve?" + urlencode({"hand": HAND})):
        r = client.get(path)
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["content-security-policy"].startswith("default-src 'self'")


def test_a_repeated_parameter_is_an_error(client):
    r = client.get("/api/solve?" + urlencode([("hand", HAND), ("dead", "Ks"), ("dead", "Qh")]))
    assert r.status_code == 400
    assert r.json()["error"].startswith("parameter 'dead' given 2 times: give it once")


def test_a_costly_request_is_charged_for_its_passes():
    """Seven shown dealer cards make 2^6 passes: charged so (up to a whole burst), one client
    cannot spend another's share, and a plain solve of a second client still goes through."""
    from asiapoker.web import solve_cost
    assert [solve_cost(k) for k in range(8)] == [1, 1, 2, 4, 8, 16, 32, 64]
    shown = {"hand": HAND, "dealer": "2c 3c 4c 5c 6c 8c 9c"}
    with TestClient(create_app(rate=1, burst=8)) as c:
        first = c.get("/api/solve", params=shown)
        assert first.status_code == 200 and first.json()["total"] == 1
        second = c.get("/api/solve", params=shown)
        assert second.status_code == 429 and "costs 64" in second.json()["error"]
        assert int(second.headers["retry-after"]) >= 8
        # the bucket is empty after the costly one: a plain solve waits too
        assert c.get("/api/solve", params={"hand": HAND}).status_code == 429


def test_serve_refuses_an_empty_host(capsys):
    assert main(["serve", "--host", ""]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "host must name an address" in err


def test_a_model_build_is_charged_and_the_model_is_kept(monkeypatch):
    """A request that needs a way's dealer model first is charged MODEL_BUILD_COST more (up to
    a burst); the model is then kept for the server's life, so switching ways costs nothing."""
    import asiapoker.web as web
    from asiapoker import solver
    cold = {"classic"}
    monkeypatch.setattr(web, "model_ready", lambda w, r: w.name not in cold)
    with TestClient(create_app(rate=1, burst=8)) as c:
        first = c.get("/api/solve", params={"hand": HAND, "way": "classic"})
        assert first.status_code == 200
        cold.clear()
        again = c.get("/api/solve", params={"hand": HAND})
        assert again.status_code == 429 and f"{web.MODEL_BUILD_COST} more" in again.json()[
            "error"]
    key = (HouseWay.named("classic").key, 0)
    assert key in solver._KEPT and key not in solver._MODELS
    solver._MODELS.clear()                               # the recent ones come and go
    assert solver.model_ready(HouseWay.named("classic"), Rules())


def test_a_request_that_is_not_http_gets_json():
    with running(create_app(**ROOMY)) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"\x16\x03\x01 this is not HTTP\r\n\r\n")
            s.settimeout(5)
            reply = b""
            with contextlib.suppress(OSError):
                while chunk := s.recv(65536):
                    reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and b"application/json" in head.lower()
    assert b"x-content-type-options: nosniff" in head.lower()
    assert json.loads(body)["error"].startswith("not an HTTP request")
