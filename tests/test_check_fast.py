"""The fast paths of ``gaple check`` give exactly what the careful ones give, and its
``--jobs`` and ``--shard`` options.

* :func:`gaple.conformance.wire.bounded.parse` skips its token scan when a few passes in C show
  the document within the limits: the value or refusal must be the same as with the scan.
* :func:`gaple.conformance.checker.transcript.check_transcript` first tries a fast replay that only
  answers for a conforming transcript in canonical form: whatever it answers, the careful
  reading must answer the same, and anything it is unsure of it must leave to that reading.
* ``--jobs`` never changes the output; ``--shard I/N`` takes item k (0-based, in input order,
  over every file) when k % N == I - 1.
"""

from __future__ import annotations

import copy
import inspect
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checks import every_move
from gaple.cli import check, main, sharding
from gaple.conformance.checker import transcript
from gaple.conformance.vectors.cases import result_json
from gaple.conformance.wire import bounded
from gaple.io import FormatError, state_to_json
from gaple.presets import PRESETS, ruleset
from gaple.simulate import random_hand
from gaple.state import apply, is_legal, legal_moves, new_hand, parse_move

JSON = Any
CI = os.environ.get("HYPOTHESIS_PROFILE") == "ci"

# --- the bounded reader ------------------------------------------------------------------------

_SMALL = bounded.Limits(max_bytes=1 << 20, max_depth=3, max_number=4, max_items=4)
"""Limits small enough for Hypothesis to reach each of them with short documents."""
_PIECES = st.sampled_from(
    [
        *("[", "]", "{", "}", '"', ",", ":", "\\", "\n", " ", "1", "-", "e", "1.5", "12345"),
        *("NaN", "Infinity", "true", "null", '"a"', '"[["', '"]"', "\\n", "[1,2,3,4,5]"),
        '{"a":1}',
    ]
)


def _outcome(document: str | bytes, limits: bounded.Limits) -> JSON:
    try:
        return ("value", bounded.parse(document, limits))
    except bounded.Refused as error:
        return ("refused", str(error))


@settings(max_examples=2000)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_the_quick_test_of_the_limits_changes_nothing(document: str) -> None:
    # The documents are built from the pieces that matter to a limit: brackets, quotes and
    # backslashes (where strings end), newlines, commas, numbers and the words NaN and
    # Infinity. Whatever _within lets past the scan, the scan would have let past.
    fast = _outcome(document, _SMALL)
    with mock.patch.object(bounded, "_within", return_value=False):
        assert fast == _outcome(document, _SMALL)


@pytest.mark.parametrize(
    "document",
    [
        "[[[[]]]]",  # 4 deep, one more than 3
        # 4 deep, arrays and objects alternating: a pass that removed the empty arrays and then
        # the empty objects would take two levels at once ([{}] goes in one) and clear it in 3.
        "[{[{}]}]",
        "[12345]",  # a number of 5 characters, one more than 4
        "[1,2,3,4,5]",  # 5 items, one more than 4
        "[NaN]",
        # A string cut by a newline ends there for the scan, and the next quote opens one that
        # hides a bracket: the scan sees [[[[ ]]]], 4 deep. Pairing quotes whatever lies
        # between them would see [] eight times, 1 deep: this is why newlines stay in the
        # skeleton.
        '[ "\n" ] ""\n' * 4 + '"\n" [ ""\n ]' * 4,
        '["\\"", [[["x"]]]]',  # an escaped quote: strings cannot be paired without reading
    ],
)
def test_what_the_quick_test_cannot_clear_goes_to_the_scan(document: str) -> None:
    assert not bounded._within(document.encode(), _SMALL)


def test_a_transcript_is_cleared_without_the_scan() -> None:
    line = json.dumps(state_to_json(random_hand(ruleset("pagat-4x7"), seed=1))).encode()
    assert bounded._within(line, bounded.LIMITS)


@pytest.mark.parametrize(
    ("document", "duplicate"),
    [
        # Keys decoded 1, colons 2: the duplicate is lost, so the colons outnumber the keys.
        ('{"a": 1, "a": 2}', True),
        # A colon in a string would make up for the lost key if the count were only compared
        # one way (decoded 1 = colons 2 - 1): it must be read again and refused.
        ('{"a": 1, "a": "x:y"}', True),
        ('{"a:b": {"c": 1, "c": 2}}', True),
        # No duplicate, but colons in strings: read again, and the value is kept.
        ('{"a": "x:y", "b": {"c:d": 1}}', False),
        ('{"a": 1, "b": [{"a": 2}, {"a": 3}]}', False),  # equal keys in different objects
    ],
)
def test_a_duplicate_key_is_refused_whatever_colons_the_strings_hold(
    document: str, duplicate: bool
) -> None:
    if duplicate:
        with pytest.raises(bounded.Refused, match="duplicate key"):
            bounded.parse(document)
    else:
        assert bounded.parse(document) == json.loads(document)


# orjson decodes for json.loads when it surely gives the same value: the pieces where the two
# could differ are escapes (a colon written as \u003a can hide a lost key), integers past 64
# bits (orjson makes them floats), floats (each rounds the literal its own way), words JSON does
# not have, control characters and byte order marks, and duplicate keys.
_DECODER_PIECES = st.sampled_from(
    [
        *("[", "]", "{", "}", ",", ":", " ", "\n", "\t", "\ufeff", "\x01", "true", "null"),
        *('"a"', '"a":', '"b":', '"\\u003a"', '"\\u003A"', '"\\ud800"', '"\\ud83d\\ude00"'),
        *('"x:y"', '"\\""', '"\\n"', "NaN", "-Infinity", "1e999", "-0", "-0.0", "1E2"),
        *("9223372036854775807", "9223372036854775808", "18446744073709551615"),
        *("18446744073709551616", "-9223372036854775809", "123456789012345678901234"),
        *("0.1", "5e-324", "2.4703282292062328e-324", "1.7976931348623157e308", "1e-400"),
        *("9007199254740993", "9007199254740993.0", "0.30000000000000004", "1.5"),
    ]
)
_JSON_VALUES: st.SearchStrategy[JSON] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=()), max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=10,
)
_NUMBER_LITERALS = st.from_regex(
    r"-?(0|[1-9][0-9]{0,19})(\.[0-9]{1,18})?([eE][-+]?[0-9]{1,3})?", fullmatch=True
)


def _same_without_orjson(document: str | bytes) -> None:
    # By repr: 1, 1.0 and true are equal in Python, but are three different JSON values.
    with_orjson = repr(_outcome(document, bounded.LIMITS))
    with mock.patch.object(bounded, "_COMPILED", None):
        assert with_orjson == repr(_outcome(document, bounded.LIMITS))


@settings(max_examples=10_000 if CI else 1000)
@given(st.lists(_DECODER_PIECES, max_size=30).map("".join))
def test_orjson_decodes_exactly_what_json_decodes(document: str) -> None:
    _same_without_orjson(document)


@settings(max_examples=5000 if CI else 500)
@given(_JSON_VALUES, st.booleans())
def test_orjson_decodes_every_json_value_as_json_does(value: JSON, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    _same_without_orjson(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=5000 if CI else 500)
@given(_NUMBER_LITERALS)
def test_orjson_reads_every_number_as_json_does(literal: str) -> None:
    # Floats to the last bit, integers to the last digit, and the same refusal of 1e999.
    _same_without_orjson(f'[{literal}, {{"n": {literal}}}]')


def _lenient(document: bytes) -> str:
    try:
        return repr(bounded.loads(document))
    except (ValueError, RecursionError) as error:
        return type(error).__name__


def _lenient_as_json_loads(document: bytes) -> None:
    # An engine's reply: json.loads of its text, bad bytes replaced, orjson or not.
    try:
        expected = repr(json.loads(document.decode("utf-8", errors="replace")))
    except ValueError:
        expected = "JSONDecodeError"
    assert _lenient(document) == expected
    with mock.patch.object(bounded, "_COMPILED", None):
        assert _lenient(document) == expected


_REPLY_PIECES = _DECODER_PIECES.map(lambda piece: piece.encode("utf-8", "surrogatepass")) | (
    st.sampled_from([b"\xff", b"\xc3", b"\xc3\xa9"])  # never UTF-8, cut short, and an e-acute
)


@settings(max_examples=5000 if CI else 500)
@given(st.lists(_REPLY_PIECES, max_size=30).map(b"".join))
def test_a_reply_is_read_as_json_loads_reads_it(document: bytes) -> None:
    _lenient_as_json_loads(document)


@settings(max_examples=2000 if CI else 200)
@given(_JSON_VALUES)
def test_a_request_line_is_ascii_json_of_the_request(value: JSON) -> None:
    line = bounded.json_line(value)
    assert line.isascii()
    assert line.index(b"\n") == len(line) - 1
    assert repr(json.loads(line)) == repr(value)
    with mock.patch.object(bounded, "_COMPILED", None):
        assert bounded.json_line(value) == (json.dumps(value) + "\n").encode()


@pytest.mark.parametrize("depth", [1010, 1024])
def test_a_reply_nested_past_what_json_loads_follows_is_refused_as_it_refuses_it(
    depth: int,
) -> None:
    # orjson reads up to 1,024 levels, json.loads gives up near 1,000 (less the frames of its
    # caller): between the two, orjson must not decide.
    for document in (b"[" * depth + b"]" * depth, b'{"a":' * depth + b"0" + b"}" * depth):
        with pytest.raises(RecursionError):
            json.loads(document)
        with pytest.raises(RecursionError):
            bounded.loads(document)


def test_a_reply_nested_past_what_json_loads_follows_from_a_deep_caller_is_refused_alike() -> None:
    # json.loads follows as many levels as the recursion limit leaves its caller's frames: 250
    # levels are too many for a caller 200 frames short of the limit, however few brackets
    # 250 levels take.
    document = b"[" * 250 + b"]" * 250
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 200)
    try:
        with pytest.raises(RecursionError):
            json.loads(document)
        with pytest.raises(RecursionError):
            bounded.loads(document)
    finally:
        sys.setrecursionlimit(limit)
    assert bounded.loads(document) == json.loads(document)  # with the frames to follow it


def test_a_reply_is_decoded_by_orjson() -> None:
    reply = json.dumps({"type": "state", "line": [[0, 3], [3, 5]], "legal": ["pass"]})
    with mock.patch.object(json, "loads", side_effect=AssertionError("json.loads was called")):
        assert bounded.loads(reply.encode())["line"] == [[0, 3], [3, 5]]


@pytest.mark.parametrize(
    "document",
    [
        # json.loads keeps the escaped colon's key lost: one key decoded, two colons written,
        # and orjson writes back the string's colon, two colons again. Found by hand: without
        # the test for \u the duplicate is taken for a clean document.
        '{"a": 1, "a": "\\u003a"}',
        '{"a": 1, "a": 2}',
    ],
)
def test_a_duplicate_key_is_refused_by_the_orjson_path_too(document: str) -> None:
    assert bounded._COMPILED is not None
    with pytest.raises(bounded.Refused, match='duplicate key "a"'):
        bounded.parse(document)


def test_a_transcript_is_decoded_by_orjson() -> None:
    # Else the check would still be right, and no faster.
    line = json.dumps(state_to_json(random_hand(ruleset("pagat-4x7"), seed=1))).encode()
    with mock.patch.object(json, "loads", side_effect=AssertionError("json.loads was called")):
        assert bounded.parse(line)["format"] == 1


@pytest.mark.parametrize("compiled", [True, False], ids=["orjson", "json"])
@pytest.mark.parametrize(
    ("one", "other"),
    [(True, 1), (2, 2.0), ([0, 1], [False, True]), ({"a": None}, {"a": 0}), ((1, 2), [1, 3])],
)
def test_exact_keys_tell_apart_what_json_tells_apart(
    one: JSON, other: JSON, compiled: bool
) -> None:
    with mock.patch.object(bounded, "_COMPILED", bounded._COMPILED if compiled else None):
        assert bounded.exact_key(one) != bounded.exact_key(other)
        assert bounded.exact_key(one) == bounded.exact_key(copy.deepcopy(one))
    # Past 64 bits orjson refuses: the key falls back on json.dumps, and is still exact.
    assert bounded.exact_key([2**64]) != bounded.exact_key([float(2**64)])


@pytest.mark.parametrize("compiled", [True, False], ids=["orjson", "json"])
def test_a_tuple_has_the_key_of_the_array_it_is_written_as(compiled: bool) -> None:
    # The fast path compares a transcript's line, a list of lists, with the state's tuples.
    with mock.patch.object(bounded, "_COMPILED", bounded._COMPILED if compiled else None):
        assert bounded.exact_key([[0, 3], [3, 5]]) == bounded.exact_key(((0, 3), (3, 5)))
        assert bounded.exact_key({"ends": [0, 5]}) == bounded.exact_key({"ends": (0, 5)})


def test_an_integer_past_64_bits_stays_exact() -> None:
    # By repr: the float orjson would give equals 2**64 in Python.
    assert repr(bounded.parse("[18446744073709551616]")) == repr([2**64])
    assert repr(bounded.parse("[18446744073709551615]")) == repr([2**64 - 1])


# --- the checker ---------------------------------------------------------------------------------


def _spec_transcript(name: str, seed: int, *, offered: bool, result: bool) -> dict[str, JSON]:
    """A hand of the spec written as an engine logs it: the moves it offered before each
    action and after the last one, and the result it claims."""
    state = random_hand(PRESETS[name].rules, seed)
    data = state_to_json(state)
    if offered:
        replay = new_hand(state.rules, state.deal)
        for action, item in zip(state.history, data["actions"], strict=True):
            item["offered"] = [str(move) for move in legal_moves(replay)]
            replay = apply(replay, action.move, action.seat)
        data["offered"] = []
    if result:
        claimed = result_json(state)
        assert claimed is not None
        del claimed["rules"]  # a transcript's result has no rule IDs
        data["result"] = claimed
    return data


@pytest.mark.parametrize("compiled", [True, False], ids=["orjson", "json"])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_spec_hands_take_the_fast_path_and_conform(name: str, compiled: bool) -> None:
    # The spec's own hands conform, by definition; the fast path must take every one of them
    # (else it saves nothing) and agree with the careful reading, with orjson's exact keys
    # and with json.dumps's (where orjson is not installed).
    for seed in range(40):
        data = _spec_transcript(name, seed, offered=seed % 2 == 0, result=seed % 3 != 0)
        with mock.patch.object(bounded, "_COMPILED", bounded._COMPILED if compiled else None):
            fast = transcript._fast_verdict(data)
        assert fast is not None, f"seed {seed}"
        assert fast.conforms
        assert fast == transcript._check_carefully(data), f"seed {seed}"


def _paths(value: JSON, path: tuple[JSON, ...] = ()) -> Iterator[tuple[JSON, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


# Values equal in Python to what the spec writes but not in JSON (true is not 1, 2.0 is not
# 2), lenient spellings the careful reading accepts, and other small JSON.
_TRICKY: st.SearchStrategy[JSON] = st.sampled_from(
    [
        *(True, False, 0, 1, 2, 3, 1.0, 2.0, -1, None, "0-3", "3-0", "0-0", "place 3-0 left"),
        *("pass", "place 0-3 left", "lead 0-0", "discard 6-6", [], {}, [1, 2], ["0-0"], "out"),
        "blocked",
    ]
)
_VALUES = st.recursive(_TRICKY, lambda inner: st.lists(inner, max_size=3), max_leaves=4)


@settings(max_examples=3000 if CI else 300)
@given(
    hand=st.tuples(
        st.sampled_from(["pagat-4x7", "domino4d", "suwiki-partnership", "chips"]),
        st.integers(0, 50),
        st.booleans(),
    ),
    pick=st.integers(0, 10_000),
    change=st.sampled_from(["set", "delete", "repeat"]),
    value=_VALUES,
)
def test_the_fast_path_answers_only_what_the_careful_reading_answers(
    hand: tuple[str, int, bool], pick: int, change: str, value: JSON
) -> None:
    # One change anywhere in a spec transcript: a value replaced, a key or item deleted, or an
    # item repeated. The careful reading decides (a verdict, or a FormatError); the fast path
    # must give the same verdict or none at all.
    name, seed, offered = hand
    data = _spec_transcript(name, seed, offered=offered, result=True)
    paths = list(_paths(data))[1:]
    path = paths[pick % len(paths)]
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if change == "set":
        parent[last] = value
    elif change == "delete":
        del parent[last]
    elif isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    fast = transcript._fast_verdict(copy.deepcopy(data))
    try:
        careful = transcript._check_carefully(data)
    except FormatError:
        assert fast is None
    else:
        assert fast is None or fast == careful


@pytest.mark.parametrize(
    ("where", "value"),
    [
        # Each is equal in Python to what the spec writes, but the wrong JSON type, so the
        # careful reading refuses it: a fast path comparing with == would let it conform.
        (("result", "replay"), 0),  # false == 0
        (("result", "counts", 0), "float"),  # the count as 12.0
        (("actions", "seat"), "bool"),  # the first seat 0 or 1 to act, as false or true
        (("ends", 0), "float"),  # the left end as 2.0
        (("line", 0, 1), "float"),  # a half of the leftmost tile in the line as 5.0
    ],
)
def test_values_of_the_wrong_type_are_invalid_even_when_python_finds_them_equal(
    where: tuple[JSON, ...], value: JSON
) -> None:
    data = _spec_transcript("pagat-4x7", 3, offered=False, result=True)
    if value == "bool":
        action = next(item for item in data["actions"] if item["seat"] in (0, 1))
        action["seat"] = bool(action["seat"])
    else:
        parent = data
        for step in where[:-1]:
            parent = parent[step]
        parent[where[-1]] = float(parent[where[-1]]) if value == "float" else value
    assert transcript._fast_verdict(data) is None
    with pytest.raises(FormatError):
        transcript.check_transcript(data)


@pytest.mark.parametrize("offered", [False, True])
def test_an_action_with_a_key_of_its_own_is_invalid(offered: bool) -> None:
    # The fast path reads an action of two keys without looking at their names (the move and
    # the seat are there, so the two are those); a third must be "offered", and a fourth is
    # never allowed.
    data = _spec_transcript("pagat-4x7", 3, offered=offered, result=True)
    data["actions"][2]["note"] = "mine"
    assert transcript._fast_verdict(data) is None
    with pytest.raises(FormatError, match=r"actions\[2\]\.note: unknown key"):
        transcript.check_transcript(data)


def test_a_half_in_the_line_written_as_true_or_false_is_invalid() -> None:
    # A 0 or 1 in the line written as false or true is equal in Python, not in JSON: the fast
    # path's comparison of the line must see the type (this fails if it only uses ==).
    data = _spec_transcript("pagat-4x7", 3, offered=False, result=True)
    pair = next(pair for pair in data["line"] if 0 in pair or 1 in pair)
    half = 0 if pair[0] in (0, 1) else 1
    pair[half] = bool(pair[half])
    assert transcript._fast_verdict(data) is None
    with pytest.raises(FormatError):
        transcript.check_transcript(data)


@pytest.mark.parametrize("offered", [False, True], ids=["follow", "offered"])
@pytest.mark.parametrize("name", ["pagat-4x7", "domino4d"])
def test_an_illegal_last_move_is_never_taken_for_conforming(name: str, offered: bool) -> None:
    # A log that ends on an illegal move and claims nothing after it: only the move itself
    # can diverge. Without the moves offered the fast path replays it without building the
    # legal moves (_run checks each move); with them, listed right, it must still find the
    # move among the legal ones. Either way it must leave the transcript to the careful
    # reading, which names the move at its step.
    rules = PRESETS[name].rules
    for seed in range(3):
        hand = random_hand(rules, seed)
        data = state_to_json(hand)
        actions = data["actions"]
        state = new_hand(rules, hand.deal)
        for k, item in enumerate(actions):
            illegal = [m for m in every_move(rules.max_pip) if not is_legal(state, m)]
            last: dict[str, JSON] = {"seat": item["seat"]}
            if offered:
                last["offered"] = [str(m) for m in legal_moves(state)]
            for move in illegal:
                cut = {**data, "actions": [*actions[:k], {**last, "move": str(move)}]}
                for field in ("to_act", "line", "ends", "hands", "discards", "ending"):
                    del cut[field]
                assert transcript._fast_verdict(cut) is None, f"seed {seed}, step {k + 1}: {move}"
            # The last of them, as a user sees it: the careful reading names it.
            verdict = transcript.check_transcript(cut)
            assert verdict.divergence is not None
            assert (verdict.divergence.step, verdict.divergence.field) == (k + 1, "action")
            state = apply(state, parse_move(item["move"]), item["seat"])


@pytest.mark.parametrize("name", ["pagat-4x7", "domino4d", "suwiki-partnership"])
def test_a_move_written_for_the_wrong_seat_is_never_taken_for_conforming(name: str) -> None:
    # Each legal move, but one written as played by another seat. The fast replay makes the
    # moves first and compares the seats after, so it must not take the log; the careful
    # reading names the step.
    rules = PRESETS[name].rules
    data = _spec_transcript(name, 1, offered=False, result=True)
    for k, item in enumerate(data["actions"]):
        for seat in range(rules.players):
            if seat == item["seat"]:
                continue
            wrong = copy.deepcopy(data)
            wrong["actions"][k]["seat"] = seat
            assert transcript._fast_verdict(wrong) is None, f"step {k + 1}: seat {seat}"
        verdict = transcript.check_transcript(wrong)
        assert verdict.divergence is not None
        assert verdict.divergence.step == k + 1


# --- --jobs and --shard ------------------------------------------------------------------------


def _log(tmp_path: Path, count: int) -> Path:
    """A log of ``count`` lines: mostly spec hands, every 7th diverging (its first action
    played by the wrong seat), every 11th not JSON."""
    lines = []
    for k in range(count):
        data = _spec_transcript("pagat-4x7", k, offered=False, result=True)
        if k % 7 == 3:
            first = data["actions"][0]
            first["seat"] = (first["seat"] + 1) % 4
        lines.append("{broken" if k % 11 == 5 else json.dumps(data))
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_output_is_the_same_for_any_number_of_jobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Blocks of 20,000 bytes (about 9 lines) here, to keep the log short, so that --jobs 2
    # really starts workers; the JSON report holds every count and each rule's first line, so
    # equal reports are equal summaries.
    # With --shard the lines go to the workers in batches (of 64 here): they too.
    monkeypatch.setattr(check, "BLOCK", 20_000)
    monkeypatch.setattr(sharding, "BATCH", 64)
    log = _log(tmp_path, 2 * 64 + 9)
    outputs = []
    for shard in ("1/1", "2/2"):
        for jobs in ("1", "2", "3"):
            for form in ("json", "text"):
                argv = ["check", "--jobs", jobs, "--shard", shard, "--format", form, str(log)]
                status = main(argv)
                captured = capsys.readouterr()
                outputs.append((form, status, captured.out, captured.err))
    assert outputs[0:6:2] == [outputs[0]] * 3
    assert outputs[1:6:2] == [outputs[1]] * 3
    assert outputs[6::2] == [outputs[6]] * 3
    assert outputs[7::2] == [outputs[7]] * 3
    summary = json.loads(outputs[0][2])[0]
    # 137 lines: k % 11 == 5 for k = 5, 16, ..., 126: 12 invalid; k % 7 == 3 for k = 3, 10,
    # ..., 136: 20 diverge, of which k = 38 and 115 (also k % 11 == 5) are the invalid ones.
    assert (summary["invalid"], summary["diverging"], summary["conforming"]) == (12, 18, 107)


_LOG_LINES = [
    json.dumps(_spec_transcript("domino4d", 2, offered=False, result=True)).encode(),
    json.dumps(_spec_transcript("domino4d", 3, offered=False, result=False)).encode(),
    json.dumps({"rules": {}}).encode(),  # invalid: no deal
    b"{broken",
    b'{"a": 1',  # the column of the error counts a \r the line end left
    b"\xff",  # not UTF-8
    b"",
    b" \t ",
    b"\r",
    b"x" * 2999,  # the limit is 3000 bytes here: at it, and one byte over it (with \r too)
    b"x" * 3000,
    b"x" * 3001,
    b"[" * 2999 + b"\r",
]


@settings(max_examples=300 if CI else 60, deadline=None)
@given(
    lines=st.lists(st.tuples(st.sampled_from(_LOG_LINES), st.sampled_from([b"\n", b"\r\n"]))),
    last_newline=st.booleans(),
    block=st.sampled_from([1, 7, 100, 2500, 2999, 3000, 3001, 8000, 1 << 20]),
)
def test_a_log_read_in_blocks_gives_what_it_gives_read_whole(
    lines: list[tuple[bytes, bytes]], last_newline: bool, block: int
) -> None:
    # gaple check reads a log in blocks of whole lines, for the workers (without --shard) or
    # line by line for a shard to pick from. Read as one block (these logs are far below
    # 1 MiB), no line crosses a block's end: the transcripts counted and every record not
    # conforming, with its line number, must be the same whatever the block size, line ends
    # and lines too long (a line over the limit is cut at a block's end, the rest skipped).
    text = b"".join(line + end for line, end in lines)
    if lines and not last_newline:
        text = text[: -len(lines[-1][1])]
    with mock.patch.object(bounded, "LIMITS", bounded.Limits(max_bytes=3000)):
        whole = [check._block_records(b) for b in check._blocks(io.BytesIO(text))]
        with mock.patch.object(check, "BLOCK", block):
            by_line = [check._line_record(line) for line in check._lines(io.BytesIO(text))]
            by_block = [check._block_records(b) for b in check._blocks(io.BytesIO(text))]
    assert len(whole) <= 1
    assert sum(count for count, _ in by_block) == len(by_line) == sum(c for c, _ in whole)
    expected = [r for _, records in whole for r in records]
    assert [r for _, records in by_block for r in records] == expected
    assert [(n, r) for n, r in by_line if r["status"] != "conforms"] == expected


@pytest.mark.parametrize("shard", [None, "1/1"])
def test_a_crlf_line_end_is_not_part_of_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shard: str | None
) -> None:
    # `{"a": 1` is 7 characters: the decoder wants a comma or a closing brace at column 8. A
    # \r left on the line would be skipped as white space and move that to column 9.
    log = tmp_path / "crlf.jsonl"
    log.write_bytes(b'{"a": 1\r\n')
    assert main(["check", *(["--shard", shard] if shard else []), str(log)]) == 2
    assert "line 1: not JSON (column 8): Expecting ',' delimiter" in capsys.readouterr().err


def test_a_shard_takes_every_nth_item_over_all_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Items in input order: a.json (k=0), b.json (k=1), then the log's three lines (k=2, 3, 4).
    # Shard 2/2 takes k = 1 and 3: b.json and the log's second line.
    for name in ("a", "b"):
        data = _spec_transcript("domino4d", 1, offered=False, result=False)
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    lines = [_spec_transcript("domino4d", seed, offered=False, result=False) for seed in (1, 2)]
    lines.insert(1, {"rules": {}})  # the second line: not a transcript (no deal)
    (tmp_path / "c.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    files = [str(tmp_path / name) for name in ("a.json", "b.json", "c.jsonl")]
    assert main(["check", "--shard", "2/2", *files]) == 2
    out = capsys.readouterr()
    assert "a.json" not in out.out
    assert "b.json: conforms" in out.out
    assert "c.jsonl: 1 transcripts: 0 conform, 0 diverge, 1 invalid" in out.out
    assert "line 2: invalid at $: missing key 'deal'" in out.err
    # Shard 1/2 takes k = 0, 2, 4: a.json and the log's first and third lines, all conforming.
    assert main(["check", "--shard", "1/2", *files]) == 0
    out = capsys.readouterr()
    assert "b.json" not in out.out
    assert "c.jsonl: 2 transcripts: 2 conform" in out.out


@pytest.mark.parametrize(
    "option",
    [
        *(["--jobs", "0"], ["--jobs", "two"], ["--shard", "3/2"], ["--shard", "0/2"]),
        *(["--shard", "1"], ["--shard", "1/0"]),
    ],
)
def test_bad_jobs_or_shard_is_a_usage_error(
    option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["check", *option, "x.json"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option[0]}: expected" in err
