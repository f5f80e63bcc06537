#include <isa-l/igzip_lib.h>
#include <isa-l/crc.h>

/* The scratch size igzip's stateless compression wants at a level (the macros are expressions
   Swift does not import). */
static inline uint32_t glsnap_isal_level_buf_size(int level) {
    switch (level) {
    case 1: return ISAL_DEF_LVL1_DEFAULT;
    case 2: return ISAL_DEF_LVL2_DEFAULT;
    case 3: return ISAL_DEF_LVL3_DEFAULT;
    default: return 0;
    }
}
