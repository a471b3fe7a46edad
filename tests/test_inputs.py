"""Bad input gets a clear error naming the file and line; nothing is lost or cut silently."""

from __future__ import annotations

import pytest

from metrics.io.inputs import (
    MAX_LINE_CHARS,
    InputError,
    Segments,
    check_same_length,
    display_name,
    parse_segments,
    table_columns,
)


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


def test_display_names():
    assert display_name("sys/baseline.sents.jsonl") == "baseline"
    assert display_name("ref.A.txt") == "ref.A"
