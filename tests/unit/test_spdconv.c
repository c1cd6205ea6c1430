/*
 * test_spdconv.c: test_spd's checks over common/formats/spd.c built with
 * SPD_CONVERT, where the reading thread converts every sample that is
 * not in the raw text cache to its key itself (qconv()), as it does
 * only while the interning thread lags: each must still be handed out
 * once and as itself, with the place of its largest index (see the
 * Makefile's rule).
 */
#include "test_spd.c"
