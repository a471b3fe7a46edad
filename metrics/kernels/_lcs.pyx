# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Longest common subsequences of id sequences in C, for ROUGE-L and ROUGE-Lsum (rouge-score 0.1.2 semantics).

:func:`lcs_length` is the DP grid's last cell; :func:`summary_hits` is rouge-score's ``_summary_level_lcs``:
for each reference sentence in order, the union of the reference positions on one backtracked LCS with every
hypothesis sentence (diagonal on equal tokens, else left only when the left cell is strictly greater than the
upper one), each position credited while its token has counts left in both whole texts. :mod:`metrics.rouge.lcs`
(pure Python) stays the reference the tests compare and the source of every explanation.
"""

from libc.stdlib cimport free, malloc
from libc.string cimport memset


cdef long long *as_ids(object seq, Py_ssize_t *length) except NULL:
    cdef Py_ssize_t n = len(seq), k = 0
    cdef long long *out = <long long *>malloc((n if n > 0 else 1) * sizeof(long long))
    if out == NULL:
        raise MemoryError()
    for item in seq:
        out[k] = item
        k += 1
    length[0] = n
    return out


cdef int lcs_cells(const long long *a, int m, const long long *b, int n, int *table) noexcept nogil:
    """Fill the (m + 1) x (n + 1) grid of LCS lengths of a[:i] and b[:j]; return the last cell."""
    cdef int i, j, left, up, n1 = n + 1
    memset(table, 0, n1 * sizeof(int))
    for i in range(1, m + 1):
        table[i * n1] = 0
        for j in range(1, n + 1):
            if a[i - 1] == b[j - 1]:
                table[i * n1 + j] = table[(i - 1) * n1 + j - 1] + 1
            else:
                up = table[(i - 1) * n1 + j]
                left = table[i * n1 + j - 1]
                table[i * n1 + j] = up if up > left else left
    return table[m * n1 + n]


def lcs_length(ref, hyp):
    """Length of the longest common subsequence of two id sequences."""
    cdef Py_ssize_t m, n
    cdef long long *a = as_ids(ref, &m)
    cdef long long *b
    try:
        b = as_ids(hyp, &n)
    except BaseException:
        free(a)
        raise
    cdef int *prev = <int *>malloc((n + 1) * sizeof(int))
    cdef int *row = <int *>malloc((n + 1) * sizeof(int))
    cdef int *swap
    cdef int i, j, result
    if prev == NULL or row == NULL:
        free(a); free(b); free(prev); free(row)
        raise MemoryError()
    with nogil:
        memset(prev, 0, (n + 1) * sizeof(int))
        row[0] = 0
        for i in range(m):
            for j in range(1, n + 1):
                if a[i] == b[j - 1]:
                    row[j] = prev[j - 1] + 1
                else:
                    row[j] = prev[j] if prev[j] > row[j - 1] else row[j - 1]
            swap = prev
            prev = row
            row = swap
        result = prev[n]
    free(a); free(b); free(prev); free(row)
    return result


def summary_hits(ref, ref_ends, hyp, hyp_ends, int vocab):
    """Clipped union-LCS hits of a summary: ``ref`` and ``hyp`` are whole texts as ids in ``0..vocab-1`` (a
    hypothesis id outside that range occurs in no reference), ``*_ends`` the end of every sentence in them."""
    cdef Py_ssize_t m, n, rs, hs
    cdef long long *a = as_ids(ref, &m)
    cdef long long *b = NULL
    cdef long long *ra = NULL
    cdef long long *he = NULL
    try:
        b = as_ids(hyp, &n)
        ra = as_ids(ref_ends, &rs)
        he = as_ids(hyp_ends, &hs)
    except BaseException:
        free(a); free(b); free(ra); free(he)
        raise
    cdef int longest_ref = 1, longest_hyp = 1, s, t, start, end, hstart, hend, i, j, k, hits = 0, n1
    cdef long long token
    start = 0
    for s in range(rs):
        if ra[s] - start > longest_ref:
            longest_ref = <int>(ra[s] - start)
        start = <int>ra[s]
    start = 0
    for s in range(hs):
        if he[s] - start > longest_hyp:
            longest_hyp = <int>(he[s] - start)
        start = <int>he[s]
    cdef int *table = <int *>malloc((longest_ref + 1) * (longest_hyp + 1) * sizeof(int))
    cdef int *ref_left = <int *>malloc((vocab if vocab > 0 else 1) * sizeof(int))
    cdef int *hyp_left = <int *>malloc((vocab if vocab > 0 else 1) * sizeof(int))
    cdef unsigned char *on_path = <unsigned char *>malloc(longest_ref * sizeof(unsigned char))
    if table == NULL or ref_left == NULL or hyp_left == NULL or on_path == NULL:
        free(a); free(b); free(ra); free(he); free(table); free(ref_left); free(hyp_left); free(on_path)
        raise MemoryError()
    with nogil:
        memset(ref_left, 0, vocab * sizeof(int))
        memset(hyp_left, 0, vocab * sizeof(int))
        for i in range(m):
            ref_left[a[i]] += 1
        for j in range(n):
            if 0 <= b[j] < vocab:
                hyp_left[b[j]] += 1
        start = 0
        for s in range(rs):
            end = <int>ra[s]
            memset(on_path, 0, longest_ref)
            hstart = 0
            for t in range(hs):
                hend = <int>he[t]
                n1 = hend - hstart + 1
                lcs_cells(a + start, end - start, b + hstart, hend - hstart, table)
                i = end - start
                j = hend - hstart
                while i > 0 and j > 0:
                    if a[start + i - 1] == b[hstart + j - 1]:
                        on_path[i - 1] = 1
                        i -= 1
                        j -= 1
                    elif table[i * n1 + j - 1] > table[(i - 1) * n1 + j]:
                        j -= 1
                    else:
                        i -= 1
                hstart = hend
            for k in range(end - start):
                if on_path[k]:
                    token = a[start + k]
                    if hyp_left[token] > 0 and ref_left[token] > 0:
                        hits += 1
                        hyp_left[token] -= 1
                        ref_left[token] -= 1
            start = end
    free(a); free(b); free(ra); free(he); free(table); free(ref_left); free(hyp_left); free(on_path)
    return hits
