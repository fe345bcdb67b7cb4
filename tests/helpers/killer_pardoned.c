/* killer_pardoned.c - the same load as killer_hog under another executable, for a pardon rule. */
#include "killer_hog.c"
