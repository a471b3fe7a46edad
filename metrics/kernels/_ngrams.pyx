# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Clipped n-gram matches in C, for the n-gram metrics (BLEU, chrF, ROUGE-N): for each order, the number of
hypothesis n-grams that the references allow, ``sum over n-grams g of min(count_hyp(g), max_k count_ref_k(g))`` —
BLEU's clipped counts, and with one reference chrF's and ROUGE-N's matches.

A sequence is a ``str`` (its characters are the items) or a list of integer ids (equal ids = equal tokens). Each
order gets one open-addressing table of the references' n-grams; keys are compared item by item, so the counts
are exact whatever the hash does. The pure-Python counters of each metric remain the reference the tests compare.
"""

from libc.stdlib cimport free, malloc
from libc.string cimport memset

ctypedef unsigned long long u64
ctypedef long long i64


cdef i64 *as_items(object seq, Py_ssize_t *length) except NULL:
    cdef Py_ssize_t n = len(seq), k = 0
    cdef i64 *out = <i64 *>malloc((n if n > 0 else 1) * sizeof(i64))
    cdef Py_UCS4 ch
    if out == NULL:
        raise MemoryError()
    if isinstance(seq, str):
        for ch in <str>seq:
            out[k] = ch
            k += 1
    else:
        for item in seq:
            out[k] = item
            k += 1
    length[0] = n
    return out


cdef inline u64 ngram_hash(const i64 *items, int n) noexcept nogil:
    cdef u64 h = 1469598103934665603ULL
    cdef int k
    for k in range(n):
        h = (h ^ <u64>items[k]) * 1099511628211ULL
        h ^= h >> 29
    return h


cdef inline bint same(const i64 *a, const i64 *b, int n) noexcept nogil:
    cdef int k
    for k in range(n):
        if a[k] != b[k]:
            return False
    return True


def clipped_matches(hyp, refs, int min_order, int max_order):
    """Clipped matches of ``hyp`` against ``refs`` for every order ``min_order..max_order`` (a list)."""
    # sizes, positions and counts are Py_ssize_t: a reference corpus of 2^30 items would overflow an int table size
    cdef Py_ssize_t hyp_len, total = 0, length, i, slot, mask, size
    cdef int nrefs = len(refs), k, n
    cdef i64 *h = as_items(hyp, &hyp_len)
    cdef i64 **r = <i64 **>malloc((nrefs if nrefs else 1) * sizeof(i64 *))
    cdef Py_ssize_t *rlen = <Py_ssize_t *>malloc((nrefs if nrefs else 1) * sizeof(Py_ssize_t))
    if r == NULL or rlen == NULL:
        free(h); free(r); free(rlen)
        raise MemoryError()
    for k in range(nrefs):
        r[k] = NULL
    try:
        for k in range(nrefs):
            r[k] = as_items(refs[k], &length)
            rlen[k] = length
            total += length
    except BaseException:
        for k in range(nrefs):
            free(r[k])
        free(h); free(r); free(rlen)
        raise
    size = 16
    while size < 2 * total + 2:
        size *= 2
    mask = size - 1
    # per slot: the n-gram (its reference and start), the count in the reference being read (with that
    # reference's stamp), and the largest count over references so far (then: what the hypothesis may still use)
    cdef int *owner = <int *>malloc(size * sizeof(int))
    cdef Py_ssize_t *start = <Py_ssize_t *>malloc(size * sizeof(Py_ssize_t))
    cdef int *stamps = <int *>malloc(size * sizeof(int))
    cdef Py_ssize_t *current = <Py_ssize_t *>malloc(size * sizeof(Py_ssize_t))
    cdef Py_ssize_t *allowed = <Py_ssize_t *>malloc(size * sizeof(Py_ssize_t))
    cdef i64 *out = <i64 *>malloc((max_order - min_order + 1 if max_order >= min_order else 1) * sizeof(i64))
    cdef i64 matched
    cdef const i64 *gram
    if owner == NULL or start == NULL or stamps == NULL or current == NULL or allowed == NULL or out == NULL:
        for k in range(nrefs):
            free(r[k])
        free(h); free(r); free(rlen); free(owner); free(start); free(stamps); free(current); free(allowed)
        free(out)
        raise MemoryError()
    with nogil:
        for n in range(min_order, max_order + 1):
            memset(owner, 0xff, size * sizeof(int))
            for k in range(nrefs):
                for i in range(rlen[k] - n + 1):
                    gram = r[k] + i
                    slot = <Py_ssize_t>(ngram_hash(gram, n) & <u64>mask)
                    while owner[slot] >= 0 and not same(r[owner[slot]] + start[slot], gram, n):
                        slot = (slot + 1) & mask
                    if owner[slot] < 0:
                        owner[slot] = k
                        start[slot] = i
                        stamps[slot] = k
                        current[slot] = 0
                        allowed[slot] = 0
                    elif stamps[slot] != k:
                        stamps[slot] = k
                        current[slot] = 0
                    current[slot] += 1
                    if current[slot] > allowed[slot]:
                        allowed[slot] = current[slot]
            matched = 0
            for i in range(hyp_len - n + 1):
                gram = h + i
                slot = <Py_ssize_t>(ngram_hash(gram, n) & <u64>mask)
                while owner[slot] >= 0 and not same(r[owner[slot]] + start[slot], gram, n):
                    slot = (slot + 1) & mask
                if owner[slot] >= 0 and allowed[slot] > 0:
                    allowed[slot] -= 1
                    matched += 1
            out[n - min_order] = matched
    result = [out[n - min_order] for n in range(min_order, max_order + 1)]
    for k in range(nrefs):
        free(r[k])
    free(h); free(r); free(rlen); free(owner); free(start); free(stamps); free(current); free(allowed)
    free(out)
    return result
