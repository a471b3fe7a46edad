# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""sacrebleu 2.6.0's TER shift search (``lib_ter.translation_edit_rate``) in C: the same banded DP with the same
operation preferences, the same candidate enumeration and filters, the same cumulative candidate cap and the same
ranking of shifts. It returns only what a TER statistics row needs; :mod:`metrics.families.ter.search` (pure Python) keeps
the whole trace for explanations and is the source of truth the tests compare this kernel with, row for row.

Words are integer ids (equal ids = equal words). A candidate's banded DP starts from the current hypothesis's row
at its first changed position and stops as soon as one of its rows, past the changed region, equals the current
hypothesis's row plus a constant: every later cell is then the current one plus that constant.
"""

from libc.limits cimport INT_MAX
from libc.math cimport ceil, floor
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

cdef enum:
    MAX_SHIFT_SIZE = 10
    MAX_SHIFT_DIST = 50
    BEAM_WIDTH = 25
    MAX_CANDIDATES = 1000
    OP_UNDEF = 0
    OP_NOP = 1
    OP_SUB = 2
    OP_UP = 3    # sacrebleu's 'd' before flipping: consumes a hypothesis word
    OP_LEFT = 4  # sacrebleu's 'i' before flipping: consumes a reference word

cdef long long INF = 10000000000000000  # sacrebleu's _INT_INFINITY
# The most bytes the cost and operation tables of one pair may take: past it a pair is refused with a clear error
# rather than left to malloc (which may grant it lazily and let the first touch kill the process).
# metrics.core.limits.TER keeps every text the metric scores far below it.
MAX_TABLE_BYTES = 1 << 31
# Candidates between two calls of ter_pair's ``check``: one candidate of a 5,000-word line is a banded DP of
# milliseconds, so a stop is heard within a fraction of a second while a short line pays nothing.
cdef int CHECK_EVERY = 16


cdef struct Band:
    int n
    int m
    int beam
    bint full  # the band covers the whole matrix
    int *lo  # first column computed in row i
    int *hi  # one past the last


cdef int band_init(Band *b, int n, int m) noexcept nogil:
    cdef double ratio = <double>m / <double>n
    cdef int beam = BEAM_WIDTH
    cdef int i, diag
    if BEAM_WIDTH < ratio / 2:
        beam = <int>ceil(ratio / 2 + BEAM_WIDTH)
    b.n = n
    b.m = m
    b.beam = beam
    b.lo = <int *>malloc(<size_t>(n + 1) * sizeof(int))
    b.hi = <int *>malloc(<size_t>(n + 1) * sizeof(int))
    if b.lo == NULL or b.hi == NULL:
        return -1
    b.lo[0] = 0
    b.hi[0] = m + 1
    for i in range(1, n + 1):
        diag = <int>floor(i * ratio)
        b.lo[i] = diag - beam if diag - beam > 0 else 0
        b.hi[i] = diag + beam if diag + beam < m + 1 else m + 1
        if i == n:
            b.hi[i] = m + 1
    b.full = True
    for i in range(1, n + 1):
        if b.lo[i] != 0 or b.hi[i] != m + 1:
            b.full = False
    return 0


cdef void band_row(
    const Band *b, int i, int word, const int *ref, const long long *prev, long long *row,
    unsigned char *ops, const long long *inf_row
) noexcept nogil:
    """Row ``i`` of sacrebleu's ``_edit_distance`` from row ``i - 1``: cells outside the band stay infinite; ties
    prefer the diagonal, then up (a hypothesis word), then left (a reference word)."""
    cdef Py_ssize_t m1 = b.m + 1
    cdef int j, lo = b.lo[i], hi = b.hi[i]
    cdef long long best, c
    cdef unsigned char op
    memcpy(row, inf_row, m1 * sizeof(long long))
    for j in range(lo, hi):
        if j == 0:
            row[0] = prev[0] + 1
            op = OP_UP
        else:
            best = INF
            op = OP_UNDEF
            if word == ref[j - 1]:
                c = prev[j - 1]
                if best > c:
                    best = c
                    op = OP_NOP
            else:
                c = prev[j - 1] + 1
                if best > c:
                    best = c
                    op = OP_SUB
            c = prev[j] + 1
            if best > c:
                best = c
                op = OP_UP
            c = row[j - 1] + 1
            if best > c:
                best = c
                op = OP_LEFT
            row[j] = best
        if ops != NULL:
            ops[j] = op


cdef void perform_shift(const int *words, int n, int start, int length, int target, int *out) noexcept nogil:
    """sacrebleu's ``_perform_shift`` into ``out`` (``n`` words in, ``n`` out)."""
    cdef int k = 0, p, end
    if target < start:
        for p in range(target):
            out[k] = words[p]; k += 1
        for p in range(start, start + length):
            out[k] = words[p]; k += 1
        for p in range(target, start):
            out[k] = words[p]; k += 1
        for p in range(start + length, n):
            out[k] = words[p]; k += 1
    elif target > start + length:
        for p in range(start):
            out[k] = words[p]; k += 1
        for p in range(start + length, target):
            out[k] = words[p]; k += 1
        for p in range(start, start + length):
            out[k] = words[p]; k += 1
        for p in range(target, n):
            out[k] = words[p]; k += 1
    else:
        # Python's slices stop at the end of the list: length + target may lie past it
        end = length + target if length + target < n else n
        for p in range(start):
            out[k] = words[p]; k += 1
        for p in range(start + length, end):
            out[k] = words[p]; k += 1
        for p in range(start, start + length):
            out[k] = words[p]; k += 1
        for p in range(end, n):
            out[k] = words[p]; k += 1


cdef long long candidate_distance(
    const Band *b, const int *words, int first, int region_end, const int *ref, const long long *base,
    long long *buf, const long long *inf_row
) noexcept nogil:
    """Banded distance of ``words``, equal to the current hypothesis up to position ``first`` and from
    ``region_end`` on, whose rows are ``base``."""
    cdef Py_ssize_t m1 = b.m + 1  # offsets into the (n + 1) × (m + 1) tables need more than an int
    cdef int i, j
    cdef const long long *prev = base + first * m1
    cdef long long *row
    cdef const long long *here
    cdef long long delta
    cdef bint same, anchored
    for i in range(first + 1, b.n + 1):
        row = buf + (i & 1) * m1
        band_row(b, i, words[i - 1], ref, prev, row, NULL, inf_row)
        if i >= region_end and i < b.n:
            here = base + i * m1
            same = True
            anchored = False
            delta = 0
            for j in range(b.lo[i], b.hi[i]):
                if (row[j] >= INF) != (here[j] >= INF):
                    same = False
                    break
                if row[j] < INF:
                    if not anchored:
                        delta = row[j] - here[j]
                        anchored = True
                    elif row[j] - here[j] != delta:
                        same = False
                        break
            if same and anchored:
                return base[b.n * m1 + b.m] + delta
        prev = row
    return prev[b.m]


ctypedef unsigned long long u64


cdef long long myers_distance(
    const int *words, int start, int n, const u64 *peq, int vocab, u64 mask, u64 top, u64 vp, u64 vn,
    long long score
) noexcept nogil:
    """Unrestricted Levenshtein distance of ``words`` to a reference of at most 64 words (Myers 1999), resuming
    from the bit state of row ``start``; ``peq[w]`` has bit ``j`` set where the reference holds word ``w``."""
    cdef int k
    cdef u64 eq, xv, xh, ph, mh, phs
    for k in range(start, n):
        eq = peq[words[k]] if 0 <= words[k] < vocab else 0
        xv = eq | vn
        xh = (((eq & vp) + vp) ^ vp) | eq
        ph = (vn | ~(xh | vp)) & mask
        mh = vp & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        phs = ((ph << 1) | 1) & mask
        vp = (((mh << 1) & mask) | ~(xv | phs)) & mask
        vn = phs & xv
    return score


def table_bytes(Py_ssize_t n, Py_ssize_t m):
    """The bytes :func:`ter_pair`'s tables take for ``n`` hypothesis and ``m`` reference words (a cost and an
    operation per cell of the (n + 1) × (m + 1) matrix), computed without overflow: a Python int."""
    return (n + 1) * (m + 1) * (sizeof(long long) + sizeof(unsigned char))


def ter_pair(hyp_ids, ref_ids, check=None):
    """``(edits, shifts, substitutions, hypothesis-only words, reference-only words, rounds, candidates)`` of
    sacrebleu's TER of one hypothesis against one reference (``ref_len`` is ``len(ref_ids)``): ``rounds`` shift
    searches ran and ``candidates`` shifts were evaluated, which bound the work the pure-Python search spends.
    A pair whose tables would pass ``MAX_TABLE_BYTES`` is refused (``MemoryError`` naming both lengths) before
    anything is allocated. ``check()``, when given, is called every ``CHECK_EVERY`` candidates and each round, so
    that it can stop a long search by raising (:func:`metrics.core.checkpoint.checkpoint`)."""
    if len(hyp_ids) >= INT_MAX or len(ref_ids) >= INT_MAX or table_bytes(len(hyp_ids), len(ref_ids)) > MAX_TABLE_BYTES:
        raise MemoryError(
            f"TER: a hypothesis of {len(hyp_ids):,} words against a reference of {len(ref_ids):,} words needs "
            f"{table_bytes(len(hyp_ids), len(ref_ids)) / 2**30:.1f} GiB of tables, over the {MAX_TABLE_BYTES / 2**30:.0f} "
            "GiB one pair may take (metrics.core.limits.TER keeps the texts the metric scores below it)"
        )
    cdef int n = len(hyp_ids), m = len(ref_ids)
    if m == 0:
        return n, 0, 0, n, 0, 0, 0
    if n == 0:
        return m, 0, 0, 0, m, 0, 0
    cdef Py_ssize_t m1 = m + 1
    cdef Band band
    cdef int i, j, k, t, length, offset, idx, prev_idx, start_h, start_r, r_lo, r_hi, first, region_end
    cdef int *ref = <int *>malloc(m * sizeof(int))
    cdef int *cur = <int *>malloc(n * sizeof(int))
    cdef int *cand = <int *>malloc(n * sizeof(int))
    cdef int *align = <int *>malloc(m * sizeof(int))
    cdef int *ref_err = <int *>malloc(m * sizeof(int))
    cdef int *hyp_err = <int *>malloc(n * sizeof(int))
    cdef unsigned char *trace = <unsigned char *>malloc((n + m) * sizeof(unsigned char))
    cdef long long *cost = <long long *>malloc(<size_t>(n + 1) * <size_t>m1 * sizeof(long long))
    cdef unsigned char *ops = <unsigned char *>malloc(<size_t>(n + 1) * <size_t>m1 * sizeof(unsigned char))
    cdef long long *buf = <long long *>malloc(2 * m1 * sizeof(long long))
    cdef long long *inf_row = <long long *>malloc(m1 * sizeof(long long))
    # Bit-parallel (unrestricted) distances where they provably equal the banded ones: the band covers the whole
    # matrix, or the distance d is at most beam - 2 (a path of cost d stays within d + 1 cells of the
    # pseudo-diagonal, so an optimal one lies inside the band).
    cdef bint bits = m <= 64
    cdef int vocab = 1
    for j in range(m):
        if ref_ids[j] + 1 > vocab:
            vocab = ref_ids[j] + 1
    cdef u64 *peq = <u64 *>malloc(vocab * sizeof(u64))
    cdef u64 *bvp = <u64 *>malloc((n + 1) * sizeof(u64))
    cdef u64 *bvn = <u64 *>malloc((n + 1) * sizeof(u64))
    cdef long long *bscore = <long long *>malloc((n + 1) * sizeof(long long))
    cdef u64 mask = (~<u64>0) if m == 64 else ((<u64>1 << m) - 1)
    cdef u64 top = <u64>1 << (m - 1)
    cdef u64 eq, xv, xh, ph, mh, phs, vp, vn
    cdef long long score
    band.lo = NULL
    band.hi = NULL
    if (ref == NULL or cur == NULL or cand == NULL or align == NULL or ref_err == NULL or hyp_err == NULL
            or trace == NULL or cost == NULL or ops == NULL or buf == NULL or inf_row == NULL
            or peq == NULL or bvp == NULL or bvn == NULL or bscore == NULL or band_init(&band, n, m) != 0):
        free(ref); free(cur); free(cand); free(align); free(ref_err); free(hyp_err); free(trace); free(cost)
        free(ops); free(buf); free(inf_row); free(band.lo); free(band.hi); free(peq); free(bvp); free(bvn)
        free(bscore)
        raise MemoryError()
    cdef int rounds = 0, shifts = 0, checked = 0, pos_h, pos_r, steps, best_len, best_start, best_idx
    cdef long long distance, d, gain, best_gain
    cdef bint have_best, err, capped
    cdef int subs = 0, ups = 0, lefts = 0
    cdef bint has_check = check is not None
    try:
        for j in range(m):
            ref[j] = ref_ids[j]
        for i in range(n):
            cur[i] = hyp_ids[i]
        for j in range(vocab):
            peq[j] = 0
        if bits:
            for j in range(m):
                peq[ref[j]] |= <u64>1 << j
        with nogil:
            for j in range(m1):
                inf_row[j] = INF
                cost[j] = j
                ops[j] = OP_LEFT
            while True:
                rounds += 1
                if has_check:
                    with gil:
                        check()
                for i in range(1, n + 1):
                    band_row(&band, i, cur[i - 1], ref, cost + (i - 1) * m1, cost + i * m1, ops + i * m1, inf_row)
                distance = cost[n * m1 + m]
                if bits:
                    vp = mask
                    vn = 0
                    score = m
                    bvp[0] = vp
                    bvn[0] = vn
                    bscore[0] = score
                    for i in range(n):
                        eq = peq[cur[i]] if 0 <= cur[i] < vocab else 0
                        xv = eq | vn
                        xh = (((eq & vp) + vp) ^ vp) | eq
                        ph = (vn | ~(xh | vp)) & mask
                        mh = vp & xh
                        if ph & top:
                            score += 1
                        elif mh & top:
                            score -= 1
                        phs = ((ph << 1) | 1) & mask
                        vp = (((mh << 1) & mask) | ~(xv | phs)) & mask
                        vn = phs & xv
                        bvp[i + 1] = vp
                        bvn[i + 1] = vn
                        bscore[i + 1] = score
                # the trace, first step first (sacrebleu reads it back from (n, m) and prepends)
                i = n
                j = m
                steps = 0
                while i > 0 or j > 0:
                    t = ops[i * m1 + j]
                    trace[steps] = <unsigned char>t
                    steps += 1
                    if t == OP_NOP or t == OP_SUB:
                        i -= 1
                        j -= 1
                    elif t == OP_LEFT:
                        j -= 1
                    else:
                        i -= 1
                # trace_to_alignment of the flipped trace
                pos_h = -1
                pos_r = -1
                for k in range(steps - 1, -1, -1):
                    t = trace[k]
                    if t == OP_NOP or t == OP_SUB:
                        pos_h += 1
                        pos_r += 1
                        align[pos_r] = pos_h
                        hyp_err[pos_h] = t == OP_SUB
                        ref_err[pos_r] = t == OP_SUB
                    elif t == OP_UP:
                        pos_h += 1
                        hyp_err[pos_h] = 1
                    else:
                        pos_r += 1
                        align[pos_r] = pos_h
                        ref_err[pos_r] = 1
                have_best = False
                best_gain = 0
                best_len = best_start = best_idx = 0
                capped = False
                for start_h in range(n):
                    r_lo = start_h - MAX_SHIFT_DIST if start_h - MAX_SHIFT_DIST > 0 else 0
                    r_hi = start_h + MAX_SHIFT_DIST + 1 if start_h + MAX_SHIFT_DIST + 1 < m else m
                    for start_r in range(r_lo, r_hi):
                        length = 0
                        while cur[start_h + length] == ref[start_r + length] and length < MAX_SHIFT_SIZE:
                            length += 1
                            err = False
                            for k in range(start_h, start_h + length):
                                if hyp_err[k]:
                                    err = True
                                    break
                            if err:
                                err = False
                                for k in range(start_r, start_r + length):
                                    if ref_err[k]:
                                        err = True
                                        break
                            if err and not (start_h <= align[start_r] < start_h + length):
                                prev_idx = -1
                                for offset in range(-1, length):
                                    idx = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                                    if idx == prev_idx:
                                        continue
                                    prev_idx = idx
                                    perform_shift(cur, n, start_h, length, idx, cand)
                                    first = idx if idx < start_h else start_h
                                    if idx < start_h:
                                        region_end = start_h + length
                                    elif idx > start_h + length:
                                        region_end = idx
                                    else:
                                        region_end = idx + length
                                    d = -1
                                    if bits:
                                        d = myers_distance(cand, first, n, peq, vocab, mask, top, bvp[first], bvn[first],
                                                           bscore[first])
                                        if not (band.full or d <= band.beam - 2):
                                            d = -1
                                    if d < 0:
                                        d = candidate_distance(&band, cand, first, region_end, ref, cost, buf, inf_row)
                                    gain = distance - d
                                    checked += 1
                                    if has_check and checked % CHECK_EVERY == 0:
                                        with gil:
                                            check()
                                    if (not have_best or gain > best_gain
                                            or (gain == best_gain and (length > best_len
                                                or (length == best_len and (start_h < best_start
                                                    or (start_h == best_start and idx < best_idx)))))):
                                        have_best = True
                                        best_gain = gain
                                        best_len = length
                                        best_start = start_h
                                        best_idx = idx
                                if checked >= MAX_CANDIDATES:
                                    capped = True
                                    break
                            if n == start_h + length or m == start_r + length:
                                break
                        if capped:
                            break
                    if capped:
                        break
                if capped or not have_best or best_gain <= 0:
                    break
                perform_shift(cur, n, best_start, best_len, best_idx, cand)
                memcpy(cur, cand, n * sizeof(int))
                shifts += 1
            for k in range(steps):
                t = trace[k]
                if t == OP_SUB:
                    subs += 1
                elif t == OP_UP:
                    ups += 1
                elif t == OP_LEFT:
                    lefts += 1
    finally:
        free(ref); free(cur); free(cand); free(align); free(ref_err); free(hyp_err); free(trace); free(cost)
        free(ops); free(buf); free(inf_row); free(band.lo); free(band.hi); free(peq); free(bvp); free(bvn)
        free(bscore)
    return shifts + distance, shifts, subs, ups, lefts, rounds, checked
