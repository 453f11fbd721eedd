# The one allocation helper of the core's work spaces (``dealer.work_alloc``,
# ``groups.merge_alloc``): each array a work space takes is noted, so one call frees them all,
# after a failed take as at the end.
from libc.stdlib cimport calloc, free, malloc


cdef enum:
    TAKEN_MOST = 32             # the most arrays one work space takes


cdef struct Taken:
    # The arrays one work space took (``take``), freed together (``free_taken``).
    void* array[TAKEN_MOST]     # each array taken, in order
    int count                   # how many
    int failed                  # 1: a take failed (it gave NULL); the work space is unusable


cdef inline void start_taken(Taken* t) noexcept nogil:
    """Begin a work space: nothing taken yet."""
    t.count = 0
    t.failed = 0


cdef inline void* take(Taken* t, size_t size, bint zeroed) noexcept nogil:
    """``size`` bytes (zeros when ``zeroed``), noted in ``t``, or NULL with ``t.failed`` set
    (no memory, or TAKEN_MOST arrays already taken)."""
    cdef void* p = NULL
    if t.count < TAKEN_MOST:
        p = calloc(size, 1) if zeroed else malloc(size)
    if p == NULL:
        t.failed = 1
        return NULL
    t.array[t.count] = p
    t.count += 1
    return p


cdef inline void free_taken(Taken* t) noexcept nogil:
    """Free every array ``t`` took; then it holds none (freeing again does nothing)."""
    cdef int i
    for i in range(t.count):
        free(t.array[i])
    t.count = 0
    t.failed = 0
