# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""nltk 3.10.4's ``PorterStemmer`` (mode NLTK_EXTENSIONS, the one rouge-score and nltk's METEOR use) in C.

Step by step the rules of ``nltk/stem/porter.py`` in their order, with its quirks: a rule list stops at the first
suffix that matches whether or not its condition holds; ``*d`` is tried both as "ends in a double consonant" and
as the literal suffix ``*d``; only ``a e i o u`` are vowels and ``y`` is a consonant unless it follows one; the
irregular forms (``skies`` → ``sky``, ``dying`` → ``die``, …); words of at most two characters (counted before
lowercasing) are only lowercased. Tests compare it with nltk on every word of the shared data and on generated
words; :func:`stem` is what ``PorterStemmer().stem`` returns, and ``stem_ascii`` (``_porter.pxd``) the same for the
ROUGE kernel's lowercase ASCII tokens, without the GIL.
"""

from cpython.unicode cimport PyUnicode_FromKindAndData
from libc.limits cimport INT_MAX
from libc.stdlib cimport free, malloc

cdef extern from "Python.h":
    int PyUnicode_4BYTE_KIND

cdef enum Cond:
    ALWAYS
    M_GT0          # measure(stem) > 0
    M_GT1          # measure(stem) > 1
    M1_CVC         # measure(stem) == 1 and ends_cvc(stem)
    NOT_LSZ        # the word's last letter is not l, s or z (step 1b's double consonant)
    CONS_BEFORE_Y  # len(stem) > 1 and stem ends in a consonant (step 1c)
    ION            # measure(stem) > 1 and stem ends in s or t
    LOGI           # measure(word[:-3]) > 0
    LL             # measure(word[:-1]) > 1


cdef struct Rule:
    const char *suffix
    const char *replacement
    Cond cond


cdef int cons_flags(const ch *w, int n, unsigned char *flags) noexcept nogil:
    cdef int i
    cdef ch c
    for i in range(n):
        c = w[i]
        if c == u'a' or c == u'e' or c == u'i' or c == u'o' or c == u'u':
            flags[i] = 0
        elif c == u'y':
            flags[i] = 1 if i == 0 else (not flags[i - 1])
        else:
            flags[i] = 1
    return 0


cdef int measure(const ch *w, int n, unsigned char *flags) noexcept nogil:
    cdef int i, m = 0
    cons_flags(w, n, flags)
    for i in range(n - 1):
        if not flags[i] and flags[i + 1]:
            m += 1
    return m


cdef bint contains_vowel(const ch *w, int n, unsigned char *flags) noexcept nogil:
    cdef int i
    cons_flags(w, n, flags)
    for i in range(n):
        if not flags[i]:
            return True
    return False


cdef bint is_cons(const ch *w, int i, unsigned char *flags) noexcept nogil:
    cons_flags(w, i + 1, flags)
    return flags[i]


cdef bint ends_double(const ch *w, int n, unsigned char *flags) noexcept nogil:
    return n >= 2 and w[n - 1] == w[n - 2] and is_cons(w, n - 1, flags)


cdef bint ends_cvc(const ch *w, int n, unsigned char *flags) noexcept nogil:
    if n >= 3:
        cons_flags(w, n, flags)
        if flags[n - 3] and not flags[n - 2] and flags[n - 1] and w[n - 1] != u'w' and w[n - 1] != u'x' \
                and w[n - 1] != u'y':
            return True
    if n == 2:
        cons_flags(w, n, flags)
        return not flags[0] and flags[1]
    return False


cdef int clen(const char *s) noexcept nogil:
    cdef int k = 0
    while s[k] != 0:
        k += 1
    return k


cdef bint ends(const ch *w, int n, const char *suffix) noexcept nogil:
    cdef int k = clen(suffix), i
    if k > n:
        return False
    for i in range(k):
        if w[n - k + i] != <ch>suffix[i]:
            return False
    return True


cdef int put(ch *w, int n, const char *text) noexcept nogil:
    """Append ``text`` at ``w[n:]``; the new length."""
    cdef int i = 0
    while text[i] != 0:
        w[n + i] = <ch>text[i]
        i += 1
    return n + i


cdef bint holds(Cond cond, ch *w, int n, int stem, unsigned char *flags) noexcept nogil:
    """The condition of a rule whose suffix matched ``w[:n]``, leaving ``w[:stem]``."""
    if cond == ALWAYS:
        return True
    if cond == M_GT0:
        return measure(w, stem, flags) > 0
    if cond == M_GT1:
        return measure(w, stem, flags) > 1
    if cond == M1_CVC:
        return measure(w, stem, flags) == 1 and ends_cvc(w, stem, flags)
    if cond == NOT_LSZ:
        return w[n - 1] != u'l' and w[n - 1] != u's' and w[n - 1] != u'z'
    if cond == CONS_BEFORE_Y:
        return stem > 1 and is_cons(w, stem - 1, flags)
    if cond == ION:
        return measure(w, stem, flags) > 1 and (w[stem - 1] == u's' or w[stem - 1] == u't')
    if cond == LOGI:
        return measure(w, n - 3, flags) > 0
    return measure(w, n - 1, flags) > 1  # LL


cdef int apply_rules(ch *w, int n, const Rule *rules, int count, unsigned char *flags) noexcept nogil:
    """nltk's ``_apply_rule_list``: the first rule whose suffix matches decides; the new length."""
    cdef int r, stem
    cdef ch last
    for r in range(count):
        if rules[r].suffix[0] == b'*' and ends_double(w, n, flags):
            stem = n - 2
            last = w[n - 1]
            if holds(rules[r].cond, w, n, stem, flags):
                w[stem] = last  # step 1b's only "*d" rule puts back the word's last letter
                return stem + 1
            return n
        if ends(w, n, rules[r].suffix):
            stem = n - clen(rules[r].suffix)
            if holds(rules[r].cond, w, n, stem, flags):
                if rules[r].suffix[0] == b'*':
                    last = w[n - 1]
                    w[stem] = last
                    return stem + 1
                return put(w, stem, rules[r].replacement)
            return n
    return n


cdef Rule STEP1A[4]
STEP1A[:] = [Rule(b"sses", b"ss", ALWAYS), Rule(b"ies", b"i", ALWAYS), Rule(b"ss", b"ss", ALWAYS),
             Rule(b"s", b"", ALWAYS)]
cdef Rule STEP1B[5]
STEP1B[:] = [Rule(b"at", b"ate", ALWAYS), Rule(b"bl", b"ble", ALWAYS), Rule(b"iz", b"ize", ALWAYS),
             Rule(b"*d", b"", NOT_LSZ), Rule(b"", b"e", M1_CVC)]
cdef Rule STEP1C[1]
STEP1C[:] = [Rule(b"y", b"i", CONS_BEFORE_Y)]
cdef Rule STEP2[22]
STEP2[:] = [
    Rule(b"ational", b"ate", M_GT0), Rule(b"tional", b"tion", M_GT0), Rule(b"enci", b"ence", M_GT0),
    Rule(b"anci", b"ance", M_GT0), Rule(b"izer", b"ize", M_GT0), Rule(b"bli", b"ble", M_GT0),
    Rule(b"alli", b"al", M_GT0), Rule(b"entli", b"ent", M_GT0), Rule(b"eli", b"e", M_GT0),
    Rule(b"ousli", b"ous", M_GT0), Rule(b"ization", b"ize", M_GT0), Rule(b"ation", b"ate", M_GT0),
    Rule(b"ator", b"ate", M_GT0), Rule(b"alism", b"al", M_GT0), Rule(b"iveness", b"ive", M_GT0),
    Rule(b"fulness", b"ful", M_GT0), Rule(b"ousness", b"ous", M_GT0), Rule(b"aliti", b"al", M_GT0),
    Rule(b"iviti", b"ive", M_GT0), Rule(b"biliti", b"ble", M_GT0), Rule(b"fulli", b"ful", M_GT0),
    Rule(b"logi", b"log", LOGI),
]
cdef Rule STEP3[7]
STEP3[:] = [
    Rule(b"icate", b"ic", M_GT0), Rule(b"ative", b"", M_GT0), Rule(b"alize", b"al", M_GT0),
    Rule(b"iciti", b"ic", M_GT0), Rule(b"ical", b"ic", M_GT0), Rule(b"ful", b"", M_GT0), Rule(b"ness", b"", M_GT0),
]
cdef Rule STEP4[19]
STEP4[:] = [
    Rule(b"al", b"", M_GT1), Rule(b"ance", b"", M_GT1), Rule(b"ence", b"", M_GT1), Rule(b"er", b"", M_GT1),
    Rule(b"ic", b"", M_GT1), Rule(b"able", b"", M_GT1), Rule(b"ible", b"", M_GT1), Rule(b"ant", b"", M_GT1),
    Rule(b"ement", b"", M_GT1), Rule(b"ment", b"", M_GT1), Rule(b"ent", b"", M_GT1), Rule(b"ion", b"", ION),
    Rule(b"ou", b"", M_GT1), Rule(b"ism", b"", M_GT1), Rule(b"ate", b"", M_GT1), Rule(b"iti", b"", M_GT1),
    Rule(b"ous", b"", M_GT1), Rule(b"ive", b"", M_GT1), Rule(b"ize", b"", M_GT1),
]
cdef Rule STEP5B[1]
STEP5B[:] = [Rule(b"ll", b"l", LL)]


cdef int step1b(ch *w, int n, unsigned char *flags) noexcept nogil:
    cdef int stem
    if ends(w, n, b"ied"):
        return put(w, n - 3, b"ie" if n == 4 else b"i")
    if ends(w, n, b"eed"):
        stem = n - 3
        return put(w, stem, b"ee") if measure(w, stem, flags) > 0 else n
    if ends(w, n, b"ed") and contains_vowel(w, n - 2, flags):
        stem = n - 2
    elif ends(w, n, b"ing") and contains_vowel(w, n - 3, flags):
        stem = n - 3
    else:
        return n
    return apply_rules(w, stem, STEP1B, 5, flags)


cdef int step2(ch *w, int n, unsigned char *flags) noexcept nogil:
    while ends(w, n, b"alli") and measure(w, n - 4, flags) > 0:
        n = put(w, n - 4, b"al")
    return apply_rules(w, n, STEP2, 22, flags)


cdef int step5a(ch *w, int n, unsigned char *flags) noexcept nogil:
    cdef int stem, m
    if ends(w, n, b"e"):
        stem = n - 1
        m = measure(w, stem, flags)
        if m > 1 or (m == 1 and not ends_cvc(w, stem, flags)):
            return stem
    return n


cdef struct Irregular:
    const char *word
    const char *form


cdef Irregular IRREGULAR[16]
IRREGULAR[:] = [
    Irregular(b"sky", b"sky"), Irregular(b"skies", b"sky"), Irregular(b"dying", b"die"), Irregular(b"lying", b"lie"),
    Irregular(b"tying", b"tie"), Irregular(b"news", b"news"), Irregular(b"innings", b"inning"),
    Irregular(b"inning", b"inning"), Irregular(b"outings", b"outing"), Irregular(b"outing", b"outing"),
    Irregular(b"cannings", b"canning"), Irregular(b"canning", b"canning"), Irregular(b"howe", b"howe"),
    Irregular(b"proceed", b"proceed"), Irregular(b"exceed", b"exceed"), Irregular(b"succeed", b"succeed"),
]


cdef const char *irregular(const ch *w, int n) noexcept nogil:
    """The form of an irregular word, else NULL."""
    cdef int k
    for k in range(16):
        if clen(IRREGULAR[k].word) == n and ends(w, n, IRREGULAR[k].word):
            return IRREGULAR[k].form
    return NULL


cdef int steps(ch *w, int n, unsigned char *flags) noexcept nogil:
    """The rules on the lowercased word ``w[:n]`` (longer than two characters, not irregular), in place; the
    stem's length."""
    if n == 4 and ends(w, n, b"ies"):  # NLTK_EXTENSIONS: "ties" -> "tie"
        n = 3
    else:
        n = apply_rules(w, n, STEP1A, 4, flags)
    n = step1b(w, n, flags)
    n = apply_rules(w, n, STEP1C, 1, flags)
    n = step2(w, n, flags)
    n = apply_rules(w, n, STEP3, 7, flags)
    n = apply_rules(w, n, STEP4, 19, flags)
    n = step5a(w, n, flags)
    return apply_rules(w, n, STEP5B, 1, flags)


def stem(str word):
    """``nltk.stem.porter.PorterStemmer().stem(word)``."""
    cdef str lowered = word.lower()
    cdef int n, k = 0
    cdef ch *w = NULL
    cdef unsigned char *flags = NULL
    cdef ch c
    cdef const char *form
    if len(lowered) > INT_MAX - 8:  # positions are ints
        raise MemoryError(f"stem: a word of {len(lowered):,} characters is too long to stem")
    n = len(lowered)
    w = <ch *>malloc((n + 8) * sizeof(ch))
    flags = <unsigned char *>malloc((n + 8) * sizeof(unsigned char))
    if w == NULL or flags == NULL:
        free(w); free(flags)
        raise MemoryError()
    try:
        for c in lowered:
            w[k] = c
            k += 1
        form = irregular(w, n)
        if form != NULL:
            return form.decode("ascii")
        if len(word) <= 2:
            return lowered
        with nogil:
            n = steps(w, n, flags)
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, w, n)
    finally:
        free(w); free(flags)


cdef int stem_ascii(const char *word, int n, char *out) noexcept nogil:
    """:func:`stem` of the lowercase ASCII word ``word[:n]`` (longer than two characters) into ``out`` (room for
    ``n + 8`` bytes): its length, or -1 when memory ran out."""
    cdef ch *w = <ch *>malloc((n + 8) * sizeof(ch))
    cdef unsigned char *flags = <unsigned char *>malloc((n + 8) * sizeof(unsigned char))
    cdef const char *form
    cdef int k
    if w == NULL or flags == NULL:
        free(w); free(flags)
        return -1
    for k in range(n):
        w[k] = <unsigned char>word[k]
    form = irregular(w, n)
    if form != NULL:
        n = clen(form)
        for k in range(n):
            out[k] = form[k]
    else:
        n = steps(w, n, flags)
        for k in range(n):
            out[k] = <char>w[k]
    free(w); free(flags)
    return n
