/* vm_readadj.c - readadj for the VM (built statically there): prints its own
 * oom_score_adj as its first act, for the zero-window check. */
#include "readadj.c"
