"""Exercise sets (dashboard.teach_sets): the file and the link round-trip, and every bad input is refused with a
message naming its line and field."""

from __future__ import annotations

import base64
import hashlib
import json
import zlib

import pytest

from dashboard import teach_sets as ts
from dashboard.teach_sets import SetError, SetItem, TeachSet

SET = TeachSet(
    "Clipping & shifts",
    (
        SetItem("bleu", "the the the the", ("the cat is on the mat", "there is a cat"), ("m1", "p1"), "Why 2?"),
        SetItem("ter", "猫がマットの上にいる", ("マットの上に猫がいる",), ()),
        SetItem("chrf", 'quotes " and <b>tags</b> \\ stay text', ("ref",), ("chrf",), source="the source"),
    ),
)


def test_file_and_link_round_trip():
    assert ts.parse(ts.to_json(SET)) == SET
    assert ts.parse(ts.to_json(SET).encode("utf-8-sig")) == SET  # a BOM from an editor is fine
    link = ts.to_link(SET)
    assert link.startswith("v1.") and len(link) < 600
    assert ts.from_link(link) == SET
    assert "猫" in ts.to_json(SET)  # readable in an editor, not \\u escapes


def problems(text: str) -> tuple[str, ...]:
    with pytest.raises(SetError) as caught:
        ts.parse(text)
    return caught.value.problems


def test_bad_json_names_line_and_column():
    assert problems('{\n  "scorelens_teach_set": 1,\n  "items": [,]\n}') == (
        "line 3, column 13: not JSON (Expecting value)",
    )


def test_every_bad_field_is_named_with_its_line():
    text = json.dumps(
        {
            "scorelens_teach_set": 1,
            "title": "t",
            "items": [
                {"metric": "bleu", "hyp": "a", "refs": ["b"]},
                {"metric": "blue", "hyp": 3, "refs": ["b", 4], "exercises": "m1", "colour": "red"},
                {"metric": "ter", "hyp": "a", "refs": [], "note": 5},
                "not an item",
            ],
        },
        indent=2,
    )
    found = problems(text)
    assert found == (
        "line 12, items[1].colour: unknown field (an item has exercises, hyp, metric, note, refs, source)",
        'line 12, items[1].metric: "blue" is no metric of this app (e.g. bleu, chrf, ter)',
        "line 12, items[1].hyp: must be text of at most 5000 characters",
        "line 12, items[1].refs[1]: must be text of at most 5000 characters",
        'line 12, items[1].exercises: must be a list of exercise keys (e.g. ["m1", "bp"])',
        "line 22, items[2].refs: must be a list of 1 to 8 references",
        "line 22, items[2].note: must be text of at most 5000 characters",
        "items[3]: must be an object with metric, hyp and refs",
    )
    assert text.splitlines()[11].strip() == "{" and '"blue"' in text.splitlines()[12]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ([], "the file holds no JSON object"),
        ({"items": [{"metric": "bleu", "hyp": "a", "refs": ["b"]}]}, "'scorelens_teach_set' must be 1"),
        ({"scorelens_teach_set": 2, "items": []}, "'scorelens_teach_set' must be 1"),
        ({"scorelens_teach_set": 1, "items": []}, "'items' must be a list of 1 to 50 items"),
        ({"scorelens_teach_set": 1, "title": 7, "items": []}, "'title' must be text"),
        ({"scorelens_teach_set": 1, "items": [], "path": "/etc/passwd"}, "unknown field 'path'"),
        (
            {"scorelens_teach_set": 1, "items": [{"metric": "bleu", "hyp": "a" * 5001, "refs": ["b"]}]},
            "items[0].hyp: must be text of at most 5000",
        ),
        (
            {"scorelens_teach_set": 1, "items": [{"metric": "bleu", "hyp": "a", "refs": ["b"] * 9}]},
            "items[0].refs: must be a list of 1 to 8",
        ),
    ],
)
def test_bad_sets_are_refused(data, said):
    assert any(said in p for p in problems(json.dumps(data))), problems(json.dumps(data))


def test_bad_bytes_and_sizes():
    with pytest.raises(SetError, match="not UTF-8"):
        ts.parse(b'{"title": "\xff"}')
    with pytest.raises(SetError, match="larger than 512 KiB"):
        ts.parse(b" " * (ts.MAX_FILE_BYTES + 1))


def test_bad_links():
    with pytest.raises(SetError, match="format"):
        ts.from_link("https://example.com/set.json")  # never a path or an address: nothing is fetched
    with pytest.raises(SetError, match="damaged"):
        ts.from_link("v1.%%%")
    with pytest.raises(SetError, match="damaged"):
        ts.from_link(ts.to_link(SET)[:-20])
    with pytest.raises(SetError, match="longer than"):
        ts.from_link("v1." + "A" * ts.MAX_LINK_CHARS)
    bomb = "v1." + base64.urlsafe_b64encode(zlib.compress(b" " * (ts.MAX_FILE_BYTES * 4), 9)).decode()
    assert len(bomb) < ts.MAX_LINK_CHARS
    with pytest.raises(SetError, match="unpacks to more than"):
        ts.from_link(bomb)


def test_a_set_too_large_for_a_link_says_share_the_file():
    def words(k: int) -> str:  # text that does not compress away
        return " ".join(hashlib.sha256(f"{k}/{j}".encode()).hexdigest()[:8] for j in range(40))

    big = TeachSet("big", tuple(SetItem("bleu", words(k), ("x",)) for k in range(40)))
    with pytest.raises(SetError, match="share the file instead"):
        ts.to_link(big)
    assert ts.parse(ts.to_json(big)) == big


def test_adding_to_a_full_set_is_refused():
    full = TeachSet("", tuple(SetItem("bleu", str(k), ("r",)) for k in range(ts.MAX_ITEMS)))
    with pytest.raises(SetError, match="at most 50"):
        full.with_item(SetItem("bleu", "x", ("r",)))
    assert len(full.items) == ts.MAX_ITEMS  # the caller's set is unchanged
