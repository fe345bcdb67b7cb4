/* vm_killer_hog.c - killer_hog for the VM (built statically there): a hog that grows at a
 * set pace, optionally ignoring SIGTERM, for the early killer's scenario. */
#include "killer_hog.c"
