"""The calculator's solve request at the server (Starlette's test client, in process), after
the first request has built the tables: the issue asks for at most 50 ms."""

from starlette.testclient import TestClient

from asiapoker.web import create_app

HAND = "As Kd 7h 7c Jk 2s 9d"


def test_solve_request(benchmark):
    with TestClient(create_app(rate=1e9, burst=10**9)) as client:
        assert client.get("/api/solve", params={"hand": HAND}).status_code == 200   # warm
        r = benchmark(client.get, "/api/solve", params={"hand": HAND, "way": "standard"})
        assert r.status_code == 200
        assert benchmark.stats.stats.median < 0.050
