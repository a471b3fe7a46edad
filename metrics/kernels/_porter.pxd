ctypedef Py_UCS4 ch

cdef int stem_ascii(const char *word, int n, char *out) noexcept nogil
