"""The ``asiapoker`` command line: readable tables for people, ``--json`` for programs.

Bad input exits with status 2 and a one-line message on stderr.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import json
import os
import re
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from . import __version__
from ._files import read_bytes, writable_target
from ._validate import whole_number
from .analysis import Analysis, analyze, way_cost
from .bonus import PayTable, bonus_hand, bonus_odds
from .card_page import plots_missing, write_card
from .card_search import generate
from .equilibrium import Iteration, best_response, equilibrium
from .errors import (
    AsiaPokerError,
    FileError,
    FileWriteError,
    HouseWayError,
    IllegalSettingError,
    MissingExtraError,
    OptionError,
    StrategyError,
    UsageError,
    install_hint,
)
from .house_way import DEFAULT_WAY, STORED_WAYS, HouseWay
from .optimal import make_optimal_table
from .pricing import price
from .rack import RackCard
from .ranks import rank
from .rules import Rules
from .sampling import Estimate, exploitability
from .setting import Setting, is_legal, settle, splits
from .simulation import simulate
from .solver import solve
from .spots import solve_spots
from .strategy import CardStrategy, card_from_json, card_made_for, card_splits, made_for_warning

__all__ = ["main"]


class _Help(argparse.ArgumentDefaultsHelpFormatter):
    """Help that shows every option's default (and nothing for options without one)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default in (None, False, argparse.SUPPRESS) or action.required:
            return action.help
        return super()._get_help_string(action)


class _Once(argparse.Action):
    """An option that may be given once: a second one is an error, not a silent overwrite."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"{option_string} given twice: give it once (several cards in one "
                         f"value, e.g. {option_string} \"Ks Qh\")")
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


WAY_HELP = ("the dealer's house way: a built-in name, FILE.py:FUNCTION (a way you wrote), or "
            "a saved table .npz")


def _attribute(spec: str, what: str, error: type[AsiaPokerError]) -> tuple[str, str, Any]:
    """(where, name, module) of ``path/to/file.py:name`` or ``module:name``; a file that
    cannot be imported is an ``error`` naming it."""
    where, _, attr = spec.rpartition(":")
    try:
        if where.endswith(".py"):
            mod_spec = importlib.util.spec_from_file_location(Path(where).stem, where)
            if mod_spec is None or mod_spec.loader is None or not Path(where).exists():
                raise error(f"no {what.replace(' ', '-')} file {where!r}")
            module = importlib.util.module_from_spec(mod_spec)
            mod_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except AsiaPokerError:
        raise
    except (Exception, SystemExit) as exc:   # a syntax error, any error its import raises, exit
        raise error(f"cannot load {what} {spec!r}: {type(exc).__name__}: {exc}") from None
    return where, attr, module


def _way(spec: str) -> HouseWay:
    """A built-in way by name, or ``path/to/file.py:function`` / ``module:function`` (a
    user-written way, compiled and cached; ``VERSION`` in its module is the cache version)."""
    if spec.endswith(".npz"):
        return HouseWay.load(spec)
    if ":" not in spec:
        return HouseWay.named(spec)
    where, attr, module = _attribute(spec, "house way", HouseWayError)
    fn = getattr(module, attr, None)
    if isinstance(fn, HouseWay):
        return fn
    if not callable(fn):
        raise HouseWayError(f"{where!r} has no house-way function {attr!r}")
    version = str(getattr(module, "VERSION", "1"))
    # the cache entry is the file's, exactly: its path, the function, the version and the
    # whole file's source (helpers included), so two files' functions never share one
    source = getattr(module, "__file__", None)
    text = Path(source).read_bytes() if source and Path(source).is_file() else b""
    key = (f"{Path(source).resolve() if source else where}:{attr}:{version}:"
           f"{hashlib.sha256(text).hexdigest()}")
    return HouseWay.from_function(fn, name=attr.replace("_", "-"), version=version,
                                  cache_key=key, progress=True)


def _out_dir(path: str | None, what: str) -> None:
    """A directory the command will write to, checked before any long work: it is one, or
    can be made."""
    if path is None:
        return
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise FileWriteError(f"{what} {path!r} is a file, not a directory")
    up = p
    while not up.exists():
        up = up.parent
    if not up.is_dir() or not os.access(up, os.W_OK | os.X_OK):
        raise FileWriteError(f"{what} {path!r} cannot be made: {str(up)!r} is not a writable "
                             f"directory")


def _out_file(path: str | None, what: str, make_parent: bool = False) -> None:
    """A file the command will write, checked before any long work: its folder is a
    writable directory (or, with ``make_parent``, can be made)."""
    if path is None:
        return
    p = Path(path)
    if p.is_dir():
        raise FileWriteError(f"{what} {path!r} is a directory, not a file")
    if not make_parent and not p.parent.is_dir():
        why = "is not a directory" if p.parent.exists() else "does not exist"
        raise FileWriteError(f"{what} {path!r} cannot be written: its folder "
                             f"{str(p.parent)!r} {why}")
    _out_dir(str(p.parent), f"the folder of {what}")
    try:
        writable_target(path)                    # a pipe or a socket: refused now, not after
    except FileError as exc:
        raise FileError(f"{what}: {exc}") from None


def _rules(args: argparse.Namespace) -> Rules:
    return Rules(a234=getattr(args, "a234", "high"), pays=getattr(args, "pays", 1.0))


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    print(json.dumps(data, indent=2, allow_nan=False) if args.json else text)


def cmd_rank(args: argparse.Namespace) -> None:
    """``asiapoker rank``: rank a 1-, 2- or 4-card hand."""
    rules = _rules(args)
    r = rank(" ".join(args.cards), rules)
    _emit(
        args,
        {
            "cards": [str(c) for c in r.cards],
            "category": r.category,
            "strength": int(r),
            "description": str(r),
            "rules": rules.to_dict(),
        },
        f"{' '.join(map(str, r.cards))}: {r}  ({r.category}, strength {int(r)})",
    )


def cmd_splits(args: argparse.Namespace) -> None:
    """``asiapoker splits``: the legal settings of seven cards."""
    rules = _rules(args)
    rows = []
    for k, s in enumerate(splits(" ".join(args.cards))):
        legal = is_legal(s, rules)
        if legal or args.all:
            h, m, lo = s.ranks(rules)
            rows.append(
                {
                    "index": k,
                    "setting": str(s),
                    "legal": legal,
                    "high": str(h),
                    "medium": str(m),
                    "low": str(lo),
                }
            )
    if args.json:
        _emit(args, {"rules": {"a234": rules.a234}, "splits": rows}, "")
        return
    print(f"{len(rows)} {'splits' if args.all else 'legal settings'} (a234={rules.a234})")
    width = max((len(str(r["setting"])) for r in rows), default=0)
    for r in rows:
        flag = "" if r["legal"] else "  FOUL"
        print(
            f"{r['index']:>3}  {r['setting']:<{width}}  {r['high']} | {r['medium']} | "
            f"{r['low']}{flag}"
        )


def cmd_settle(args: argparse.Namespace) -> None:
    """``asiapoker settle``: settle a player against the dealer."""
    rules = _rules(args)
    player, dealer = Setting.parse(args.player), Setting.parse(args.dealer)
    out = settle(player, dealer, rules)
    data = {
        "player": str(player),
        "dealer": str(dealer),
        "result": out.result,
        "hands": dict(zip(("high", "medium", "low"), out.hands, strict=False)),
        "payout": out.payout,
        "rules": rules.to_dict(),
    }
    lines = [
        f"{name:<7} {' '.join(map(str, p)):<12} {pr!s:<34} {' '.join(map(str, d)):<12} "
        f"{dr!s:<34} {res}"
        for name, p, pr, d, dr, res in zip(
            ("high", "medium", "low"),
            (player.high, player.medium, player.low),
            player.ranks(rules),
            (dealer.high, dealer.medium, dealer.low),
            dealer.ranks(rules),
            out.hands,
            strict=False,
        )
    ]
    why = ""
    if out.result == "foul":
        h, m, lo = player.ranks(rules)
        why = (f": the high hand ({h}) must beat the medium hand ({m})" if not h > m else
               f": the medium hand ({m}) must beat the low hand ({lo})")
        data["foul"] = why[2:]
    lines.append(f"result: {out.result} ({out.payout:+g}){why} [{rules.describe()}]")
    _emit(args, data, "\n".join(lines))


def cmd_house_way(args: argparse.Namespace) -> None:
    """``asiapoker house-way``: the dealer's setting."""
    rules = _rules(args)
    way = _way(args.way)
    setting, reason = way.explain(" ".join(args.cards), rules)
    h, m, lo = setting.ranks(rules)
    data = {"setting": str(setting), "high": str(h), "medium": str(m), "low": str(lo),
            "way": way.name, "rules": rules.to_dict()}
    text = f"{setting}   [{h} | {m} | {lo}]  (house way {way.name}; {rules.describe()})"
    if args.explain:
        data["reason"] = reason
        text += f"\n{reason}"
    _emit(args, data, text)


def cmd_solve(args: argparse.Namespace) -> None:
    """``asiapoker solve``: exact EV of every setting."""
    rules = _rules(args)
    sol = solve(" ".join(args.cards), _way(args.way), rules, dead=args.dead,
                dealer=args.dealer)
    rows = [r for r in sol.settings if r.legal or args.all]
    if args.json:
        _emit(args, sol.to_dict(all_settings=args.all), "")
        return
    if args.top is not None:
        whole_number(args.top, "--top")
        rows = rows[:args.top] + [r for r in rows[args.top:] if r is sol.house_way_result]
    print(f"{' '.join(map(str, sol.cards))}: exact over {sol.total:,} dealer hands "
          f"({sol.describe()})")
    print(f"{'':2} {'high | medium | low':<24} {'hands':<58} {'P(win)':>8} "
          f"{'EV per unit':>11}")
    for r in rows:
        mark = ("*" if r is sol.best else " ") + ("H" if r is sol.house_way_result else " ")
        h, m, lo = r.setting.ranks(rules)
        hands = f"{h} | {m} | {lo}"
        print(f"{mark} {r.setting!s:<24} {hands:<58} {r.p_win:8.4f} {r.ev:+11.4f}")
    print(f"* best: {sol.best.setting} (EV {sol.ev:+.6f}); H house way: "
          f"{sol.house_way_setting} (EV {sol.house_way_ev:+.6f}); the house way costs "
          f"{sol.house_way_cost:.6f} per unit")


def cmd_spots(args: argparse.Namespace) -> None:
    """``asiapoker spots``: one player's spots, each set seeing every hand."""
    rules = _rules(args)
    sol = solve_spots(args.hands, _way(args.way), rules, dead=args.dead, dealer=args.dealer)
    if args.json:
        _emit(args, sol.to_dict(), "")
        return
    print(f"{len(sol.spots)} spots, exact over the {sol.total:,} dealer hands left "
          f"({sol.describe()})")
    for i, (s, a) in enumerate(zip(sol.spots, sol.alone, strict=True)):
        print(f"spot {i + 1}: {' '.join(map(str, s.cards))}")
        print(f"  seeing every spot: {s.best.setting!s:<24} EV {s.ev:+.6f}")
        print(f"  as if alone:       {a.setting!s:<24} EV {a.ev:+.6f}")
    print(f"EV {sol.ev:+.6f} per round (one unit a spot); setting each alone "
          f"{sol.ev_alone:+.6f}; seeing the other spots is worth {sol.value:+.6f}")


def cmd_bonus(args: argparse.Namespace) -> None:
    """``asiapoker bonus``: the bonus hand of seven cards."""
    table = PayTable.named(args.table)
    cat = bonus_hand(" ".join(args.cards), table)
    pays = table.pay(cat)
    _emit(args, {"category": cat, "pays": pays, "table": table.name},
          f"{cat or 'no bonus hand'}: {'pays ' + str(pays) + ' to 1' if pays > 0 else 'loses'}"
          f" (pay table {table.name})")


def cmd_bonus_odds(args: argparse.Namespace) -> None:
    """``asiapoker bonus-odds``: exact odds and house edge of the bonus wager."""
    odds = bonus_odds(args.table)
    rows = [{"category": r.category, "count": r.count, "probability": r.probability,
             "pays": r.pays, "return": r.return_} for r in odds.rows]
    if args.json:
        _emit(args, {"table": odds.table, "total": odds.total, "rows": rows, "ev": odds.ev,
                     "house_edge": odds.house_edge}, "")
        return
    print(f"bonus wager, pay table {odds.table}: exact over all {odds.total:,} seven-card hands")
    print(f"{'hand':<28} {'count':>12} {'probability':>12} {'pays':>6} {'return':>10}")
    for r in odds.rows:
        print(f"{r.category or 'loses':<28} {r.count:>12,} {r.probability:>12.8f} "
              f"{r.pays:>6} {r.return_:>+10.6f}")
    print(f"{'total':<28} {odds.total:>12,} {1:>12.8f} {'':>6} {odds.ev:>+10.6f}")
    print(f"house edge {odds.house_edge:.4%}")


def cmd_simulate(args: argparse.Namespace) -> None:
    """``asiapoker simulate``: simulate rounds at a full table."""
    rules = _rules(args)
    table = {None: None, "none": False}.get(args.optimal_table, args.optimal_table)
    if table is not None and args.player != "optimal":
        raise UsageError("--optimal-table is for --player optimal")
    sim = simulate(args.rounds, seats=args.seats, way=_way(args.way), player=args.player,
                   bonus_table=args.bonus, seed=args.seed, workers=args.workers, rules=rules,
                   progress=not args.quiet, two_spots=args.two_spots, optimal_table=table)
    if args.json:
        _emit(args, sim.to_dict(), "")
        return
    lo, hi = sim.confidence_interval
    print(f"{sim.rounds:,} rounds x {sim.seats} seats = {sim.hands:,} hands ({sim.describe()}; "
          f"seed {sim.seed})")
    for seat in range(sim.seats):
        print(f"seat {seat + 1}: won {sim.wins[seat]:,}, lost {sim.losses[seat]:,}")
    pooled = sim.pooled
    print(f"all seats: won {pooled['wins']:,}, lost {pooled['losses']:,}, fouled "
          f"{pooled['fouls']:,}")
    print(f"house edge {sim.house_edge:.4%} (95% CI {lo:.4%} to {hi:.4%})")
    if sim.dealt_ev is not None:
        print(f"exact mean ev of the hands dealt {sim.dealt_ev:+.4%} (the sample's result "
              f"{-sim.house_edge:+.4%})")
    if sim.bonus_table:
        for name, count in sim.bonus_counts.items():
            print(f"  bonus {name:<28} {count:>12,} {count / sim.hands:>10.6f}")
        print(f"bonus return {sim.bonus_ev:+.4%} per unit (pay table {sim.bonus_table})")
    print(f"{sim.rounds_per_s:,.0f} rounds/s, {sim.rounds_per_s * sim.seats:,.0f} hands/s")


def cmd_exploitability(args: argparse.Namespace) -> None:
    """``asiapoker exploitability``: what optimal play gains against a way, and its house edges."""
    rules = _rules(args)
    way = _way(args.way)
    e = exploitability(way, rules, hands=args.hands, seed=args.seed, workers=args.workers)
    if args.json:
        def est(x: Estimate) -> dict[str, Any]:
            return {"mean": x.mean, "exact": str(x.exact), "se": x.se, "ci95": list(x.ci95)}
        _emit(args, {"way": e.way, "rules": rules.to_dict(), "hands": e.hands, "seed": e.seed,
                     "gain": est(e.gain), "house_edge_house_way": est(e.house_edge_house_way),
                     "house_edge_optimal": est(e.house_edge_optimal)}, "")
        return
    print(e)


def cmd_best_response(args: argparse.Namespace) -> None:
    """``asiapoker best-response``: the best response to a way, as a way (a table .npz)."""
    rules = _rules(args)
    _out_file(args.out, "--out")
    way = best_response(_way(args.way), rules, side=args.side, workers=args.workers,
                        progress=not args.quiet)
    digest = way.save(args.out)
    print(f"{way.description}\nwritten to {args.out}; sha256 {digest}")


def cmd_optimal_table(args: argparse.Namespace) -> None:
    """``asiapoker optimal-table``: the optimal-play table of a whole-game run."""
    _out_file(args.out, "--out")
    table = make_optimal_table(args.run, way=None if args.way is None else _way(args.way),
                               wins=args.wins)
    digest = table.save(args.out)
    size = Path(args.out).stat().st_size
    if args.json:
        _emit(args, {"table": args.out, "way": table.way, "way_digest": table.way_digest,
                     "a234": table.a234, "classes": table.classes,
                     "tied_classes": len(table.tie_class), "wins": table.wins is not None,
                     "bytes": size, "sha256": digest}, "")
        return
    print(f"{table.describe()}; {len(table.tie_class):,} classes with best settings of "
          f"unequal strengths\nwritten to {args.out} ({size:,} bytes); sha256 {digest}")


def cmd_equilibrium(args: argparse.Namespace) -> None:
    """``asiapoker equilibrium``: iterate the dealer's best response to a fixed point."""
    rules = _rules(args)
    _out_file(args.out, "--out")
    if args.log:
        _out_file(args.log, "--log")
    log: list[dict[str, Any]] = []

    def report(i: int, step: Iteration) -> None:
        line = (f"iteration {i}: {step.changed_hands:,} hands ({step.changed:.4%}) set "
                "differently" if i else f"start: {step.way.name}")
        entry: dict[str, Any] = {"iteration": i, "changed_hands": step.changed_hands,
                                 "digest": step.digest}
        if step.cost is not None:
            line += f"; cost {float(step.cost):.4%} exactly"
            entry["cost"] = str(step.cost)
        if args.hands:
            e = exploitability(step.way, rules, hands=args.hands, seed=args.seed,
                               workers=args.workers)
            line += f"; exploitability {e.gain} (an estimate from {args.hands:,} hands)"
        print(f"{line}; way digest {step.digest[:16]}", flush=True)
        if args.log:
            log.append(entry)
            Path(args.log).write_text(json.dumps(
                {"start": args.start, "margin": args.margin, "rules": rules.to_dict(),
                 "steps": log}, indent=1) + "\n")

    res = equilibrium(_way(args.start), rules, max_iterations=args.max_iterations,
                      margin=args.margin, workers=args.workers, progress=not args.quiet,
                      cost=(lambda way: way_cost(way, rules, workers=args.workers,
                                                 progress=not args.quiet))
                      if args.exact else None, report=report)
    status = ("converged: the last way is the dealer's best response to itself"
              + (f" (changing a class only to gain more than {args.margin} hands)"
                 if args.margin else "")
              if res.converged else
              f"cycle: iteration {len(res.iterations) - 1} repeats iteration {res.cycle}"
              if res.cycle is not None else
              f"not converged after {args.max_iterations} iterations")
    last = res.last
    assert last.table is not None
    way = HouseWay.from_table(last.table, "equilibrium", f"{STORED_WAYS['equilibrium']}: {status}")
    digest = way.save(args.out)
    if res.converged:               # its own best response: the way is all a test needs
        print(f"{status}\nwritten to {args.out}; sha256 {digest}")
        return
    # the iterate before the last, whose best response the last one is (tests recompute it)
    source = Path(args.out).with_name(Path(args.out).stem + "-source.npz")
    prev = res.iterations[-2].way
    if prev.table is not None:
        HouseWay.from_table(prev.table, "equilibrium-source",
                            f"the iterate before the equilibrium way ({status})").save(source)
    print(f"{status}\nwritten to {args.out} (and its source to {source}); sha256 {digest}")


def cmd_game_value(args: argparse.Namespace) -> None:
    """``asiapoker game-value``: the bounds on the value of the game (shipped, or made)."""
    from .analysis import exact_house_edges
    from .game_value import double_oracle, load_game_value, save_game_value
    rules = _rules(args)
    if bool(args.solve) != bool(args.out):
        raise UsageError("--solve DIR and --out FILE go together: the run, and the file of "
                         "its best bounds")
    if args.solve:
        _out_dir(args.solve, "--solve")
        _out_file(args.out, "--out")
        double_oracle(args.solve, rules=rules, steps=args.steps, workers=args.workers,
                      quiet=args.quiet)
        sha = save_game_value(args.solve, args.out, args.workers)
        print(f"written to {args.out}; sha256 {sha}")
    gv = load_game_value(args.out or args.file)
    if gv.rules.to_dict() != rules.to_dict() and not args.solve:
        raise OptionError(f"the game value on file is for {gv.rules.describe()}, not "
                          f"{rules.describe()}: make it with --solve DIR")
    ways = {}
    for name in ("standard", "equilibrium", "classic", "medium-first", "high-first"):
        he = exact_house_edges(name)["optimal"]
        ways[name] = (he, gv.below_value(he))
    if args.json:
        _emit(args, {
            "rules": gv.rules.to_dict(), "lower": str(gv.lower), "upper": str(gv.upper),
            "gap": str(gv.gap), "lower_float": float(gv.lower), "upper_float": float(gv.upper),
            "gap_float": float(gv.gap), "sha256": gv.sha256,
            "steps": [b.to_dict() for b in gv.steps],
            "dealer_mix": [{"way": w.name, "weight": k} for w, k in gv.dealer_mix],
            "player_mix": [{"way": w.name, "weight": k} for w, k in gv.player_mix],
            "ways": {n: {"optimal": str(he), "below_value": [str(lo), str(hi)]}
                     for n, (he, (lo, hi)) in ways.items()}}, "")
        return
    print(f"The value of the game ({gv.rules.describe()}): the highest house edge a dealer "
          f"strategy holds against a player who sets every hand optimally")
    print(f"  lower bound  {float(gv.lower):.6%}  (exact: {gv.lower})")
    print(f"               step {gv.lower_step}: {gv.mix_text('dealer')} "
          f"against the player's exact best response")
    print(f"  upper bound  {float(gv.upper):.6%}  (exact: {gv.upper})")
    print(f"               step {gv.upper_step}: the dealer's exact best response to "
          f"{gv.mix_text('player')}")
    print(f"  gap          {float(gv.gap):.6%} of a wager, after {len(gv.steps)} "
          f"double-oracle steps")
    print("step      lower      upper        gap")
    for b in gv.steps:
        print(f"{b.step:4d}  {float(b.lower):9.5%}  {float(b.upper):9.5%}  {float(b.gap):9.5%}")
    print("house way      against perfect play   below the value by")
    for n, (he, (lo, hi)) in ways.items():
        print(f"{n:14s} {float(he):10.4%}             {float(lo):.4%} to {float(hi):.4%}")
    print(f"(file sha256 {gv.sha256[:16]}...)")


def _player(spec: str) -> Any:
    """--player: optimal, house-way, a way's name or .npz, or FILE.py:FUNC / module:FUNC (a
    HouseWay object or a batch strategy: n x 7 hands -> n split indices)."""
    if spec in ("optimal", "house-way"):
        return spec
    if spec.endswith(".json"):
        return _load_card(spec)            # a strategy card: played against the run's way
    if ":" not in spec or spec.endswith(".npz"):
        return _way(spec)
    where, attr, module = _attribute(spec, "strategy", StrategyError)
    fn = getattr(module, attr, None)
    if not callable(fn) and not isinstance(fn, HouseWay):
        raise StrategyError(f"{where!r} has no strategy {attr!r}")
    return fn


def _print_analysis(a: Analysis) -> None:
    print(a.table())
    print(f"({a.describe()}; player {a.player})")
    if a.sample is None and a.complete:
        print(f"house edge, player sets optimally:  {float(a.figures['optimal'].house_edge):+.6%}"
              f"  (exact: {a.figures['optimal'].house_edge})")
        print(f"house edge, player copies the way:  "
              f"{float(a.figures['house-way'].house_edge):+.6%}"
              f"  (exact: {a.figures['house-way'].house_edge})")


def cmd_analyze(args: argparse.Namespace) -> None:
    """``asiapoker analyze``: the whole game exactly: every player hand, optimal and house-way."""
    rules = _rules(args)
    if args.out is None and args.sample is None:
        raise UsageError("analyze needs --out DIR (or --sample N for an estimate)")
    if args.out is not None and args.sample is not None:
        raise UsageError("--sample estimates and writes no run: give --out DIR for an exact "
                             "run, or --sample N (with --json for the figures), not both")
    _out_dir(args.out, "--out")
    client = None
    if args.scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise MissingExtraError(f"--scheduler needs Dask (the dask extra): "
                                    f"{install_hint('dask')}") from None
        client = Client(args.scheduler)
    try:
        way = _way(args.way)
        player = _player(args.player)
        if isinstance(player, RackCard):
            player = CardStrategy(player, rules, way)
        a = analyze(way, rules, player, out=args.out,
                    workers=args.workers, client=client, shard=args.shard, sample=args.sample,
                    seed=args.seed, progress=not args.quiet,
                    parquet=not args.no_parquet and args.sample is None,
                    every_split=args.every_split)
    finally:
        if client is not None:
            client.close()
    if args.json:
        _emit(args, a.to_dict(), "")
        return
    _print_analysis(a)
    if args.out is not None and a.complete:
        print(f"results in {args.out}: summary.json"
              + ("" if args.no_parquet else ", classes.parquet")
              + (", every split's count" if args.every_split else "")
              + f" ({a.seconds:.0f} s)")
        if args.every_split:
            print(f"split counts sha256 {a.meta['split_counts_sha256']}")


def cmd_report(args: argparse.Namespace) -> None:
    """``asiapoker report``: a par sheet of an analyze run (HTML, PDF)."""
    from .report import write_report
    _out_file(args.out, "--out", make_parent=True)
    path = write_report(args.results, args.out)
    print(f"report written to {path}")


def cmd_serve(args: argparse.Namespace) -> None:
    """``asiapoker serve``: the hand calculator in the browser (a local web app)."""
    from .web import serve
    serve(_way(args.way), _rules(args), host=args.host, port=args.port, proxy=args.proxy)


def _load_card(path: str, way: str | None = None, rules: Rules | None = None) -> Any:
    """The card at ``path``; with ``way``, a one-line warning on stderr when the card was made
    for another way or rule options."""
    try:
        text = read_bytes(path)
    except FileError as exc:
        raise FileError(f"cannot read the card: {exc}") from None
    card = card_from_json(text)
    if way is not None:
        said = made_for_warning(card_made_for(text), way, rules or Rules())
        if said:
            print(f"asiapoker: warning: {said}", file=sys.stderr)
    return card


def cmd_card(args: argparse.Namespace) -> None:
    """``asiapoker card``: generate a strategy card against a way and price it."""
    rules = _rules(args)
    _out_dir(args.out, "--out")
    way = _way(args.way)
    generated = None
    tiers = sorted(set(args.max_rules))
    exact = args.exact if args.exact is not None else args.run
    if args.card:
        if len(tiers) > 1 or args.run:
            raise OptionError("--card prices one card: without --run or several --max-rules")
        cards = [(Path(args.out), _load_card(args.card, way.name, rules))]
    else:
        generated = generate(way, rules, max_rules=tiers[-1], hands=args.hands,
                             seed=args.seed, name=args.name, workers=args.workers,
                             run=args.run)
        for line in generated.log:
            print(line, file=sys.stderr)
        cards = ([(Path(args.out) / f"rules-{k}", generated.tier(k)) for k in tiers]
                 if len(tiers) > 1 else [(Path(args.out), generated.card)])
    priced = []
    for out, card in cards:
        pricing = price(card, way, rules, run=exact, hands=args.price_hands,
                        seed=args.seed + 1, workers=args.workers)
        written = write_card(card, pricing, out, generated, seed=args.seed, exact=exact,
                             card_file=args.card)
        priced.append(pricing.to_dict())
        if not args.json:
            _report_card(card, pricing, written)
    skipped = plots_missing()
    if skipped:
        print(f"asiapoker: {skipped}", file=sys.stderr)
    if args.json:
        _emit(args, priced[0] if len(priced) == 1 else {"cards": priced}, "")


def _report_card(card: RackCard, pricing: Any, written: list[Path]) -> None:
    """A priced card on stdout: its rules with what each decides and costs, the evs."""
    per = {p.index: p for p in pricing.per_rule}
    print(f"{card.name}: {len(card.rules)} rules ({pricing.describe()})")
    print(f"{'#':>3} {'hands':>7} {'costs':>8}  rule")
    for i, rule in enumerate(card.rules):
        print(f"{i + 1:>3} {float(per[i].frequency):7.2%} {float(per[i].cost):8.4%}  "
              f"{rule.text()}")
    print(f"{'-':>3} {float(per[-1].frequency):7.2%} {float(per[-1].cost):8.4%}  "
          f"{per[-1].text}")
    for name, key in (("optimal play", "optimal"), ("the card", "card"),
                      ("house-way play", "house-way")):
        print(f"ev, {name}: {float(pricing.ev[key]):+.4%}")
    print(f"the card closes {float(pricing.gap_closed):.1%} of the gap between house-way "
          f"and optimal play")
    print("written: " + ", ".join(str(p) for p in written))


def cmd_grade(args: argparse.Namespace) -> None:
    """``asiapoker grade``: grade a setting against the best one and a card's."""
    rules = _rules(args)
    card = _load_card(args.card, _way(args.way).name, rules)
    mine = Setting.parse(args.setting)
    seven = list(mine.cards)
    sol = solve(seven, _way(args.way), rules)
    ids = [int(c) for c in sol.cards]
    k = int(card_splits(card, np.array([ids], dtype=np.int64), rules, _way(args.way))[0][0])
    by_index = {r.index: r for r in sol.settings}
    said = by_index[k]
    yours = next((r for r in sol.settings if r.setting == mine), None)
    best = sol.best
    if yours is None:  # pragma: no cover - every setting of the seven cards is a split
        raise IllegalSettingError(f"{args.setting!r} is not a setting of its seven cards")
    data = {"setting": str(mine), "ev": yours.ev, "legal": yours.legal,
            "best": str(best.setting), "best_ev": best.ev,
            "card": str(said.setting), "card_ev": said.ev,
            "loss": best.ev - yours.ev, "card_loss": best.ev - said.ev,
            "way": sol.way, "rules": rules.to_dict()}
    if args.json:
        _emit(args, data, "")
        return
    foul = "" if yours.legal else " (a foul: the wager loses)"
    print(f"your setting:   {mine}{foul}  ev {yours.ev:+.4f}, loses {best.ev - yours.ev:.4f}")
    print(f"the best:       {best.setting}  ev {best.ev:+.4f}")
    print(f"the card says:  {said.setting}  ev {said.ev:+.4f}, loses {best.ev - said.ev:.4f}")
    print(f"(house way {sol.way}; {rules.describe()}; card {card.name})")


@dataclass(frozen=True)
class _Common:
    """The option sets a subcommand takes: each offers only the options that change its
    answer (``--a234`` where straights are ranked, ``--pays`` where money or ev is)."""

    none: list[argparse.ArgumentParser]
    a234: list[argparse.ArgumentParser]
    both: list[argparse.ArgumentParser]


def _parser() -> argparse.ArgumentParser:
    out = _Parser(add_help=False)
    out.add_argument("--json", action="store_true", help="print JSON for programs")
    a234 = _Parser(add_help=False)
    a234.add_argument("--a234", choices=("high", "low"), default="high",
                      help="where A-2-3-4 ranks among straights (rule 2.5)")
    pays = _Parser(add_help=False)
    pays.add_argument("--pays", type=float, default=1.0, help="what a win pays, to 1")
    common = _Common([out], [out, a234], [out, a234, pays])
    p = _Parser(prog="asiapoker", description="Exact Asia Poker tools.")
    p.add_argument("--version", action="version", version=f"asiapoker {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for add in (_hand_commands, _solve_commands, _bonus_commands, _play_commands,
                _way_commands, _run_commands, _card_commands):
        add(sub, common)
    return p


def _hand_commands(sub: Any, common: _Common) -> None:
    """The parsers of the commands on one hand: rank, splits, settle, house-way."""
    s = sub.add_parser("rank", parents=common.a234, help="rank a 1-, 2- or 4-card hand")
    s.add_argument("cards", nargs="+", help='cards, e.g. "As Ks Qs Jk"')
    s.set_defaults(func=cmd_rank)
    s = sub.add_parser("splits", parents=common.a234, help="the legal settings of seven cards")
    s.add_argument("cards", nargs="+", help="seven cards")
    s.add_argument("--all", action="store_true", help="show fouls too")
    s.set_defaults(func=cmd_splits)
    s = sub.add_parser("settle", parents=common.both, help="settle a player against the dealer")
    s.add_argument("--player", required=True, help='"H H H H | M M | L"')
    s.add_argument("--dealer", required=True, help='"H H H H | M M | L"')
    s.set_defaults(func=cmd_settle)
    s = sub.add_parser("house-way", parents=common.a234, help="the dealer's setting")
    s.add_argument("cards", nargs="+", help="seven cards")
    s.add_argument("--way", default=DEFAULT_WAY, help=WAY_HELP)
    s.add_argument("--explain", action="store_true", help="say why")
    s.set_defaults(func=cmd_house_way)


def _solve_commands(sub: Any, common: _Common) -> None:
    """The parsers of solving one hand or one player's spots, with cards known elsewhere."""
    known = _Parser(add_help=False)
    known.add_argument("--dead", default=None, action=_Once,
                       help='cards known NOT to be in the dealer\'s hand, e.g. "Kd 7c" '
                            "(another spot's, exposed, burned)")
    known.add_argument("--dealer", default=None, action=_Once,
                       help='cards known to be in the dealer\'s hand (exposed), e.g. "As"')
    s = sub.add_parser("solve", parents=[*common.both, known], help="exact EV of every setting")
    s.add_argument("cards", nargs="+", help="seven cards")
    s.add_argument("--way", default=DEFAULT_WAY, help=WAY_HELP)
    s.add_argument("--all", action="store_true", help="show fouls too")
    s.add_argument("--top", type=int, default=None, metavar="N",
                   help="show only the best N settings (and the house way's)")
    s.set_defaults(func=cmd_solve)
    s = sub.add_parser("spots", parents=[*common.both, known],
                       help="one player's 2-6 spots, each set seeing every hand")
    s.add_argument("hands", nargs="+", help='the spots\' hands, one quoted argument each: '
                                           '"As Kd 7h 7c Jk 2s 9d" "Ks Kh Qc Qd 5c 5h 3d"')
    s.add_argument("--way", default=DEFAULT_WAY, help=WAY_HELP)
    s.set_defaults(func=cmd_spots)


def _bonus_commands(sub: Any, common: _Common) -> None:
    """The parsers of the bonus wager."""
    tables = _Parser(add_help=False)
    tables.add_argument("--table", default="A", type=str.upper, choices=("A", "B", "C"),
                        help="bonus pay table (rule 4.2)")
    s = sub.add_parser("bonus", parents=[*common.none, tables],
                       help="the bonus hand of seven cards")
    s.add_argument("cards", nargs="+", help="seven cards")
    s.set_defaults(func=cmd_bonus)
    s = sub.add_parser("bonus-odds", parents=[*common.none, tables],
                       help="exact odds and house edge of the bonus wager")
    s.set_defaults(func=cmd_bonus_odds)


def _play_commands(sub: Any, common: _Common) -> None:
    """The parsers of simulated play and what optimal play gains against a way."""
    s = sub.add_parser("simulate", parents=common.both, help="simulate rounds at a full table")
    s.add_argument("--rounds", type=int, default=100_000, help="rounds to play")
    s.add_argument("--seats", type=int, default=6, help="players at the table (1-6)")
    s.add_argument("--seed", type=int, default=0, help="random seed")
    s.add_argument("--way", default=DEFAULT_WAY, help=WAY_HELP)
    s.add_argument("--player", choices=("house-way", "optimal"), default="house-way",
                   help="how the players set (optimal: read from the shipped optimal-play "
                        "table of the way when there is one, else solved, about 1 ms a hand)")
    s.add_argument("--optimal-table", default=None,
                   help="the optimal-play table (.npz) optimal players read, or 'none' to "
                        "solve every hand")
    s.add_argument("--bonus", type=str.upper, choices=("A", "B", "C"), default=None,
                   help="also track the bonus wager under this pay table")
    s.add_argument("--two-spots", action="store_true",
                   help="seats 1-2, 3-4, 5-6 are each one player seeing both hands "
                        "(with --player optimal)")
    s.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_simulate)
    s = sub.add_parser("exploitability", parents=common.both,
                       help="what optimal play gains against a way, and its house edges")
    s.add_argument("--way", default=DEFAULT_WAY, help=WAY_HELP)
    s.add_argument("--hands", type=int, default=20_000, help="random hands to solve")
    s.add_argument("--seed", type=int, default=0, help="random seed")
    s.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    s.set_defaults(func=cmd_exploitability)


def _way_commands(sub: Any, common: _Common) -> None:
    """The parsers of house ways and tables derived from them."""
    s = sub.add_parser("best-response", parents=common.a234,
                       help="the best response to a way, as a way (a table .npz)")
    s.add_argument("--way", default=DEFAULT_WAY, help=WAY_HELP)
    s.add_argument("--side", choices=("dealer", "player"), default="dealer",
                   help="whose best response: the dealer's (fewest player wins) or the "
                   "player's (most dealer hands beaten)")
    s.add_argument("--out", required=True, help="where to write the table (.npz)")
    s.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_best_response)
    s = sub.add_parser("optimal-table",
                       help="the optimal-play table of a whole-game run (analyze --out)")
    s.add_argument("run", help="the run directory")
    s.add_argument("--out", required=True, help="where to write the table (.npz)")
    s.add_argument("--way", default=None,
                   help="the run's way when it is not built in (FILE.py:FUNCTION or .npz)")
    s.add_argument("--wins", action="store_true",
                   help="also store each class's exact best wins (about 20 MB more)")
    s.add_argument("--json", action="store_true", help="print JSON for programs")
    s.set_defaults(func=cmd_optimal_table)
    s = sub.add_parser("equilibrium", parents=common.a234,
                       help="iterate the dealer's best response to a fixed point")
    s.add_argument("--start", default="classic",
                   help="the way to start from: a built-in name, FILE.py:FUNCTION or a saved "
                   "table .npz")
    s.add_argument("--max-iterations", type=int, default=8,
                   help="stop after this many best responses if no fixed point comes first")
    s.add_argument("--margin", type=int, default=0,
                   help="a class changes its setting only to lose to more than this many "
                   "fewer player hands (0: the plain best response)")
    s.add_argument("--exact", action="store_true",
                   help="also measure each iterate's cost exactly (a whole run each)")
    s.add_argument("--log", default=None,
                   help="write each step's figures to this JSON file as they come")
    s.add_argument("--hands", type=int, default=0,
                   help="also estimate each iterate's exploitability on this many hands")
    s.add_argument("--seed", type=int, default=0, help="random seed for --hands")
    s.add_argument("--out", required=True, help="where to write the last iterate (.npz)")
    s.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_equilibrium)
    s = sub.add_parser("game-value", parents=common.both,
                       help="bounds on the value of the game: the best house edge against "
                       "perfect play")
    s.add_argument("--file", default=None,
                   help="a game-value file to read (default: the one shipped)")
    s.add_argument("--solve", default=None, metavar="DIR",
                   help="run double oracle in DIR (resumes; 1.7 GB a way) to --steps steps")
    s.add_argument("--steps", type=int, default=10, help="steps to make with --solve")
    s.add_argument("--out", default=None,
                   help="with --solve: write its best bounds and their mixes here (.npz)")
    s.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    s.add_argument("--quiet", action="store_true", help="no progress lines")
    s.set_defaults(func=cmd_game_value)


def _run_commands(sub: Any, common: _Common) -> None:
    """The parsers of whole-game runs, their reports, and the calculator."""
    s = sub.add_parser("analyze", parents=common.both,
                       help="the whole game exactly: every player hand, optimal and house-way")
    s.add_argument("--way", default=DEFAULT_WAY, help=WAY_HELP)
    s.add_argument("--player", default="optimal",
                   help="optimal, house-way, a way, or FILE.py:FUNC (a batch strategy)")
    s.add_argument("--out", default=None, help="run directory (chunks, summary.json, "
                   "classes.parquet); a killed run resumes with the same command")
    s.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    s.add_argument("--scheduler", default=None, help="a Dask scheduler address (host:8786)")
    s.add_argument("--shard", default=None, help="I/N: solve every N-th chunk from the I-th")
    s.add_argument("--sample", type=int, default=None,
                   help="estimate from this many random hands instead (with 95%% CIs)")
    s.add_argument("--seed", type=int, default=0, help="random seed for --sample")
    s.add_argument("--no-parquet", action="store_true", help="do not write classes.parquet")
    s.add_argument("--every-split", action="store_true",
                   help="also keep every split's count of every class in --out (1.7 GB): "
                        "then price any card from it (card --exact DIR)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_analyze)
    s = sub.add_parser("report", help="a par sheet of an analyze run: HTML with figures, the "
                       "bonus wager, and PDF")
    s.add_argument("results", help="the run directory (or its summary.json)")
    s.add_argument("--out", default=None, help="the HTML file (default: RESULTS/report.html)")
    s.set_defaults(func=cmd_report)
    s = sub.add_parser("serve", parents=common.both,
                       help="the hand calculator in the browser (a local web app)")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to bind (127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=8000, help="port")
    s.add_argument("--proxy", action="store_true",
                   help="behind a reverse proxy on this machine: believe its X-Forwarded-For "
                   "client address (default: ignore such headers)")
    s.add_argument("--way", default=DEFAULT_WAY, help=WAY_HELP + " (the page's default)")
    s.set_defaults(func=cmd_serve)


def _card_commands(sub: Any, common: _Common) -> None:
    """The parsers of strategy cards."""
    s = sub.add_parser("card", parents=common.both,
                       help="generate a strategy card against a way and price it")
    s.add_argument("--way", default=DEFAULT_WAY, help=WAY_HELP)
    s.add_argument("--max-rules", type=int, nargs="+", default=[20], metavar="N",
                   help="rules on the card; several (5 10 20 40): the nested cards of one "
                   "search, each in OUT/rules-N")
    s.add_argument("--run", default=None, metavar="RUNDIR",
                   help="search on every hand of an every-split run of the way (analyze "
                   "--every-split), and price the cards exactly from it")
    s.add_argument("--hands", type=int, default=60_000,
                   help="random hands the search solves exactly (without --run)")
    s.add_argument("--seed", type=int, default=0, help="random seed (the pricing sample uses "
                   "seed + 1)")
    s.add_argument("--name", default=None, help="the card's name")
    s.add_argument("--card", default=None, help="price this card (.json) instead of making one")
    s.add_argument("--exact", default=None, metavar="RUNDIR",
                   help="price exactly from a finished run of asiapoker analyze --player "
                   "CARD.json, or from an every-split run of the way (analyze "
                   "--every-split)")
    s.add_argument("--price-hands", type=int, default=20_000,
                   help="random hands for the estimate when not --exact")
    s.add_argument("--out", required=True, help="directory for card.json/.md/.html/.pdf")
    s.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    s.set_defaults(func=cmd_card)
    s = sub.add_parser("grade", parents=common.both,
                       help="grade a setting against the best one and a card's")
    s.add_argument("card", help="the strategy card (.json, as asiapoker card writes it)")
    s.add_argument("setting", help='"HIGH | MEDIUM | LOW"')
    s.add_argument("--way", default=DEFAULT_WAY, help=WAY_HELP)
    s.set_defaults(func=cmd_grade)


def _flags(parser: argparse.ArgumentParser, command: str) -> dict[str, str]:
    """The options of subcommand ``command``: Python name -> flag (``two_spots`` ->
    ``--two-spots``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            sub = action.choices[command]
            return {a.dest: a.option_strings[-1] for a in sub._actions
                    if a.option_strings and a.option_strings[-1].startswith("--")}
    return {}  # pragma: no cover - every command is a subcommand


def cli_terms(message: str, flags: dict[str, str]) -> str:
    """An error message of the Python API in the command line's terms: a parameter named as
    the subcommand's flag (``two_spots=False`` -> ``without --two-spots``,
    ``player='optimal'`` -> ``--player optimal``, ``rounds must be`` -> ``--rounds must be``).

    >>> cli_terms("two_spots needs player='optimal', got 6", {"two_spots": "--two-spots",
    ...           "player": "--player"})
    '--two-spots needs --player optimal, got 6'
    """
    for dest, flag in sorted(flags.items(), key=lambda kv: -len(kv[0])):
        name = re.escape(dest)
        message = re.sub(rf"\b{name}=True\b", flag, message)
        message = re.sub(rf"\b{name}=False\b", f"without {flag}", message)
        message = re.sub(rf"\b{name}=(['\"]?)([\w.-]+)\1", rf"{flag} \2", message)
        message = re.sub(rf"^{name} must\b", f"{flag} must", message)
        if "_" in dest:                    # a Python name nobody types on a command line
            message = re.sub(rf"(?<![-\w]){name}\b", flag, message)
    return message


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 on bad input).

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after ``asiapoker`` (default: the process's own).
    """
    shown = warnings.showwarning
    warnings.showwarning = _one_line_warning
    parser = _parser()
    args = None
    try:
        args = parser.parse_args(argv)
        args.func(args)
        sys.stdout.flush()
    except AsiaPokerError as exc:
        said = str(exc) if args is None else cli_terms(str(exc), _flags(parser, args.command))
        print(f"asiapoker: error: {said}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head, which read what it wanted: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("asiapoker: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        if exc.filename is not None:        # a path the user named: say which
            print(f"asiapoker: error: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        try:                                # a full disk or a closed stdout
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        print(f"asiapoker: error: cannot write the output: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    finally:
        warnings.showwarning = shown
    return 0


def _one_line_warning(message: Warning | str, category: type[Warning], filename: str,
                      lineno: int, file: Any = None, line: str | None = None) -> None:
    """Warnings (a cache rebuilt, a chunk recomputed) as one line, as errors are."""
    print(f"asiapoker: warning: {message}", file=sys.stderr)
