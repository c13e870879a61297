"""``solve_deals``: the verdicts on a range (or a list) of kpat or PySolFC deal numbers, in
both engines, streamed in the order of the numbers."""

from __future__ import annotations

import re

import pytest

import acesup
from helpers import ROOT

# Rules under which the reference's plain search settles these deals in moments.
QUICK = "fill=top,deal=free,relocate_single=true,ace_high=true"
# Their verdicts, each the native solve of Game.from_kpat(n, rules) (checked below).
KPAT_1_20 = [False, True, False, True, False, True, False, False, False, True,
             True, False, True, False, False, False, True, True, False, True]


def test_kpat_1_to_20_are_the_verdicts_of_solve():
    rules = acesup.Rules.parse(QUICK)
    found = list(acesup.solve_deals("kpat", range(1, 21), rules))
    assert found == list(zip(range(1, 21), KPAT_1_20))
    assert [acesup.solve(acesup.Game.from_kpat(n, rules)).winnable for n in range(1, 21)] == KPAT_1_20


@pytest.mark.parametrize("numbers", [range(16, 19), range(2, 7, 2), range(18, 15, -1), range(5, 5)])
def test_both_engines_give_the_same_verdicts_in_the_order_of_the_numbers(engine, numbers):
    found = engine.solve_deals("kpat", numbers, engine.Rules.parse(QUICK))
    assert iter(found) is found
    assert list(found) == [(n, KPAT_1_20[n - 1]) for n in numbers]


@pytest.mark.parametrize("listed, make", [([16, 2, 16, 4], list), ([18], tuple), ([4, 6], iter),
                                          ([6, 5], lambda numbers: (n for n in numbers)), ([], list)])
def test_any_iterable_of_numbers_is_solved_in_its_order(engine, listed, make):
    """Not only a range: a list (repeats too), a tuple, an iterator, a generator."""
    found = list(engine.solve_deals("kpat", make(listed), engine.Rules.parse(QUICK)))
    assert found == [(n, KPAT_1_20[n - 1]) for n in listed]


class _OldSequence:
    """Iterable by __getitem__ alone, as iter() allows."""

    def __getitem__(self, i):
        if i < 2:
            return 16 + i
        raise IndexError(i)


def _failing_midway():
    yield 3
    raise RuntimeError("the generator failed")


class _BrokenIterable:
    def __iter__(self):
        raise ValueError("cannot iterate today")


def test_an_iterable_s_own_errors_are_raised_as_they_are(engine):
    assert list(engine.solve_deals("kpat", _OldSequence(), engine.Rules.parse(QUICK))) == [
        (16, KPAT_1_20[15]), (17, KPAT_1_20[16])]
    with pytest.raises(RuntimeError, match="^the generator failed$"):
        engine.solve_deals("kpat", _failing_midway())
    with pytest.raises(ValueError, match="^cannot iterate today$"):
        engine.solve_deals("kpat", _BrokenIterable())


def test_numpy_ints_are_deal_numbers(engine):
    np = pytest.importorskip("numpy")
    found = list(engine.solve_deals("kpat", np.array([4, 5]), engine.Rules.parse(QUICK)))
    assert found == [(4, KPAT_1_20[3]), (5, KPAT_1_20[4])] and all(type(n) is int for n, _ in found)


def test_a_second_round_on_the_deals_left_open_gives_the_verdicts_of_its_limit():
    """The deals a small limit leaves open, solved again with a larger one (on two
    threads), have the verdicts that the larger limit gives over the whole range."""
    first = dict(acesup.solve_deals("kpat", range(1, 61), node_limit=2_000))
    left = [n for n, winnable in first.items() if winnable is None]
    assert 5 < len(left) < 55
    again = list(acesup.solve_deals("kpat", left, threads=2, node_limit=50_000))
    whole = dict(acesup.solve_deals("kpat", range(1, 61), node_limit=50_000))
    assert again == [(n, whole[n]) for n in left]


def test_pysol_numbers_in_both_generators_are_the_verdicts_of_solve():
    rules = acesup.Rules.parse(QUICK)
    numbers = range(31990, 32010)
    found = list(acesup.solve_deals("pysol", numbers, rules, node_limit=10**6))
    assert found == [(n, acesup.solve(acesup.Game.from_pysol(n, rules), node_limit=10**6).winnable)
                     for n in numbers]


def test_the_program_preset_is_the_default_rules():
    found = list(acesup.solve_deals("kpat", range(2, 3), node_limit=10**5))
    assert found == [(2, acesup.solve(acesup.Game.from_kpat(2), node_limit=10**5).winnable)]


def test_verdicts_do_not_depend_on_the_thread_count():
    rules = acesup.Rules.parse(QUICK)
    one = list(acesup.solve_deals("kpat", range(1, 200), rules, threads=1, node_limit=10**5))
    assert list(acesup.solve_deals("kpat", range(1, 200), rules, threads=3, node_limit=10**5)) == one
    assert len(one) == 199 and any(v is None for _, v in one) and any(v for _, v in one)


@pytest.mark.parametrize("args, kwargs, error, words", [
    (("freecell", range(3)), {}, ValueError, "deals must be 'kpat' or 'pysol', got 'freecell'"),
    ((3, range(3)), {}, TypeError, "deals must be 'kpat' or 'pysol', got int"),
    (("kpat", 5), {}, TypeError, "numbers must be a range or an iterable of deal numbers, got int"),
    (("kpat", [3, 0]), {}, ValueError, "a kpat deal number must be an int from 1 to 2147483647, got 0"),
    (("kpat", [3, "4"]), {}, TypeError, "a kpat deal number must be an int from 1 to 2147483647, got str"),
    (("kpat", (3, True)), {}, TypeError, "a kpat deal number must be an int from 1 to 2147483647, got bool"),
    (("pysol", [5, 10**20 + 1]), {}, ValueError, "a PySolFC game number"),
    (("kpat", range(0, 3)), {}, ValueError, "a kpat deal number must be an int from 1 to 2147483647, got 0"),
    (("kpat", range(1, 2**31 + 1)), {}, ValueError, "got 2147483648"),
    (("pysol", range(10**20, 10**20 + 2)), {}, ValueError, "a PySolFC game number"),
    (("pysol", range(1, 2**64 + 1)), {}, ValueError, "numbers must hold fewer than 2**64 deals"),
    (("pysol", range(1, 10**20 + 1)), {}, ValueError, "numbers must hold fewer than 2**64 deals"),
    (("kpat", range(1, 3), "kpat"), {}, TypeError, "rules must be a Rules or None"),
    (("kpat", range(1, 3)), {"threads": 0}, ValueError, "threads"),
    (("kpat", range(1, 3)), {"node_limit": 0}, ValueError, "node_limit"),
    (("kpat", range(1, 3)), {"time_limit": -1}, ValueError, "time_limit"),
])
def test_bad_arguments_are_refused_at_the_call(engine, args, kwargs, error, words):
    with pytest.raises(error, match=re.escape(words)):
        engine.solve_deals(*args, **kwargs)


def test_a_range_of_2_to_the_64_deals_less_one_is_taken(engine):
    verdicts = engine.solve_deals("pysol", range(10**20, 10**20 - 2**64 + 1, -1), node_limit=1)
    assert next(iter(verdicts))[0] == 10**20


@pytest.mark.parametrize("numbers", [range(1, 3), [2, 1]])
def test_rules_of_another_deck_are_refused(engine, numbers):
    small = engine.Rules(suits=2)
    with pytest.raises(ValueError) as refused:
        engine.solve_deals("kpat", numbers, small)
    with pytest.raises(type(refused.value), match=str(refused.value)[:30].replace("(", r"\(")):
        engine.Game.from_kpat(numbers[0], small)  # the first deal is dealt at the call


# kpat deals 1-120 under its preset with at most 20,000 nodes each, as solve_deals found
# them when it solved them 32 a thread at a time ("-": unresolved), with deal 84 proved
# lost within the limit since S16 takes each suit left out of a stretch's tops in turn.
KPAT_PRESET_1_120 = ("-TFTFTFF-TT-TF-FTT-TTT-TTT-FTTTFT-FTFTF-FFFTF-FFTFTFTTF-FT-"
                     "FFFTT-TFTTFT--TTTTT-TFT-F-FFTFT-FFTFFT-FTFTTTFTTTTTFFTTTT-TTT")


@pytest.mark.parametrize("threads", [1, 2])
def test_the_streamed_verdicts_are_those_of_the_chunks_before(threads):
    found = acesup.solve_deals("kpat", range(1, 121), threads=threads, node_limit=20_000)
    assert repr(found) == "<DealVerdicts: 120 deals left>"
    first = next(found)
    assert first == (1, None) and repr(found) == "<DealVerdicts: 119 deals left>"
    verdicts = [first, *found]
    assert [n for n, _ in verdicts] == list(range(1, 121))
    assert "".join({True: "T", False: "F", None: "-"}[v] for _, v in verdicts) == KPAT_PRESET_1_120
    assert repr(found) == "<DealVerdicts: 0 deals left>" and next(found, "end") == "end"


def test_the_share_script_settles_in_rounds_what_each_limit_settles(capsys):
    """scripts/kpat_share.py, which regenerates RESULTS.md's rounds for kpat deals
    1-100000: after each round, the counts that solve_deals gives at that limit over the
    whole range, though only the deals still open are solved again."""
    import runpy

    script = runpy.run_path(str(ROOT / "scripts" / "kpat_share.py"))
    limits = [30, 3000, 10**5]
    script["main"](["--kpat", "1-40", "--limits", ",".join(map(str, limits)), "--threads", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"kpat deals 1-40, rules {acesup.Rules.kpat()}"
    rows = [line.split(" | ") for line in lines[4:]]
    assert len(rows) == len(limits)
    seen = []
    for row, limit in zip(rows, limits):
        verdicts = [winnable for _, winnable in acesup.solve_deals("kpat", range(1, 41), node_limit=limit)]
        counts = [verdicts.count(True), verdicts.count(False), verdicts.count(None)]
        assert row[0] == f"| {limit:,}" and [int(n) for n in row[1:4]] == counts
        assert row[4] == f"{counts[0] / 40:.2%} to {(40 - counts[1]) / 40:.2%}"
        seen.append(counts[2])
    assert seen[0] > seen[1] > seen[2]  # each round settles more (31, 13 and 8 open now)
