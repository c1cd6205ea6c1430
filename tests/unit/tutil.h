/*
 * tutil: helpers shared by the Check suites of tests/unit.
 */

/* What fn(arg) writes to standard output, NUL-terminated; free() it. */
char	*tu_capture(void (*)(void *), void *);
/* A new temporary file holding s; unlink() it and free() the name. */
char	*tu_tmpfile(const char *);
