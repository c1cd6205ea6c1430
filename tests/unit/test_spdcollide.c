/*
 * test_spdcollide.c: test_spd's checks over common/formats/spd.c built with
 * SPD_COLLIDE, where the raw texts of a length share one hash: the raw
 * text cache then finds heads of other texts at every turn, which a
 * real hash does once in 2^46 lookups, and must still hand out each
 * sample once and as itself (see the Makefile's rule).
 */
#include "test_spd.c"
