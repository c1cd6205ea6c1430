/*
 * test_shortest.c: Check suite for common/base/shortest.c (the shortest
 * digits of a double, Ryu) and the texts fmt.c makes of them: digits
 * and exponents worked by hand, and fmt_pyfloat and fmt_double against
 * Python over a million doubles (tests/tools/pyrepr.py says which and
 * how it computes what they must give).
 */

#include <check.h>
#include <float.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortest.h"
#include "fmt.h"
#include "tutil.h"

static FILE	*pyrepr(int);
static Suite	*shortest_suite(void);

#define NPY	1000000

/*
 * Digits and the power of ten of the first, by hand: the decimal
 * expansion of each double and the interval of those that read back.
 */
START_TEST(test_digits)
{
	static const struct {
		double		 d;
		const char	*dig;
		int		 ex;
	} t[] = {
		{ 0.0, "0", 0 },
		{ -0.0, "0", 0 },
		{ 1.0, "1", 0 },
		{ -1.0, "1", 0 },
		{ 0.3, "3", -1 },
		{ 123.456, "123456", 2 },
		{ 100.0, "1", 2 },
		{ 1e22, "1", 22 },
		{ 1e23, "1", 23 },
		/* 2^-1074 = 4.94...e-324; 5e-324 lies within half of it */
		{ 0x1p-1074, "5", -324 },
		{ DBL_MAX, "17976931348623157", 308 },
		{ DBL_MIN, "22250738585072014", -308 },
		/* 0.1 + 0.2 = 0.3000000000000000444..., 0.3 reads as
		 * 0.2999999999999999888... */
		{ 0.1 + 0.2, "30000000000000004", -1 },
		/* 2^-24 = 5.9604644775390625e-08 exactly; below a power of
		 * two the doubles are half as far apart, and of the
		 * 16-digit numbers ...062 reads back as the double below,
		 * ...063 as 2^-24 */
		{ 0x1p-24, "5960464477539063", -8 },
		/* 2^53 + 2: the one even neighbour of 2^53 + 1 and 3 */
		{ 9007199254740994.0, "9007199254740994", 15 },
		{ 9007199254740992.0, "9007199254740992", 15 },
	};
	char dig[SHORTEST_MAX + 1];
	size_t i;
	int nd, ex;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(dig, 0, sizeof(dig));
		nd = shortest(t[i].d, dig, &ex);
		ck_assert_int_eq(nd, (int)strlen(t[i].dig));
		ck_assert_msg(strcmp(dig, t[i].dig) == 0 && ex == t[i].ex,
		    "%a: %s e%d, want %s e%d", t[i].d, dig, ex, t[i].dig,
		    t[i].ex);
	}
}
END_TEST

/* python3 tests/tools/pyrepr.py n, its lines to read. */
static FILE *
pyrepr(int n)
{
	char cmd[4096];
	const char *fix = getenv("FIX");

	if (fix != NULL)
		snprintf(cmd, sizeof(cmd), "python3 '%s/../tools/pyrepr.py' "
		    "%d", fix, n);
	else
		snprintf(cmd, sizeof(cmd), "python3 tests/tools/pyrepr.py %d",
		    n);
	return popen(cmd, "r");
}

/*
 * A million doubles (random bits, and the values profiles give): the
 * text of fmt_pyfloat is Python's repr(), that of fmt_double Python's
 * "%.*g" of the least precision that reads back.
 */
START_TEST(test_python)
{
	char line[256], r[64], g[64], b[FMTBUF];
	uint64_t bits;
	double d;
	FILE *fp;
	int n = 0, bad = 0;

	ck_assert_ptr_nonnull(fp = pyrepr(NPY));
	while (fgets(line, sizeof(line), fp) != NULL) {
		ck_assert_int_eq(sscanf(line, "%" SCNx64 " %63s %63s", &bits,
		    r, g), 3);
		memcpy(&d, &bits, sizeof(d));
		n++;
		if (strcmp(fmt_pyfloat(b, sizeof(b), d), r) != 0 &&
		    bad++ < 10)
			fprintf(stderr, "%016" PRIx64 ": fmt_pyfloat %s, "
			    "repr %s\n", bits, b, r);
		if (strcmp(fmt_double(b, sizeof(b), d), g) != 0 && bad++ < 10)
			fprintf(stderr, "%016" PRIx64 ": fmt_double %s, "
			    "%%g %s\n", bits, b, g);
	}
	ck_assert_int_eq(pclose(fp), 0);
	ck_assert_int_eq(n, NPY);
	ck_assert_int_eq(bad, 0);
}
END_TEST

static Suite *
shortest_suite(void)
{
	Suite *s = suite_create("shortest");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_digits);
	tcase_add_test(tc, test_python);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(shortest_suite());
}
