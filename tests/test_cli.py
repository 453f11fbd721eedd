"""The command line, through main() and through a real subprocess."""

import json
import subprocess
import sys

import pytest

from asiapoker.cli import main


def run(*argv):
    return main(list(argv))


def test_rank(capsys):
    assert run("rank", "As", "2s", "3s", "Jk") == 0
    assert "Straight flush, A-2-3-4 of spades" in capsys.readouterr().out


def test_rank_json_names_the_rules(capsys):
    assert run("rank", "--json", "--a234", "low", "As 2s 3s 4s") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["category"] == "straight flush" and data["rules"]["a234"] == "low"


def test_splits(capsys):
    assert run("splits", "--json", "As Kd 7h 7c Jk 2s 9d") == 0
    data = json.loads(capsys.readouterr().out)
    assert all(row["legal"] for row in data["splits"]) and 0 < len(data["splits"]) < 105
    assert run("splits", "--all", "As Kd 7h 7c Jk 2s 9d") == 0
    assert "FOUL" in capsys.readouterr().out


def test_settle(capsys):
    assert (
        run(
            "settle", "--player", "As Ks Qs Js | 7h 7d | 2c", "--dealer", "9c 9d 4h 4s | Ad Qc | Kh"
        )
        == 0
    )
    assert "result: win (+1)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["rank", "Xs"], "Xs"),
        (["rank", "As", "As"], "As"),
        (["splits", "As Ks"], "7 cards"),
        (
            ["settle", "--player", "As Ks Qs | 7h 7d | 2c", "--dealer", "9c 9d 4h 4s | Ad Qc | Kh"],
            "high hand",
        ),
        (
            ["settle", "--player", "As Ks Qs Js | 7h 7d | 2c", "--dealer", "9c 9d 4h 4s | Ad Qc"],
            "three hands",
        ),
        (["rank", "--pays", "0.5", "As"], "pays"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, needle):
    assert run(*argv) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


def test_python_dash_m():
    out = subprocess.run(
        [sys.executable, "-m", "asiapoker", "rank", "Jk", "Ah"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Pair of aces" in out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "asiapoker", "rank", "Jk", "JK"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "joker" in bad.stderr


def test_house_way(capsys):
    assert run("house-way", "--explain", "--way", "classic", "Kc Kd Jh Js 7c 7d 2s") == 0
    out = capsys.readouterr().out
    assert "Kd Kc" in out and "three pairs" in out and "classic" in out
    assert run("house-way", "--json", "--way", "high-first", "Kc Kd Jh Js 7c 7d 2s") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["way"] == "high-first" and data["medium"] == "Pair of sevens"


def test_solve(capsys):
    assert run("solve", "As Kd 7h 7c Jk 2s 9d") == 0
    out = capsys.readouterr().out
    assert "53,524,680" in out and "house way standard" in out and "a234=high" in out
    assert run("solve", "--json", "--all", "--a234", "low", "As Kd 7h 7c Jk 2s 9d") == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["settings"]) == 105 and data["rules"]["a234"] == "low"
    assert data["best"]["wins"] == max(r["wins"] for r in data["settings"])
    assert data["house_way_cost"] >= 0


@pytest.mark.parametrize(
    ("argv", "needle"),
    [(["solve", "As Kd 7h 7c Jk 2s"], "7 cards"), (["solve", "--way", "x", "As Kd 7h 7c Jk 2s 9d"],
                                                    "unknown house way"),
     (["house-way", "As Kd 7h 7c Jk 2s 2s"], "duplicate")],
)
def test_solve_and_house_way_bad_input(capsys, argv, needle):
    assert run(*argv) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


def test_bonus(capsys):
    assert run("bonus", "As Ks Qs Js Jk 2d 7h") == 0
    assert "royal flush: pays 200 to 1 (pay table A)" in capsys.readouterr().out
    assert run("bonus", "--json", "--table", "b", "Ks Qs Js Ts 9s 2c 2d") == 0
    assert json.loads(capsys.readouterr().out) == {
        "category": "natural straight flush", "pays": 50, "table": "B"}
    assert run("bonus", "Ks Qd 7s 2s 4s 9h 3c") == 0
    assert "no bonus hand: loses" in capsys.readouterr().out


def test_bonus_odds(capsys):
    assert run("bonus-odds", "--table", "C") == 0
    out = capsys.readouterr().out
    assert "154,143,080" in out and "house edge" in out
    assert run("bonus-odds", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(r["count"] for r in data["rows"]) == data["total"]
    assert run("bonus-odds", "--table", "D") == 2


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["solve"], ["rank", "--a234", "mid", "As"]])
def test_usage_errors_exit_2_with_one_line(capsys, argv):
    assert run(*argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("asiapoker: error:") and err.count("\n") == 1


def test_simulate(capsys):
    assert run("simulate", "--rounds", "5000", "--seed", "1", "--bonus", "a", "--quiet") == 0
    out = capsys.readouterr().out
    assert "30,000 hands" in out and "house edge" in out and "95% CI" in out
    assert "house way standard" in out and "bonus return" in out
    assert run("simulate", "--json", "--rounds", "2000", "--seats", "2", "--seed", "1",
               "--way", "classic") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 4000 and data["way"] == "classic"
    assert run("simulate", "--rounds", "0") == 2
    assert run("simulate", "--seats", "9") == 2


def test_exploitability_and_way_tables(capsys, tmp_path):
    assert run("exploitability", "--way", "classic", "--hands", "40", "--workers", "1") == 0
    out = capsys.readouterr().out
    assert "optimal play gains" in out and "house way classic" in out and "40 random" in out
    assert run("exploitability", "--json", "--hands", "30", "--seed", "2") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["way"] == "standard" and data["hands"] == 30 and data["seed"] == 2
    assert data["gain"]["ci95"][0] <= data["gain"]["mean"] <= data["gain"]["ci95"][1]
    assert run("exploitability", "--hands", "0") == 2
    assert "hands must be 2 to 10000000" in capsys.readouterr().err
    assert run("best-response", "--side", "banker", "--out", str(tmp_path / "x.npz")) == 2
    assert run("solve", "--way", str(tmp_path / "missing.npz"), "As Kd 7h 7c Jk 2s 9d") == 2
    assert "cannot read a house-way table" in capsys.readouterr().err


@pytest.mark.parametrize(("source", "needle"), [
    ("def way(cards:\n", "SyntaxError"),
    ("raise RuntimeError('boom at import')\n", "boom at import"),
    ("def way(cards):\n    return {}['missing']\n", "raised KeyError on"),
])
def test_broken_way_files_give_one_line(tmp_path, capsys, source, needle):
    path = tmp_path / "broken.py"
    path.write_text(source)
    assert run("house-way", "--way", f"{path}:way", "As Kd 7h 7c Jk 2s 9d") == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_way_with_an_empty_module_name(capsys):
    assert run("solve", "--way", ":f", "As Kd 7h 7c Jk 2s 9d") == 2
    err = capsys.readouterr().err
    assert "cannot load house way ':f'" in err and "Traceback" not in err


def test_endless_simulation_stops_promptly_on_interrupt():
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "asiapoker", "simulate", "--rounds",
                             str(10**10), "--quiet", "--way", "classic"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            # the child takes Ctrl-C by default, whatever this process does
                            # with it (a suite started in the background ignores SIGINT)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(4)
        assert proc.poll() is None                      # still dealing, memory flat
        t = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 130 and time.monotonic() - t < 5
        assert err.strip() == "asiapoker: interrupted"
    finally:                                            # never leave it dealing on failure
        proc.kill()
        proc.wait()
