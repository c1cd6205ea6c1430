/*
 * test_pprof.c: Check suite for the protobuf wire format and the
 * profile.proto reader (common/formats/pprof.c), on bytes written here by hand
 * from the protobuf encoding rules: varints (300 is ac 02, -1 as int64
 * ten bytes), each wire type, lengths past the end, packed and
 * unpacked repeated fields, unknown fields, ids found when sparse.
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "pprof.h"

static Suite	*pprof_suite(void);

START_TEST(test_putvarint)
{
	static const struct {
		uint64_t	 v;
		const char	*hex;
	} t[] = {
		{ 0, "00" }, { 1, "01" }, { 127, "7f" }, { 128, "8001" },
		{ 300, "ac02" }, { UINT64_MAX, "ffffffffffffffffff01" },
	};
	struct buf b;
	char hex[64];
	size_t i, k;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		buf_init(&b);
		pb_putvarint(&b, t[i].v);
		for (k = 0; k < b.len; k++)
			snprintf(hex + 2 * k, 3, "%02x",
			    (unsigned char)b.data[k]);
		hex[2 * b.len] = '\0';
		ck_assert_str_eq(hex, t[i].hex);
		buf_free(&b);
	}
}
END_TEST

START_TEST(test_varint)
{
	static const uint8_t ok[] = { 0xac, 0x02 };
	static const uint8_t neg[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0x01 };
	static const uint8_t big[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0x02 };
	static const uint8_t cut[] = { 0x80, 0x80 };
	const uint8_t *p;
	uint64_t v;

	p = ok;
	ck_assert_int_eq(pb_varint(&p, ok + 2, &v), 0);
	ck_assert_uint_eq(v, 300);
	ck_assert_ptr_eq(p, ok + 2);
	p = neg;
	ck_assert_int_eq(pb_varint(&p, neg + 10, &v), 0);
	ck_assert_int_eq((int64_t)v, -1);
	p = big;
	ck_assert_int_eq(pb_varint(&p, big + 10, &v), -1);
	p = cut;
	ck_assert_int_eq(pb_varint(&p, cut + 2, &v), -1);
}
END_TEST

START_TEST(test_next)
{
	/* field 1 varint 5; field 2 "ab"; field 3 fixed64 1; 4 fixed32 2 */
	static const uint8_t m[] = { 0x08, 0x05, 0x12, 0x02, 'a', 'b',
	    0x19, 1, 0, 0, 0, 0, 0, 0, 0, 0x25, 2, 0, 0, 0 };
	struct pb r;
	struct pb_field f;
	char err[128];

	pb_init(&r, m, m, sizeof(m));
	ck_assert_int_eq(pb_next(&r, &f, err, sizeof(err)), 1);
	ck_assert_uint_eq(f.num, 1);
	ck_assert_uint_eq(f.v, 5);
	ck_assert_int_eq(pb_next(&r, &f, err, sizeof(err)), 1);
	ck_assert_int_eq(f.wire, PB_LEN);
	ck_assert_uint_eq(f.len, 2);
	ck_assert_mem_eq(f.data, "ab", 2);
	ck_assert_int_eq(pb_next(&r, &f, err, sizeof(err)), 1);
	ck_assert_uint_eq(f.v, 1);
	ck_assert_int_eq(pb_next(&r, &f, err, sizeof(err)), 1);
	ck_assert_int_eq(f.wire, PB_FIXED32);
	ck_assert_uint_eq(f.v, 2);
	ck_assert_int_eq(pb_next(&r, &f, err, sizeof(err)), 0);
	/* The length 2 of field 2 past the end: 1 byte left. */
	pb_init(&r, m, m, 5);
	ck_assert_int_eq(pb_next(&r, &f, err, sizeof(err)), 1);
	ck_assert_int_eq(pb_next(&r, &f, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "offset 2: field 2: length 2 runs past the "
	    "end of its message (1 bytes left)");
	/* fixed64 cut short */
	pb_init(&r, m, m + 6, 5);
	ck_assert_int_eq(pb_next(&r, &f, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "offset 6: field 3: truncated fixed-size "
	    "value");
}
END_TEST

/* A profile: strings "", "s", "count"; one sample type s/count;
 * locations 7 and 1000 (sparse ids); sample 1 unpacked, sample 2
 * packed, an unknown field 99. */
static const uint8_t prof[] = {
	0x32, 0x00, 0x32, 0x01, 's', 0x32, 0x05, 'c', 'o', 'u', 'n', 't',
	0x0a, 0x04, 0x08, 0x01, 0x10, 0x02,
	0x22, 0x02, 0x08, 0x07,
	0x22, 0x03, 0x08, 0xe8, 0x07,
	0x12, 0x07, 0x08, 0x07, 0x08, 0xe8, 0x07, 0x10, 0x03,
	0x12, 0x08, 0x0a, 0x03, 0xe8, 0x07, 0x07, 0x12, 0x01, 0x04,
	0x98, 0x06, 0x01,
};

START_TEST(test_decode)
{
	struct pprof p;
	struct pprof_sample s;
	char err[128];

	ck_assert_int_eq(pprof_decode(&p, prof, sizeof(prof), err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(p.nstr, 3);
	ck_assert_uint_eq(p.nst, 1);
	ck_assert_uint_eq(p.nloc, 2);
	ck_assert_uint_eq(p.nsmp, 2);
	ck_assert_int_eq(pprof_findloc(&p, 1000), 1);
	ck_assert_int_eq(pprof_findloc(&p, 7), 0);
	ck_assert_int_eq(pprof_findloc(&p, 8), -1);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(pprof_sample(&p, 0, &s, err, sizeof(err)), 0);
	ck_assert_uint_eq(s.nloc, 2);
	ck_assert_uint_eq(s.loc[0], 0);
	ck_assert_uint_eq(s.loc[1], 1);
	ck_assert_uint_eq(s.nval, 1);
	ck_assert_int_eq(s.val[0], 3);
	ck_assert_int_eq(pprof_sample(&p, 1, &s, err, sizeof(err)), 0);
	ck_assert_uint_eq(s.nloc, 2);
	ck_assert_uint_eq(s.loc[0], 1);
	ck_assert_uint_eq(s.loc[1], 0);
	ck_assert_int_eq(s.val[0], 4);
	pprof_sample_free(&s);
	pprof_free(&p);
}
END_TEST

START_TEST(test_decode_errors)
{
	uint8_t b[sizeof(prof) + 4];
	struct pprof p;
	char err[128];

	/* Cut inside the last sample (at 36, 8 bytes): 4 bytes left. */
	ck_assert_int_eq(pprof_decode(&p, prof, 42, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "offset 36: field 2: length 8 runs past the "
	    "end of its message (4 bytes left)");
	pprof_free(&p);
	/* A location of id 7 again, appended at 49. */
	memcpy(b, prof, sizeof(prof));
	memcpy(b + sizeof(prof), "\x22\x02\x08\x07", 4);
	ck_assert_int_eq(pprof_decode(&p, b, sizeof(b), err, sizeof(err)),
	    -1);
	ck_assert_str_eq(err, "offset 51: two locations with id 7");
	pprof_free(&p);
}
END_TEST

static Suite *
pprof_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("pprof");
	tc = tcase_create("core");
	tcase_add_test(tc, test_putvarint);
	tcase_add_test(tc, test_varint);
	tcase_add_test(tc, test_next);
	tcase_add_test(tc, test_decode);
	tcase_add_test(tc, test_decode_errors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(pprof_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
