# The 24 renamings of the four suits (suit_renaming.pyx builds them once, at import).

from libc.stdint cimport uint8_t

# renaming p (0..23, in lexicographic order of the images of c, d, h, s) as a table from a
# suit mask (bit s: suit s) to the renamed mask: 16 entries
cdef const uint8_t* suit_renaming(int p) noexcept nogil
