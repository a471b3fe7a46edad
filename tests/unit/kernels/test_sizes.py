"""The compiled kernels' size arithmetic at its limits: a table too large for one pair is refused with a message
naming the lengths before anything is allocated (65,536-word lines used to overflow TER's int matrix size and crash
the process), and the sizes are computed without overflow. Nothing here allocates more than a few megabytes."""

from __future__ import annotations

import resource
from types import ModuleType

import pytest

from metrics.kernels import kernel


def _compiled(name: str) -> ModuleType:
    module = kernel(name)
    if module is None:
        pytest.skip(f"the {name} kernel is not built")
    return module


def test_ter_table_size_is_exact_past_32_bits() -> None:
    ter = _compiled("ter")
    # 65,537² cells are more than 2^32: a 32-bit product wraps to a small number and the kernel wrote past it
    assert ter.table_bytes(65_536, 65_536) == 9 * 65_537**2
    assert ter.table_bytes(0, 0) == 9


@pytest.mark.parametrize("words", [65_536, 60_000, 15_446])
def test_ter_refuses_a_pair_over_its_table_bound_without_allocating(words: int) -> None:
    """15,446 words is the first square size over the 2 GiB bound (15,447² × 9 bytes); 60,000 words raised a bare
    MemoryError and 65,536 words crashed the process before."""
    ter = _compiled("ter")
    assert ter.table_bytes(15_446, 15_446) > ter.MAX_TABLE_BYTES >= ter.table_bytes(15_445, 15_445)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(MemoryError, match=f"{words:,} words against a reference of {words:,} words"):
        ter.ter_pair(list(range(words)), list(range(words, 0, -1)))
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 64 * 1024  # KiB: no table was made


def test_ter_still_scores_an_uneven_pair_under_the_bound() -> None:
    """A long hypothesis against a short reference has a small table: scored, with the edits a wrong size would
    miss (4,000 hypothesis words, 3 of them the reference's in order: 3,997 deletions)."""
    ter = _compiled("ter")
    hyp = [9] * 4_000
    hyp[10], hyp[20], hyp[30] = 0, 1, 2
    edits, shifts, subs, ups, lefts, *_ = ter.ter_pair(hyp, [0, 1, 2])
    assert (edits, shifts, subs, ups, lefts) == (3_997, 0, 0, 3_997, 0)


def test_rouge_lcs_of_a_long_text_of_few_words() -> None:
    """ROUGE-L's bit masks are one row per distinct token: 200,000 tokens of two words are 2 rows, and the LCS is
    exact (the hypothesis alternates a/b, the reference is all a: LCS = the hypothesis's 100,000 a's)."""
    rouge = _compiled("rouge")
    vocabulary = rouge.Vocabulary()
    ref = vocabulary.encode("a " * 150_000)
    row = list(rouge.lcs_rows(vocabulary, ["a b " * 100_000], [[ref]]))
    assert row[3:6] == [100_000.0, 200_000.0, 150_000.0]
