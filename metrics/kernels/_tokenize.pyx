# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""sacrebleu's 13a post-tokenization in C: the four regular expressions of mteval-v13a, each applied to the whole
line with ``re.sub`` semantics (leftmost match, matches never overlap, the scan resumes after a match), then the
whitespace normalization. Every pattern matches exactly two characters or one, so each is a single left-to-right
scan. :func:`metrics.families.bleu.tokenizers.tokenize_13a`'s regular expressions remain the reference the tests compare.
"""

from cpython.pyport cimport PY_SSIZE_T_MAX
from cpython.unicode cimport PyUnicode_FromKindAndData
from libc.stdlib cimport free, malloc

cdef extern from "Python.h":
    int PyUnicode_4BYTE_KIND
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)


cdef inline bint symbol(Py_UCS4 c) noexcept nogil:
    # [\{-\~\[-\` -\&\(-\+\:-\@\/]
    return ((0x7b <= c <= 0x7e) or (0x5b <= c <= 0x60) or (0x20 <= c <= 0x26) or (0x28 <= c <= 0x2b)
            or (0x3a <= c <= 0x40) or c == 0x2f)


cdef inline bint digit(Py_UCS4 c) noexcept nogil:
    return 0x30 <= c <= 0x39


cdef inline bint period_comma(Py_UCS4 c) noexcept nogil:
    return c == 0x2e or c == 0x2c


def post_13a(str line):
    """``_post_13a`` of :mod:`metrics.families.bleu.tokenizers`: the line tokenized, tokens joined by single spaces."""
    cdef Py_ssize_t n = len(line), i, k = 0, j
    cdef Py_UCS4 *a = NULL
    cdef Py_UCS4 *b = NULL
    cdef Py_UCS4 c
    if n > (PY_SSIZE_T_MAX // <Py_ssize_t>sizeof(Py_UCS4) - 1) // 6:  # the buffers' sizes below would overflow
        raise MemoryError(f"post_13a: a line of {n:,} characters is too long to tokenize")
    a = <Py_UCS4 *>malloc((3 * n + 1) * sizeof(Py_UCS4))
    b = <Py_UCS4 *>malloc((6 * n + 1) * sizeof(Py_UCS4))
    if a == NULL or b == NULL:
        free(a); free(b)
        raise MemoryError()
    # 1: ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> " \1 "
    for c in line:
        if symbol(c):
            a[k] = 0x20; a[k + 1] = c; a[k + 2] = 0x20
            k += 3
        else:
            a[k] = c
            k += 1
    n = k
    # 2: ([^0-9])([\.,]) -> "\1 \2 "
    i = k = 0
    while i < n:
        if i + 1 < n and not digit(a[i]) and period_comma(a[i + 1]):
            b[k] = a[i]; b[k + 1] = 0x20; b[k + 2] = a[i + 1]; b[k + 3] = 0x20
            k += 4
            i += 2
        else:
            b[k] = a[i]
            k += 1
            i += 1
    n = k
    # 3: ([\.,])([^0-9]) -> " \1 \2"
    free(a)
    a = <Py_UCS4 *>malloc((2 * n + 1) * sizeof(Py_UCS4))
    if a == NULL:
        free(b)
        raise MemoryError()
    i = k = 0
    while i < n:
        if i + 1 < n and period_comma(b[i]) and not digit(b[i + 1]):
            a[k] = 0x20; a[k + 1] = b[i]; a[k + 2] = 0x20; a[k + 3] = b[i + 1]
            k += 4
            i += 2
        else:
            a[k] = b[i]
            k += 1
            i += 1
    n = k
    # 4: ([0-9])(-) -> "\1 \2 " ; then " ".join(line.split())
    free(b)
    b = <Py_UCS4 *>malloc((2 * n + 1) * sizeof(Py_UCS4))
    if b == NULL:
        free(a)
        raise MemoryError()
    i = k = 0
    while i < n:
        if i + 1 < n and digit(a[i]) and a[i + 1] == 0x2d:
            b[k] = a[i]; b[k + 1] = 0x20; b[k + 2] = 0x2d; b[k + 3] = 0x20
            k += 4
            i += 2
        else:
            b[k] = a[i]
            k += 1
            i += 1
    n = k
    k = 0
    j = 0  # whether a space is pending between tokens
    for i in range(n):  # in place: every space written replaces at least one whitespace character read
        c = b[i]
        if Py_UNICODE_ISSPACE(c):
            if k > 0:
                j = 1
        else:
            if j:
                b[k] = 0x20
                k += 1
                j = 0
            b[k] = c
            k += 1
    result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, b, k)
    free(a); free(b)
    return result
