# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""ROUGE-N, ROUGE-L and ROUGE-Lsum rows in C, from the texts to the rows (rouge-score 0.1.2 semantics).

A :class:`Vocabulary` turns texts into token ids and the ends of their sentences: with rouge-score's default
tokenizer scanned here (lowercase with ``str.lower``, runs of ``[a-z0-9]``, with the stemmer each distinct token
longer than three characters stemmed once by nltk's Porter stemmer, :mod:`metrics.kernels._porter`), or from the
words of any other tokenizer. Equal forms get equal ids for the life of the vocabulary, so references encoded once
(:class:`Text`) serve every system.

:func:`ngram_rows`, :func:`lcs_rows` and :func:`summary_rows` then give every segment's row ``[precision, recall,
fmeasure, hits, hyp_total, ref_total, best_ref]``: rouge-score's clipped n-gram overlap, its LCS length
(bit-parallel, Hyyrö 2004) or its ``_summary_level_lcs`` (for each reference sentence in order, the union of the
reference positions on one backtracked LCS with every hypothesis sentence — diagonal on equal tokens, else left
only when the left cell is strictly greater than the upper one — each credited while its token has counts left in
both whole texts), then ``prf`` and the first reference with the highest F, in the float operations of
:mod:`metrics.families.rouge.metric`. That pure-Python code stays the reference the tests compare and the source of every
explanation.

A vocabulary keeps scratch space indexed by id and is not thread-safe: its callers serialize its use. Scanning
texts and computing rows release the GIL, so threads that each use their own vocabulary run in parallel (ids only
have to agree between a hypothesis and its references).
"""

from cpython.array cimport array, clone
from cpython.pyport cimport PY_SSIZE_T_MAX
from libc.limits cimport INT_MAX
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from metrics.kernels._porter cimport stem_ascii

cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void *PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index) nogil
    bint PyUnicode_IS_ASCII(object text)
    bint Py_UNICODE_ISALNUM(Py_UCS4 c) nogil
    const char *PyUnicode_AsUTF8AndSize(object text, Py_ssize_t *size) except NULL
    object PyUnicode_DecodeUTF8(const char *data, Py_ssize_t size, const char *errors)

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil

ctypedef uint64_t u64

cdef array _DOUBLES = array("d")
cdef int WIDTH = 7  # the row's columns
# Scratch a vocabulary keeps between calls: sentence tables of a few hundred tokens each way fit (sentences of
# summaries); a larger one, made for one long text, is freed when its call ends.
cdef Py_ssize_t KEPT_SCRATCH = 1 << 24
# Each ASCII character as a token character (lowercased), or 0 for a separator.
cdef unsigned char TOKEN_CHAR[128]
for _c in range(128):
    TOKEN_CHAR[_c] = _c + 32 if 65 <= _c <= 90 else (_c if 97 <= _c <= 122 or 48 <= _c <= 57 else 0)


cdef struct Slot:
    u64 key  # a token of up to 8 bytes packed, else the hash of its bytes (then also compared in the arena)
    int length  # -1: an empty slot
    int form  # its form's id, or DROPPED


cdef enum:
    DROPPED = -1  # its stem is empty (rouge-score keeps only stems that match [a-z0-9]+): not counted
    FORM_MARK = 1  # first byte of a form's entry in the table, under which stemmed tokens share an id


cdef struct Tokens:
    int *ids
    int *ends  # the end of each sentence among the ids
    Py_ssize_t length
    Py_ssize_t sentences


cdef struct Source:
    # a text's characters, read without the GIL while the caller keeps the str alive
    int kind
    const void *data
    Py_ssize_t length
    Tokens *tokens  # where its encoding goes (or is, for texts another tokenizer encoded)


cdef int reserve(void **buffer, Py_ssize_t *capacity, Py_ssize_t needed, size_t item) except -1 nogil:
    """Grow ``buffer`` (``capacity`` items) to hold at least ``needed`` items; the contents are kept."""
    cdef Py_ssize_t size
    cdef void *grown
    if needed <= capacity[0]:
        return 0
    size = max(needed, 2 * capacity[0], 16)
    if size > PY_SSIZE_T_MAX // <Py_ssize_t>item:  # size * item would overflow
        with gil:
            raise MemoryError(f"ROUGE: {needed:,} items of {item} bytes cannot be allocated")
    grown = realloc(buffer[0], size * item)
    if grown == NULL:
        with gil:
            raise MemoryError()
    buffer[0] = grown
    capacity[0] = size
    return 0


cdef int store(Tokens *target, const Tokens *source) except -1 nogil:
    """A copy of ``source`` in ``target`` (whose arrays are unallocated)."""
    cdef Py_ssize_t none = 0
    reserve(<void **>&target.ids, &none, max(source.length, 1), sizeof(int))
    none = 0
    reserve(<void **>&target.ends, &none, max(source.sentences, 1), sizeof(int))
    memcpy(target.ids, source.ids, source.length * sizeof(int))
    memcpy(target.ends, source.ends, source.sentences * sizeof(int))
    target.length = source.length
    target.sentences = source.sentences
    return 0


cdef inline u64 token_key(const char *data, Py_ssize_t n) noexcept nogil:
    """A token's key: up to 8 bytes packed (tokens hold no zero byte, so that is the token itself), else a hash."""
    cdef u64 h = 0
    cdef Py_ssize_t k
    if n <= 8:
        for k in range(n):
            h |= (<u64><unsigned char>data[k]) << (8 * k)
        return h
    h = 1469598103934665603ULL
    for k in range(n):
        h = (h ^ <unsigned char>data[k]) * 1099511628211ULL
    return h


cdef inline Py_ssize_t key_slot(u64 key, Py_ssize_t mask) noexcept nogil:
    key *= 0x9E3779B97F4A7C15ULL
    return <Py_ssize_t>((key ^ (key >> 32)) & <u64>mask)


cdef inline u64 hash_ids(const int *items, int n) noexcept nogil:
    cdef u64 h = 1469598103934665603ULL
    cdef int k
    for k in range(n):
        h = (h ^ <u64><unsigned int>items[k]) * 1099511628211ULL
        h ^= h >> 29
    return h


cdef inline bint same(const int *a, const int *b, int n) noexcept nogil:
    cdef int k
    for k in range(n):
        if a[k] != b[k]:
            return False
    return True


cdef class Vocabulary
cdef unsigned long long vocabularies_made = 0


cdef class Text:
    """A text encoded by a :class:`Vocabulary`."""

    cdef Tokens tokens
    # The serial of the vocabulary whose ids these are: a number, not a reference, so that a Text holds no Python
    # object and the garbage collector does not track the tens of thousands a corpus makes.
    cdef unsigned long long owner

    def __dealloc__(self):
        free(self.tokens.ids)
        free(self.tokens.ends)

    def __len__(self):
        return self.tokens.length

    @property
    def sentence_ends(self):
        """Where each sentence ends among the tokens."""
        return tuple(self.tokens.ends[k] for k in range(self.tokens.sentences))


cdef class Vocabulary:
    """Token ids of texts, interned by their bytes (UTF-8) in an open-addressing table.

    ``lines``: a text's sentences are its non-empty lines (rouge-score's ROUGE-Lsum split), else the whole text.
    ``stem``: the default tokenizer's tokens longer than three characters are compared by their Porter stem (as
    rouge-score's ``use_stemmer``); ``tokenize(text) -> (words, sentence_ends)`` replaces the default tokenizer by
    another one, whose words are already forms.
    """

    cdef Slot *slots
    cdef Py_ssize_t *offsets  # per slot: where its token's bytes are in the arena
    cdef Py_ssize_t capacity, used, forms_given
    cdef char *arena
    cdef Py_ssize_t arena_length, arena_capacity
    cdef char *word
    cdef Py_ssize_t word_capacity
    cdef Tokens scratch  # the text encoded last
    cdef Py_ssize_t ids_capacity, ends_capacity
    cdef object tokenize
    cdef bint lines, stem
    cdef char *form  # a form's entry being looked up: FORM_MARK, then the stem
    cdef Py_ssize_t form_capacity
    # scratch of the row kernels: per form id two counts and a mask index (all zero / -1 between calls) …
    cdef int *ref_left
    cdef int *hyp_left
    cdef int *mask_of
    cdef Py_ssize_t by_form
    # … and per pair: bit masks and rows, an n-gram table, the LCS grid, the union of LCS positions
    cdef u64 *masks
    cdef Py_ssize_t masks_capacity
    cdef u64 *bits
    cdef Py_ssize_t bits_capacity
    cdef int *gram_start
    cdef int *gram_allowed
    cdef Py_ssize_t gram_capacity, gram_allowed_capacity
    cdef int *grid
    cdef Py_ssize_t grid_capacity
    cdef unsigned char *on_path
    cdef Py_ssize_t on_path_capacity
    cdef unsigned long long serial  # distinct for every vocabulary of the process (Text.owner)

    def __cinit__(self, bint lines=False, bint stem=False, tokenize=None):
        global vocabularies_made
        cdef Py_ssize_t none = 0
        vocabularies_made += 1
        self.serial = vocabularies_made
        if stem and tokenize is not None:
            raise ValueError("a vocabulary stems the default tokenizer's tokens or takes another tokenizer's words")
        self.lines = lines
        self.stem = stem
        self.tokenize = tokenize
        reserve(<void **>&self.slots, &self.capacity, 1024, sizeof(Slot))
        reserve(<void **>&self.offsets, &none, self.capacity, sizeof(Py_ssize_t))
        clear_slots(self.slots, self.capacity)

    def __dealloc__(self):
        free(self.slots); free(self.offsets); free(self.arena); free(self.word)
        free(self.scratch.ids); free(self.scratch.ends)
        free(self.ref_left); free(self.hyp_left); free(self.mask_of)
        free(self.masks); free(self.bits); free(self.gram_start); free(self.gram_allowed); free(self.grid)
        free(self.on_path); free(self.form)

    def __len__(self):
        """Distinct tokens (and stems) seen (what the vocabulary's memory grows with)."""
        return self.used

    cdef int _rehash(self) except -1 nogil:
        cdef Py_ssize_t size = 2 * self.capacity, mask = size - 1, k, j, none = 0
        cdef Slot *slots = NULL
        cdef Py_ssize_t *offsets = NULL
        reserve(<void **>&slots, &none, size, sizeof(Slot))
        offsets = <Py_ssize_t *>malloc(size * sizeof(Py_ssize_t))
        if offsets == NULL:
            free(slots)
            with gil:
                raise MemoryError()
        clear_slots(slots, size)
        for k in range(self.capacity):
            if self.slots[k].length >= 0:
                j = key_slot(self.slots[k].key, mask)
                while slots[j].length >= 0:
                    j = (j + 1) & mask
                slots[j] = self.slots[k]
                offsets[j] = self.offsets[k]
        free(self.slots)
        free(self.offsets)
        self.slots = slots
        self.offsets = offsets
        self.capacity = size
        return 0

    cdef Py_ssize_t _find(self, const char *data, Py_ssize_t n, u64 key) noexcept nogil:
        """The slot of ``data[:n]`` (key ``key``), or the empty slot where it would go."""
        cdef Py_ssize_t mask = self.capacity - 1
        cdef Py_ssize_t k = key_slot(key, mask)
        while self.slots[k].length >= 0:
            if self.slots[k].key == key and self.slots[k].length == n and (
                n <= 8 or memcmp(self.arena + self.offsets[k], data, n) == 0
            ):
                return k
            k = (k + 1) & mask
        return k

    cdef int _insert(self, Py_ssize_t k, const char *data, Py_ssize_t n, u64 key, int form) except -1 nogil:
        """Put ``data[:n]`` with its form in the empty slot ``k``."""
        cdef Slot *slot = &self.slots[k]
        reserve(<void **>&self.arena, &self.arena_capacity, self.arena_length + n, 1)
        memcpy(self.arena + self.arena_length, data, n)
        slot.key = key
        slot.length = <int>n
        slot.form = form
        self.offsets[k] = self.arena_length
        self.arena_length += n
        self.used += 1
        if 2 * self.used > self.capacity:
            self._rehash()
        return 0

    cdef int _new_form(self, const char *data, Py_ssize_t n) except -2 nogil:
        """The form id of a token seen for the first time: a new one, or with the stemmer its stem's."""
        cdef Py_ssize_t length = n, k
        cdef int form
        if self.forms_given >= INT_MAX or n > INT_MAX - 9:  # ids, token lengths and stems are ints
            with gil:
                raise MemoryError("ROUGE: a vocabulary holds at most 2^31 - 1 forms of at most 2^31 - 10 bytes")
        if not self.stem:
            self.forms_given += 1
            return <int>(self.forms_given - 1)
        reserve(<void **>&self.form, &self.form_capacity, n + 9, 1)
        self.form[0] = FORM_MARK
        if n > 3:  # rouge-score stems tokens longer than three characters
            length = stem_ascii(data, <int>n, self.form + 1)
            if length < 0:
                with gil:
                    raise MemoryError()
            if length == 0:
                return DROPPED
        else:
            memcpy(self.form + 1, data, n)
        k = self._find(self.form, length + 1, token_key(self.form, length + 1))
        if self.slots[k].length >= 0:
            return self.slots[k].form
        form = <int>self.forms_given
        self._insert(k, self.form, length + 1, token_key(self.form, length + 1), form)
        self.forms_given += 1
        return form

    cdef int _intern(self, const char *data, Py_ssize_t n, u64 key) except -2 nogil:
        """The id of the token ``data[:n]`` whose :func:`token_key` is ``key``."""
        cdef Py_ssize_t k = self._find(data, n, key)
        cdef int form
        if self.slots[k].length >= 0:
            return self.slots[k].form
        form = self._new_form(data, n)
        self._insert(self._find(data, n, key), data, n, key, form)  # found again: a stem may have moved it
        return form

    cdef inline Py_ssize_t _push(self, int form, Py_ssize_t count) except -1 nogil:
        if form >= 0:
            if count >= self.ids_capacity:
                reserve(<void **>&self.scratch.ids, &self.ids_capacity, count + 1, sizeof(int))
            self.scratch.ids[count] = form
            return count + 1
        return count

    cdef inline Py_ssize_t _end(self, Py_ssize_t count, Py_ssize_t sentences) except -1 nogil:
        if sentences >= self.ends_capacity:
            reserve(<void **>&self.scratch.ends, &self.ends_capacity, sentences + 1, sizeof(int))
        self.scratch.ends[sentences] = <int>count
        return sentences + 1

    cdef int _scan(self, int kind, const void *data, Py_ssize_t n) except -1 nogil:
        """rouge-score's default tokenizer: runs of ``[a-z0-9]`` (stemmed with the stemmer) of text lowercased
        already unless it is ASCII (see :func:`scan_source`)."""
        cdef Py_ssize_t i, length = 0, count = 0, ends = 0
        cdef Py_ssize_t line = 0  # where the current line began
        cdef bint lines = self.lines
        cdef unsigned int c
        cdef u64 key = 0
        cdef char *word
        reserve(<void **>&self.word, &self.word_capacity, n + 1, 1)
        word = self.word
        for i in range(n):
            c = <unsigned int>PyUnicode_READ(kind, data, i)
            c = TOKEN_CHAR[c] if c < 128 else 0
            if c:
                if length < 8:
                    key |= (<u64>c) << (8 * length)
                word[length] = <char>c
                length += 1
                continue
            if length:
                count = self._push(self._intern(word, length, key if length <= 8 else token_key(word, length)), count)
                length = 0
                key = 0
            if lines and PyUnicode_READ(kind, data, i) == 10:
                if i > line:  # a non-empty line ends
                    ends = self._end(count, ends)
                line = i + 1
        if length:
            count = self._push(self._intern(word, length, key if length <= 8 else token_key(word, length)), count)
        if not lines or n > line:
            ends = self._end(count, ends)
        self.scratch.length = count
        self.scratch.sentences = ends
        return 0

    cdef int _words(self, str text) except -1:
        """Another tokenizer's words (forms already)."""
        cdef Py_ssize_t count = 0, n, ends = 0
        cdef const char *data
        words, sentence_ends = self.tokenize(text)
        for word in words:
            data = PyUnicode_AsUTF8AndSize(word, &n)
            count = self._push(self._intern(data, n, token_key(data, n)), count)
        for end in sentence_ends:
            ends = self._end(end, ends)
        self.scratch.length = count
        self.scratch.sentences = ends
        return 0

    cpdef Text encode(self, str text):
        """``text`` as token ids (each sentence's end among them)."""
        return self.encode_all([text])[0]

    def encode_all(self, texts, memo=None):
        """:meth:`encode` of each text (None stays None), each distinct text once; with a ``memo`` dict, also
        across calls. The default tokenizer scans without the GIL."""
        cdef list out = [], fresh = [], sources = []
        cdef dict batch = {}
        cdef Text encoded
        for text in texts:
            if text is None:
                out.append(None)
                continue
            if len(text) >= INT_MAX:  # token positions and sentence ends are ints (a token per character at most)
                raise MemoryError(f"ROUGE: a text of {len(text):,} characters is too long to encode")
            found = memo.get(text) if memo is not None else None
            if found is None:
                found = batch.get(text)
            if found is None:
                encoded = Text.__new__(Text)
                encoded.owner = self.serial
                batch[text] = encoded
                fresh.append(encoded)
                sources.append(text)
                found = encoded
            out.append(found)
        self._fill(fresh, sources)
        if memo is not None:  # only once encoded: an error above leaves no half-made text behind
            for text, found in batch.items():
                memo[text] = found
        return out

    cdef int _fill(self, list targets, list texts) except -1:
        """Encode ``texts`` into the :class:`Text` objects ``targets``."""
        cdef Py_ssize_t count = len(texts), k
        cdef Source *items
        cdef Text target
        if self.tokenize is not None:  # another tokenizer's words: Python, under the GIL
            for k in range(count):
                target = targets[k]
                self._words(texts[k])
                store(&target.tokens, &self.scratch)
            return 0
        scanned = [scan_source(text) for text in texts]  # kept alive while the GIL is released
        items = <Source *>malloc(max(count, 1) * sizeof(Source))
        if items == NULL:
            raise MemoryError()
        try:
            for k in range(count):
                target = targets[k]
                set_source(&items[k], scanned[k], &target.tokens)
            with nogil:
                for k in range(count):
                    self._scan(items[k].kind, items[k].data, items[k].length)
                    store(items[k].tokens, &self.scratch)
        finally:
            free(items)
        return 0

    def words(self, Text text):
        """The forms the ids of ``text`` stand for."""
        cdef Py_ssize_t k, skip = 1 if self.stem else 0
        cdef const char *entry
        self._check(text)
        names = [None] * self.forms_given
        for k in range(self.capacity):  # each id's token, or with the stemmer its form's entry
            if self.slots[k].length < 0 or self.slots[k].form < 0:
                continue
            entry = self.arena + self.offsets[k]
            if not self.stem or entry[0] == FORM_MARK:
                names[self.slots[k].form] = PyUnicode_DecodeUTF8(entry + skip, self.slots[k].length - skip, NULL)
        return [names[text.tokens.ids[k]] for k in range(text.tokens.length)]

    cdef inline int _check(self, Text text) except -1:
        if text.owner != self.serial:
            raise ValueError("a text encoded by another vocabulary")
        return 0

    cdef void _release(self) noexcept:
        """Free the per-pair scratch that one long text grew past ``KEPT_SCRATCH`` bytes: the vocabulary lives as
        long as its metric (the app keeps metrics across sessions), and would otherwise hold it for good."""
        if self.grid_capacity * <Py_ssize_t>sizeof(int) > KEPT_SCRATCH:
            free(self.grid)
            self.grid = NULL
            self.grid_capacity = 0
        if self.masks_capacity * <Py_ssize_t>sizeof(u64) > KEPT_SCRATCH:
            free(self.masks)
            self.masks = NULL
            self.masks_capacity = 0

    cdef int _prepare(self) except -1 nogil:
        """Per-form scratch for every id given out so far (zero counts, no mask)."""
        cdef Py_ssize_t old = self.by_form, size = max(self.forms_given, 2 * self.by_form, 16), k
        if self.forms_given <= old:
            return 0
        grow_ints(&self.ref_left, size)
        grow_ints(&self.hyp_left, size)
        grow_ints(&self.mask_of, size)
        for k in range(old, size):
            self.ref_left[k] = 0
            self.hyp_left[k] = 0
            self.mask_of[k] = -1
        self.by_form = size
        return 0

    cdef Py_ssize_t _ngram_hits(self, const Tokens *hyp, const Tokens *ref, int n) except -1 nogil:
        """Σ over n-grams of min(count in hyp, count in ref): rouge-score's ``_score_ngrams`` intersection."""
        cdef Py_ssize_t hyp_grams = hyp.length - n + 1, ref_grams = ref.length - n + 1, size = 16, i, matched = 0
        cdef Py_ssize_t mask, slot
        cdef const int *gram
        if hyp_grams <= 0 or ref_grams <= 0:
            return 0
        if n == 1:  # counts by id
            for i in range(ref.length):
                self.ref_left[ref.ids[i]] += 1
            for i in range(hyp.length):
                if self.ref_left[hyp.ids[i]] > 0:
                    self.ref_left[hyp.ids[i]] -= 1
                    matched += 1
            for i in range(ref.length):
                self.ref_left[ref.ids[i]] = 0
            return matched
        while size < 2 * ref_grams:
            size *= 2
        mask = size - 1
        reserve(<void **>&self.gram_start, &self.gram_capacity, size, sizeof(int))
        reserve(<void **>&self.gram_allowed, &self.gram_allowed_capacity, size, sizeof(int))
        memset(self.gram_start, 0xff, size * sizeof(int))
        for i in range(ref_grams):
            gram = ref.ids + i
            slot = <Py_ssize_t>(hash_ids(gram, n) & <u64>mask)
            while self.gram_start[slot] >= 0 and not same(ref.ids + self.gram_start[slot], gram, n):
                slot = (slot + 1) & mask
            if self.gram_start[slot] < 0:
                self.gram_start[slot] = <int>i
                self.gram_allowed[slot] = 1
            else:
                self.gram_allowed[slot] += 1
        for i in range(hyp_grams):
            gram = hyp.ids + i
            slot = <Py_ssize_t>(hash_ids(gram, n) & <u64>mask)
            while self.gram_start[slot] >= 0 and not same(ref.ids + self.gram_start[slot], gram, n):
                slot = (slot + 1) & mask
            if self.gram_start[slot] >= 0 and self.gram_allowed[slot] > 0:
                self.gram_allowed[slot] -= 1
                matched += 1
        return matched

    cdef Py_ssize_t _lcs_length(self, const Tokens *hyp, const Tokens *ref) except -1 nogil:
        """LCS length, bit-parallel over the hypothesis: bit ``j`` of ``v`` is 0 where the grid row steps up."""
        cdef Py_ssize_t n = hyp.length, words = (hyp.length + 63) >> 6, distinct = 0, i, j, w, ones = 0
        cdef int k
        cdef u64 x, u, s, carry
        cdef const u64 *m
        if n == 0 or ref.length == 0:
            return 0
        for j in range(n):  # a mask row per distinct token (not per position: n rows would take n² / 8 bytes)
            if self.mask_of[hyp.ids[j]] < 0:
                self.mask_of[hyp.ids[j]] = <int>distinct
                distinct += 1
        reserve(<void **>&self.masks, &self.masks_capacity, distinct * words, sizeof(u64))
        reserve(<void **>&self.bits, &self.bits_capacity, words, sizeof(u64))
        memset(self.masks, 0, distinct * words * sizeof(u64))
        for j in range(n):
            k = self.mask_of[hyp.ids[j]]
            self.masks[k * words + (j >> 6)] |= (<u64>1) << (j & 63)
        for w in range(words):
            self.bits[w] = ~(<u64>0)
        for i in range(ref.length):
            k = self.mask_of[ref.ids[i]]
            if k < 0:
                continue
            m = self.masks + k * words
            carry = 0
            for w in range(words):
                x = self.bits[w]
                u = x & m[w]
                s = x + u + carry
                carry = 1 if s < x or (carry != 0 and s == x) else 0
                self.bits[w] = s | (x & ~u)  # (v + u) | (v - u), as u's bits are v's
        for w in range(words):
            x = self.bits[w]
            if w == words - 1 and n & 63:
                x &= ((<u64>1) << (n & 63)) - 1
            ones += popcount(x)
        for j in range(n):
            self.mask_of[hyp.ids[j]] = -1
        return n - ones

    cdef Py_ssize_t _summary_hits(self, const Tokens *hyp, const Tokens *ref) except -1 nogil:
        """rouge-score's ``_summary_level_lcs`` hits (reference sentences × hypothesis sentences)."""
        cdef Py_ssize_t longest_ref = 1, longest_hyp = 1, s, t, start, end, hstart, hend, i, j, k, hits = 0, n1
        cdef int token
        cdef int *grid
        cdef const int *a = ref.ids
        cdef const int *b = hyp.ids
        if hyp.length == 0 or ref.length == 0:
            return 0
        start = 0
        for s in range(ref.sentences):
            longest_ref = max(longest_ref, ref.ends[s] - start)
            start = ref.ends[s]
        start = 0
        for s in range(hyp.sentences):
            longest_hyp = max(longest_hyp, hyp.ends[s] - start)
            start = hyp.ends[s]
        reserve(<void **>&self.grid, &self.grid_capacity, (longest_ref + 1) * (longest_hyp + 1), sizeof(int))
        reserve(<void **>&self.on_path, &self.on_path_capacity, longest_ref, 1)
        grid = self.grid
        for i in range(ref.length):
            self.ref_left[a[i]] += 1
        for j in range(hyp.length):
            self.hyp_left[b[j]] += 1
        start = 0
        for s in range(ref.sentences):
            end = ref.ends[s]
            memset(self.on_path, 0, longest_ref)
            hstart = 0
            for t in range(hyp.sentences):
                hend = hyp.ends[t]
                n1 = hend - hstart + 1
                lcs_grid(a + start, end - start, b + hstart, hend - hstart, grid)
                i = end - start
                j = hend - hstart
                while i > 0 and j > 0:
                    if a[start + i - 1] == b[hstart + j - 1]:
                        self.on_path[i - 1] = 1
                        i -= 1
                        j -= 1
                    elif grid[i * n1 + j - 1] > grid[(i - 1) * n1 + j]:
                        j -= 1
                    else:
                        i -= 1
                hstart = hend
            for k in range(end - start):
                if self.on_path[k]:
                    token = a[start + k]
                    if self.hyp_left[token] > 0 and self.ref_left[token] > 0:
                        hits += 1
                        self.hyp_left[token] -= 1
                        self.ref_left[token] -= 1
            start = end
        for i in range(ref.length):
            self.ref_left[a[i]] = 0
        for j in range(hyp.length):
            self.hyp_left[b[j]] = 0
        return hits


cdef void clear_slots(Slot *slots, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(n):
        slots[k].length = -1


cdef int grow_ints(int **buffer, Py_ssize_t size) except -1 nogil:
    cdef int *grown = <int *>realloc(buffer[0], size * sizeof(int))
    if grown == NULL:
        with gil:
            raise MemoryError()
    buffer[0] = grown
    return 0


cdef str scan_source(str text):
    """What the default tokenizer scans: ``text``, lowercased (``str.lower``) unless it is ASCII."""
    return text if PyUnicode_IS_ASCII(text) else text.lower()


cdef void set_source(Source *item, str text, Tokens *tokens) noexcept:
    item.kind = PyUnicode_KIND(text)
    item.data = PyUnicode_DATA(text)
    item.length = len(text)
    item.tokens = tokens


cdef void lcs_grid(const int *a, Py_ssize_t m, const int *b, Py_ssize_t n, int *grid) noexcept nogil:
    """The (m + 1) × (n + 1) grid of LCS lengths of a[:i] and b[:j]."""
    cdef Py_ssize_t i, j, n1 = n + 1
    cdef int up, left
    memset(grid, 0, n1 * sizeof(int))
    for i in range(1, m + 1):
        grid[i * n1] = 0
        for j in range(1, n + 1):
            if a[i - 1] == b[j - 1]:
                grid[i * n1 + j] = grid[(i - 1) * n1 + j - 1] + 1
            else:
                up = grid[(i - 1) * n1 + j]
                left = grid[i * n1 + j - 1]
                grid[i * n1 + j] = up if up > left else left


def losing(texts):
    """:func:`metrics.families.rouge.tokenize.losing`: the indices of the texts (None skipped) with a non-ASCII letter or
    digit (``\\w`` is ``Py_UNICODE_ISALNUM`` or "_") other than the two that lowercase to ASCII ones (İ, the Kelvin
    sign)."""
    cdef list out = []
    cdef Py_ssize_t k = 0
    cdef str text
    for item in texts:
        if item is not None:
            text = item
            if not PyUnicode_IS_ASCII(text) and loses(text):
                out.append(k)
        k += 1
    return out


cdef bint loses(str text) noexcept:
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef Py_ssize_t i
    cdef Py_UCS4 c
    for i in range(len(text)):
        c = PyUnicode_READ(kind, data, i)
        if c >= 128 and c != 0x130 and c != 0x212A and Py_UNICODE_ISALNUM(c):
            return True
    return False


cdef enum Kind:
    NGRAM
    LCS
    SUMMARY


cdef array rows(Vocabulary vocabulary, Kind kind, int n, hyps, list streams):
    """The row of every segment: per reference ``hits`` and the totals, ``prf``, the first highest F (computed
    without the GIL)."""
    cdef list encoded = vocabulary.encode_all(hyps), stream
    cdef Py_ssize_t segments = len(encoded), references = len(streams), i, s, hits, hyp_total, ref_total, found
    cdef array out = clone(_DOUBLES, segments * WIDTH, False)
    cdef double *row
    cdef double precision, recall, fmeasure, best_f
    cdef const Tokens *hyp
    cdef const Tokens *ref
    cdef const Tokens **texts  # per segment its hypothesis, then each reference (NULL where it has none)
    cdef Py_ssize_t width = references + 1
    cdef Text text
    for stream in streams:
        if len(stream) != segments:
            raise ValueError(f"a reference stream has {len(stream)} segments but there are {segments} hypotheses")
    texts = <const Tokens **>malloc(max(segments * width, 1) * sizeof(Tokens *))
    if texts == NULL:
        raise MemoryError()
    try:
        for i in range(segments):
            if encoded[i] is None:
                raise TypeError("a hypothesis is None; every segment needs a text")
            text = encoded[i]
            texts[i * width] = &text.tokens
            found = 0
            for s in range(references):
                item = (<list>streams[s])[i]
                if item is None:
                    texts[i * width + 1 + s] = NULL
                    continue
                text = <Text?>item
                vocabulary._check(text)
                texts[i * width + 1 + s] = &text.tokens
                found += 1
            if found == 0:
                raise ValueError("ROUGE needs at least one reference per segment")
        with nogil:
            for i in range(segments):
                hyp = texts[i * width]
                vocabulary._prepare()
                found = 0
                best_f = 0.0
                row = out.data.as_doubles + i * WIDTH
                for s in range(references):
                    ref = texts[i * width + 1 + s]
                    if ref == NULL:
                        continue
                    if kind == NGRAM:
                        hits = vocabulary._ngram_hits(hyp, ref, n)
                        hyp_total = max(hyp.length - n + 1, 0)
                        ref_total = max(ref.length - n + 1, 0)
                    else:
                        if kind == LCS:
                            hits = vocabulary._lcs_length(hyp, ref)
                        else:
                            hits = vocabulary._summary_hits(hyp, ref)
                        hyp_total = hyp.length
                        ref_total = ref.length
                    # metrics.families.rouge.metric.prf, operation for operation
                    precision = <double>hits / <double>max(hyp_total, 1)
                    recall = <double>hits / <double>max(ref_total, 1)
                    fmeasure = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
                    if found == 0 or fmeasure > best_f:
                        best_f = fmeasure
                        row[0] = precision
                        row[1] = recall
                        row[2] = fmeasure
                        row[3] = <double>hits
                        row[4] = <double>hyp_total
                        row[5] = <double>ref_total
                        row[6] = <double>found
                    found += 1
    finally:
        free(texts)
        vocabulary._release()
    return out


def ngram_rows(Vocabulary vocabulary, int n, hyps, list streams):
    """ROUGE-N rows (flat, 7 per segment) of the hypotheses (texts) against reference streams encoded by the same
    vocabulary (lists of :class:`Text`, None where a segment lacks that reference)."""
    return rows(vocabulary, NGRAM, n, hyps, streams)


def lcs_rows(Vocabulary vocabulary, hyps, list streams):
    """ROUGE-L rows, as :func:`ngram_rows`."""
    return rows(vocabulary, LCS, 0, hyps, streams)


def summary_rows(Vocabulary vocabulary, hyps, list streams):
    """ROUGE-Lsum rows, as :func:`ngram_rows` (the texts encoded by lines)."""
    return rows(vocabulary, SUMMARY, 0, hyps, streams)
