# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""JSON lines read in C: the segment of every line whose JSON value is a string or a list of strings, straight
from the file's UTF-8 bytes. Each segment is one ``str`` built from unescaped bytes, where json builds a str per
sentence, a list and then their join; the file is never decoded whole.

A line is taken only in the shape json writes (the value starts at the line's first byte and ends at its last;
spaces and tabs only inside a list) and only when it is plainly valid: any other line (an object, whitespace around
the value, a control character, a lone surrogate escape, invalid UTF-8, an empty line) is left to
:func:`metrics.io.inputs._parse_jsonl`'s Python, which remains the reference and the source of every error.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcpy

cdef extern from "Python.h":
    object PyUnicode_DecodeUTF8(const char *data, Py_ssize_t size, const char *errors)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void *PyUnicode_DATA(object text)

cdef enum:
    NO_CODE = 0x110000  # not a code point: a bad \u escape
    BLOCK = 1 << 20  # bytes of segments parsed per release of the GIL (more only for a longer line)


cdef struct Line:
    Py_ssize_t start, stop  # the line's bytes in the file
    Py_ssize_t at, written  # its segment's bytes in the output, or written = -1 to leave the line to Python
    unsigned char bits  # the segment's bytes or-ed together: below 0x80, it is ASCII


cdef struct Block:
    # lines parsed together without the GIL, their segments in out (the file's size at most, BLOCK when larger,
    # or a longer line's)
    const unsigned char *data
    Py_ssize_t size
    Py_ssize_t next  # where the next block's first line starts
    char *out
    Py_ssize_t capacity
    Line *lines
    Py_ssize_t count, lines_capacity


def segments(bytes data):
    """``(texts, left)``: ``texts[k]`` is the segment of line k (lines end at ``\\n``; the one ending the file
    starts no line) or None when the line is left to Python, and ``left`` holds ``(k, start, stop)``, the byte
    range of each line left. Lines are parsed a block at a time without the GIL (files read in threads overlap);
    making their ``str`` objects holds it."""
    cdef Block block
    cdef Line *line
    cdef Py_ssize_t k
    cdef int failed
    cdef list texts = [], left = []
    block.data = <const unsigned char *>PyBytes_AS_STRING(data)
    block.size = PyBytes_GET_SIZE(data)
    block.next = 0
    block.capacity = min(block.size, BLOCK) + 1
    block.out = <char *>malloc(block.capacity)
    block.lines = NULL
    block.lines_capacity = 0
    if block.out == NULL:
        raise MemoryError()
    try:
        while block.next < block.size:
            with nogil:
                failed = parse_block(&block)
            if failed:
                raise MemoryError()
            for k in range(block.count):
                line = &block.lines[k]
                text = None
                if line.written >= 0 and line.bits < 0x80:  # ASCII: copied, where decoding checks every byte
                    text = PyUnicode_New(line.written, 127)
                    memcpy(PyUnicode_DATA(text), block.out + line.at, line.written)
                elif line.written >= 0:
                    try:
                        text = PyUnicode_DecodeUTF8(block.out + line.at, line.written, NULL)
                    except UnicodeDecodeError:  # Python's decoding of the whole file names the line and column
                        pass
                if text is None:
                    left.append((len(texts), line.start, line.stop))
                texts.append(text)
    finally:
        free(block.out)
        free(block.lines)
    return texts, left


cdef int parse_block(Block *block) noexcept nogil:
    """The lines from ``block.next`` on whose segments fit in ``block.out`` (at least one: ``out`` grows to a line
    longer than it), each as a :class:`Line`; 0, or -1 when out of memory."""
    # a segment is never longer than its line (escapes and a list's '", "' only shrink): a line fits if its bytes do
    cdef Py_ssize_t start = block.next, stop, at = 0
    cdef const unsigned char *newline
    cdef Line *line
    cdef void *grown
    block.count = 0
    while start < block.size:
        newline = <const unsigned char *>memchr(block.data + start, b'\n', block.size - start)
        stop = newline - block.data if newline != NULL else block.size
        if at + (stop - start) >= block.capacity:
            if block.count:
                break
            grown = realloc(block.out, stop - start + 1)
            if grown == NULL:
                return -1
            block.out = <char *>grown
            block.capacity = stop - start + 1
        if block.count == block.lines_capacity:
            grown = realloc(block.lines, (2 * block.lines_capacity + 1024) * sizeof(Line))
            if grown == NULL:
                return -1
            block.lines = <Line *>grown
            block.lines_capacity = 2 * block.lines_capacity + 1024
        line = &block.lines[block.count]
        line.start = start
        line.stop = stop
        line.at = at
        line.bits = 0
        line.written = line_value(block.data + start, stop - start, block.out + at, &line.bits)
        if line.written > 0:
            at += line.written
        block.count += 1
        start = stop + 1
    block.next = start
    return 0


cdef Py_ssize_t line_value(const unsigned char *s, Py_ssize_t size, char *out, unsigned char *bits) noexcept nogil:
    """The segment's UTF-8 bytes written to ``out`` (each or-ed into ``*bits``) and their count, or -1 to leave the
    line to Python."""
    cdef Py_ssize_t i, written = 0
    if size == 0:
        return -1
    if s[0] == b'"':
        i = string_value(s, size, 0, out, &written, bits)
        return written if i == size else -1
    if s[0] != b'[':
        return -1
    i = blanks(s, size, 1)
    if i < size and s[i] == b']':
        return 0 if i + 1 == size else -1
    while True:
        if i >= size or s[i] != b'"':
            return -1
        i = string_value(s, size, i, out, &written, bits)
        if i < 0:
            return -1
        i = blanks(s, size, i)
        if i >= size:
            return -1
        if s[i] == b']':
            return written if i + 1 == size else -1
        if s[i] != b',':
            return -1
        out[written] = b'\n'  # a list of sentences is joined by newlines, as _segment_text joins it
        written += 1
        i = blanks(s, size, i + 1)


cdef inline Py_ssize_t blanks(const unsigned char *s, Py_ssize_t size, Py_ssize_t i) noexcept nogil:
    while i < size and (s[i] == b' ' or s[i] == b'\t'):
        i += 1
    return i


cdef Py_ssize_t string_value(
    const unsigned char *s, Py_ssize_t size, Py_ssize_t i, char *out, Py_ssize_t *written, unsigned char *bits
) noexcept nogil:
    """The JSON string starting at ``s[i]`` (a quote) unescaped to ``out`` from ``*written`` on, every byte written
    or-ed into ``*bits``; the index after its closing quote, or -1."""
    cdef Py_ssize_t w = written[0], stop, k
    cdef const unsigned char *found
    cdef unsigned char c, below_space = 0, seen = 0
    cdef unsigned int code, low
    i += 1
    while True:
        # a run of plain bytes ends at the next quote or backslash, found by memchr: checked and copied in bulk
        found = <const unsigned char *>memchr(s + i, b'"', size - i)
        if found == NULL:
            return -1
        stop = found - s
        found = <const unsigned char *>memchr(s + i, b'\\', stop - i)
        if found != NULL:
            stop = found - s
        for k in range(i, stop):
            below_space |= s[k] < 0x20
            seen |= s[k]
        if below_space:  # json (strict) refuses raw control characters
            return -1
        memcpy(out + w, s + i, stop - i)
        w += stop - i
        i = stop
        if s[i] == b'"':
            written[0] = w
            bits[0] |= seen
            return i + 1
        if i + 1 >= size:
            return -1
        c = s[i + 1]
        i += 2
        if c == b'"' or c == b'\\' or c == b'/':
            out[w] = <char>c
        elif c == b'n':
            out[w] = b'\n'
        elif c == b't':
            out[w] = b'\t'
        elif c == b'r':
            out[w] = b'\r'
        elif c == b'b':
            out[w] = b'\x08'
        elif c == b'f':
            out[w] = b'\x0c'
        elif c == b'u':
            code = hex4(s, size, i)
            if code == NO_CODE or 0xDC00 <= code < 0xE000:
                return -1
            i += 4
            if 0xD800 <= code < 0xDC00:  # only as the first half of a pair; json keeps a lone half, Python does here
                if i + 1 >= size or s[i] != b'\\' or s[i + 1] != b'u':
                    return -1
                low = hex4(s, size, i + 2)
                if not (0xDC00 <= low < 0xE000):
                    return -1
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                i += 6
            w = utf8(code, out, w)
            seen |= <unsigned char>(code >= 0x80) << 7
            continue
        else:
            return -1
        w += 1


cdef inline unsigned int hex4(const unsigned char *s, Py_ssize_t size, Py_ssize_t i) noexcept nogil:
    cdef unsigned int code = 0
    cdef unsigned char c
    cdef Py_ssize_t k
    if i + 4 > size:
        return NO_CODE
    for k in range(i, i + 4):
        c = s[k]
        if b'0' <= c <= b'9':
            code = code * 16 + (c - c'0')
        elif b'a' <= c <= b'f':
            code = code * 16 + (c - c'a' + 10)
        elif b'A' <= c <= b'F':
            code = code * 16 + (c - c'A' + 10)
        else:
            return NO_CODE
    return code


cdef inline Py_ssize_t utf8(unsigned int code, char *out, Py_ssize_t w) noexcept nogil:
    if code < 0x80:
        out[w] = <char>code
        return w + 1
    if code < 0x800:
        out[w] = <char>(0xC0 | (code >> 6))
        out[w + 1] = <char>(0x80 | (code & 0x3F))
        return w + 2
    if code < 0x10000:
        out[w] = <char>(0xE0 | (code >> 12))
        out[w + 1] = <char>(0x80 | ((code >> 6) & 0x3F))
        out[w + 2] = <char>(0x80 | (code & 0x3F))
        return w + 3
    out[w] = <char>(0xF0 | (code >> 18))
    out[w + 1] = <char>(0x80 | ((code >> 12) & 0x3F))
    out[w + 2] = <char>(0x80 | ((code >> 6) & 0x3F))
    out[w + 3] = <char>(0x80 | (code & 0x3F))
    return w + 4
