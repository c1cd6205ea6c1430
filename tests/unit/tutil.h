/*
 * tutil: helpers shared by the Check suites of tests/unit.
 */

#include <check.h>

/* Run suite s; EXIT_SUCCESS when every test passed. */
int	 tu_run(Suite *);
/* What fn(arg) writes to standard output, NUL-terminated; free() it. */
char	*tu_capture(void (*)(void *), void *);
/* A new temporary file holding s; unlink() it and free() the name. */
char	*tu_tmpfile(const char *);
