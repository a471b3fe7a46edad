"""Bad input gets a clear error naming the file and line; nothing is lost or cut silently."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.io.inputs import (
    MAX_LINE_CHARS,
    InputError,
    Segments,
    check_same_length,
    display_name,
    parse_lines,
    parse_segments,
    read_all,
    table_columns,
)
from metrics.kernels import kernel, pure_python


def test_plain_text_keeps_every_line_including_empty_ones():
    seg = parse_segments(b"a b\n\nc\n", "sys.txt")
    assert seg.texts == ("a b", "", "c") and seg.name == "sys"


def test_blank_segments_are_kept_with_a_note_naming_file_and_lines():
    seg = parse_segments("a\n \t\nb\n\u3000\xa0\n\n".encode(), "sys.txt")
    assert seg.texts == ("a", " \t", "b", "\u3000\xa0", "")
    assert seg.notes == (
        "sys.txt: 3 segment(s) empty or only whitespace (lines 2, 4, 5); each is scored as an empty output",
    )
    table = parse_segments(b"id,text\n1,x\n2, \n", "out.csv", column="text")
    assert table.notes == ("out.csv: 1 segment(s) empty or only whitespace (row 3); each is scored as an empty output",)
    many = parse_segments(b"\n" * 25, "empty.txt")
    assert many.notes[0].startswith("empty.txt: 25 segment(s) empty or only whitespace (lines 1, 2, 3,")
    assert "20 …)" in many.notes[0]
    assert parse_segments(b"a\nb\n", "x.txt").notes == ()


def test_last_line_without_newline_is_kept():
    assert parse_segments(b"a\nb", "x.txt").texts == ("a", "b")


def test_bom_and_crlf_are_handled_and_said():
    seg = parse_segments(b"\xef\xbb\xbfone\r\ntwo\r\n", "win.txt")
    assert seg.texts == ("one", "two")
    assert any("byte-order mark" in n for n in seg.notes) and any("CRLF" in n for n in seg.notes)


def test_a_bare_carriage_return_stays_inside_its_line_and_is_said():
    seg = parse_segments(b"ok\nyou \r doing\nfine\nend\rmark\n", "cr.txt")
    assert seg.texts == ("ok", "you \r doing", "fine", "end\rmark")  # sacrebleu's lines: only \n ends one
    (note,) = seg.notes
    assert "cr.txt: line 2 (and 1 more)" in note and "carriage return" in note


def test_a_bare_carriage_return_in_a_table_must_be_quoted():
    assert parse_segments(b'text\n"you \r doing"\nok\n', "t.csv", column="text").texts == ("you \r doing", "ok")
    with pytest.raises(InputError, match=r"t.csv, line 3: a carriage return .* in quotes"):
        parse_segments(b"text\nok\nyou \r doing\n", "t.csv", column="text")


def test_undecodable_bytes_name_file_line_and_encoding():
    with pytest.raises(InputError) as err:
        parse_segments("fine\nnot \xe9 utf8\n".encode("latin-1"), "latin.txt")
    assert err.value.line == 2 and "latin.txt, line 2" in str(err.value) and "UTF-8" in str(err.value)


def test_binary_and_empty_files():
    with pytest.raises(InputError, match=r"bin.txt, line 2: .*binary"):
        parse_segments(b"ok\n\x00\x01\x02", "bin.txt")
    with pytest.raises(InputError, match="empty.txt: file is empty"):
        parse_segments(b"", "empty.txt")


def test_huge_line_is_refused_not_truncated():
    with pytest.raises(InputError, match=r"big.txt, line 2: segment has"):
        parse_segments(b"x\n" + b"y" * (MAX_LINE_CHARS + 1) + b"\n", "big.txt")


def test_jsonl_text_field_and_sentence_lists():
    seg = parse_segments(b'{"text": "one.\\ntwo."}\n["a .", "b ."]\n', "sum.jsonl")
    assert seg.texts == ("one.\ntwo.", "a .\nb .")
    with pytest.raises(InputError, match=r"bad.jsonl, line 2: object has no 'text' field"):
        parse_segments(b'{"text": "x"}\n{"txt": "y"}\n', "bad.jsonl")
    with pytest.raises(InputError, match=r"bad.jsonl, line 1: not valid JSON"):
        parse_segments(b"{oops\n", "bad.jsonl")
    with pytest.raises(InputError, match=r"bad.jsonl, line 2: .* got a list holding NoneType, int$"):
        parse_segments(b'["a ."]\n["b .", 3, null]\n', "bad.jsonl")
    with pytest.raises(InputError, match=r"bad.jsonl, line 2: .* got int$"):
        parse_segments(b'"a ."\n{"text": 7}\n', "bad.jsonl")
    with pytest.raises(InputError, match=r"bad.jsonl, line 2: empty line"):
        parse_segments(b'"a ."\n \n"b"\n', "bad.jsonl")


def _line_by_line(data: bytes, first_line: int = 1) -> tuple[str, ...] | tuple[int, str]:
    """What decoding each line alone gives: the segments, or the number of the first line that fails and why (the
    contract the reader keeps, however it finds the values)."""
    text = data.decode("utf-8-sig" if first_line == 1 else "utf-8").replace("\r\n", "\n")
    if first_line == 1 and "\n" not in text and (text.endswith("\r") or text.count("\r") > 1):
        text = text.replace("\r", "\n")  # no LF, and CR ends the file or several lines: old Mac OS line ends
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    texts = []
    for number, line in enumerate(lines, start=first_line):
        if not line.strip():
            return number, "empty line"
        try:
            value = json.JSONDecoder().decode(line)
        except json.JSONDecodeError as err:
            return number, f"not valid JSON ({err.msg} at column {err.colno})"
        if isinstance(value, dict):
            if "text" not in value:
                return number, "object has no 'text' field"
            value = value["text"]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = "\n".join(value)
        if not isinstance(value, str):
            return number, "expected a string or a list of strings"
        texts.append(value)
    return tuple(texts)


def _read_jsonl(data: bytes, first_line: int = 1) -> tuple[str, ...] | tuple[int, str]:
    try:
        return parse_lines(data, "x.jsonl", first_line=first_line).texts
    except InputError as err:
        assert err.line is not None and err.source == "x.jsonl"
        return err.line, err.message


def _same(data: bytes, first_line: int = 1) -> None:
    """Both readers, the compiled one and Python's, give what decoding each line alone gives."""
    expected = _line_by_line(data, first_line)
    with pure_python():
        pure = _read_jsonl(data, first_line)
    for ours in (_read_jsonl(data, first_line), pure):
        if expected and isinstance(expected[0], int):  # an error: the same line, and the same reason
            assert ours[0] == expected[0] and str(ours[1]).startswith(str(expected[1])), (data, ours, expected)
        else:
            assert ours == expected, data


TRICKY_JSONL = [
    b'"plain"',
    rb'"escapes \" \\ \/ \b \f \n \r \t end"',
    rb'"\ud83d\ude00 a surrogate pair, \u00e9 and \u20ac"',
    rb'"\ud800 a lone surrogate \udfff"',
    rb'"\u2028 escaped line and paragraph separators \u2029"',
    '"raw \u2028 and \u2029 and \x85 and caf\u00e9 \u20ac \U0001f600"'.encode(),
    b'{"meta": {"text": "inner"}, "text": "outer", "more": [{"text": 1}]}',
    b'{"text": ["first .", "second ."], "id": 3}',
    b'{"text": "first", "text": "the last duplicate wins"}',
    b'{ "text" : "spaces inside" }',
    b'[ "a" , "b" ]',
    b'["one sentence"]',
    b"[]",
    b'"" ',
    b'  "leading whitespace"',
    b'\t"tabs around"\t',
    b'"a bare CR after the value"\r',
    b'{"text": "x", "n": 1e400, "m": NaN, "k": -Infinity}',
    rb'"\u0000 an escaped NUL is text"',
]


@pytest.mark.parametrize("line", TRICKY_JSONL)
def test_each_jsonl_line_reads_as_decoding_it_alone(line):
    many = (b'"before"\n' * 9, b"\n" + b'["after", "x"]\n' * 9)  # few lines left: the compiled reader's fallback
    for neighbours in ((b'"before"\n', b'\n"after"\n'), (b"", b"\n"), (b'["x", "y"]\n', b""), many):
        _same(neighbours[0] + line + neighbours[1])
    _same(b"\n".join(TRICKY_JSONL) + b"\n")
    _same(b"\r\n".join(TRICKY_JSONL) + b"\r\n")


BAD_JSONL = [
    b'"a" "b"',  # two values on a line
    b'"a", "b"',
    b'"a"x',
    b"[]]",
    b'["a",\n"b"]',  # a value spanning lines: valid as a whole, not line by line
    b'{"text":\n"x"}',
    b'"a"\n\n"b"',  # an empty line
    b'"a"\n   \n"b"',
    b'"unterminated',
    b'"a raw\ttab"',  # control characters must be escaped
    b"{'text': 'single quotes'}",
    b"3",
    b'{"txt": "no text field"}',
    b'["a", 1]',
    b'\xef\xbb\xbf"a byte-order mark in the middle"',
]


@pytest.mark.parametrize("bad", BAD_JSONL)
def test_a_bad_jsonl_line_is_named_as_decoding_it_alone_names_it(bad):
    """The error names the line that fails alone, after lines that are read by decoding them alone too."""
    data = b'"one"\n  "two"\n["three"]\n' + bad + b'\n"last"\n'
    assert isinstance(_line_by_line(data)[0], int)
    _same(data)
    _same(data, first_line=1001)  # a partition that starts further into the file
    _same(b'["a", "b"]\n' * 40 + data)  # one line of 45 left to Python by the compiled reader


def test_the_compiled_reader_takes_lines_in_the_shape_json_writes_and_leaves_the_others():
    compiled = kernel("jsonl")
    assert compiled is not None
    lines = [
        b'"a"',
        '["b", "c \u00e9"]'.encode(),
        b"[]",
        rb'"\u00e9\ud83d\ude00\"\n"',
        b'{"text": "x"}',  # left: an object
        b' "d"',  # left: whitespace around the value
        rb'"e\ud800"',  # left: a lone surrogate
        b'"\xff"',  # left: not UTF-8
        b'"f"',
    ]
    texts, left = compiled.segments(b"\n".join(lines))
    assert texts == ["a", "b\nc \u00e9", "", '\u00e9\U0001f600"\n', None, None, None, None, "f"]
    starts = [sum(len(line) + 1 for line in lines[:k]) for k in range(len(lines))]
    assert left == [(k, starts[k], starts[k] + len(lines[k])) for k in (4, 5, 6, 7)]


def test_the_compiled_reader_reads_a_file_of_many_blocks_and_a_line_longer_than_one():
    """Lines are parsed a block (1 MiB of segments) at a time; a longer line gets a block of its own."""
    compiled = kernel("jsonl")
    assert compiled is not None
    lines = [json.dumps(["w\u00e9 " * (k % 700), "x"]) for k in range(6000)]
    lines[2500] = json.dumps("y" * 1_500_000)  # longer than a block, between full ones
    lines[4000] = '{"text": "z"}'  # left to Python, in a later block
    data = "\n".join(lines).encode()
    assert len(data) > 4 << 20
    texts, left = compiled.segments(data)
    assert texts[:2500] == ["\n".join(json.loads(line)) for line in lines[:2500]]
    assert texts[2500] == "y" * 1_500_000 and texts[4000] is None
    assert texts[2501:4000] + texts[4001:] == ["\n".join(json.loads(line)) for line in lines[2501:4000] + lines[4001:]]
    start = sum(len(line.encode()) + 1 for line in lines[:4000])
    assert left == [(4000, start, start + len(lines[4000]))]


def test_a_jsonl_file_ending_in_an_empty_line_names_it():
    with pytest.raises(InputError, match=r"x.jsonl, line 3: empty line"):
        parse_segments(b'"a"\n"b"\n\n', "x.jsonl")
    assert parse_segments(b'"a"\n"b"', "x.jsonl").texts == ("a", "b")


JSON_PIECES = st.sampled_from(
    ['"a"', '"\\u00e9"', '"\\ud800"', '"\\n"', "\u2028", '"x\ty"', "[", "]", "{", "}", '"text"', ":", ",", " ",
     "\t", "\r", "\n", "\n", "\n", "1", "null", '"b c"', '["s", "t"]', '{"text": "v"}', "\ufeff"]
)  # fmt: skip


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(JSON_PIECES, max_size=30).map("".join))
def test_any_jsonl_text_reads_as_decoding_each_line_alone(text):
    data = text.encode()
    if data:
        _same(data)
        _same(b'"pad"\n' * 16 + data)  # few lines left to Python by the compiled reader


def test_tsv_column_chooser():
    data = b"id\ttext\n1\thello world\n2\tbye\n"
    assert table_columns(data, "t.tsv") == ["id", "text"]
    assert parse_segments(data, "t.tsv", column="text").texts == ("hello world", "bye")
    with pytest.raises(InputError, match="no column 'txt'"):
        parse_segments(data, "t.tsv", column="txt")


def test_mismatched_line_counts_list_every_file():
    with pytest.raises(InputError) as err:
        check_same_length([Segments("a", ("1", "2"), source="a.txt"), Segments("b", ("1",), source="b.txt")])
    assert "a.txt: 2 lines" in str(err.value) and "b.txt: 1 lines" in str(err.value)


def test_files_read_together_come_back_in_order_and_the_first_failing_one_is_named(tmp_path, monkeypatch):
    names = ["r.txt", "a.jsonl", "b.txt", "c.jsonl", "d.txt"]
    for k, name in enumerate(names):
        (tmp_path / name).write_text(json.dumps(f"segment {k}") if name.endswith(".jsonl") else f"segment {k}")
    paths = [tmp_path / name for name in names]
    for processors in (1, 2, 3):
        monkeypatch.setattr("metrics.io.inputs.processors", lambda processors=processors: processors)
        assert [f.texts for f in read_all(paths)] == [(f"segment {k}",) for k in range(5)]
        assert [f.name for f in read_all(paths)] == ["r", "a", "b", "c", "d"]
        # the fourth file is bad and the third is missing: the third is named, as when read one by one
        (tmp_path / "c.jsonl").write_text("{")
        with pytest.raises(InputError, match=r"b.txt: cannot read file"):
            read_all([*paths[:2], tmp_path / "missing" / "b.txt", *paths[3:]])
        with pytest.raises(InputError, match=r"c.jsonl, line 1: "):
            read_all(paths)
        (tmp_path / "c.jsonl").write_text(json.dumps("segment 3"))


def test_display_names():
    assert display_name("sys/baseline.sents.jsonl") == "baseline"
    assert display_name("ref.A.txt") == "ref.A"
