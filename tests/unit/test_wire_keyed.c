// SPDX-License-Identifier: MIT
/*
 * Unit tests for HELLO and CONN as keyed fields (wire v19, wire_conn.c
 * over wire_keyed.c): a newer peer's field is skipped unless it is marked
 * must-understand, and then the message is refused naming the message
 * and the tag; fields travel in any order; a v18 (fixed-field) body is
 * refused, not misread; `--list-wire`'s lines are the packer's tags.
 */
#include "wire_fx.h"

/* @body (keyed, @len bytes) with one more field, @tag (as sent) of @n bytes of @v. */
static size_t add_field(uint8_t *body, size_t len, uint16_t tag, const void *v, size_t n)
{
	uint16_t count = (uint16_t)(body[0] << 8 | body[1]);

	count++;
	body[0] = (uint8_t)(count >> 8);
	body[1] = (uint8_t)count;
	body[len] = (uint8_t)(tag >> 8);
	body[len + 1] = (uint8_t)tag;
	body[len + 2] = (uint8_t)(n >> 8);
	body[len + 3] = (uint8_t)n;
	memcpy(body + len + 4, v, n);
	return len + 4 + n;
}

static void sample_hello(struct rb_msg_hello *h)
{
	memset(h, 0, sizeof(*h));
	strcpy(h->tool_version, "0.9.0");
	strcpy(h->test, "send_lat");
	strcpy(h->host, "node7");
	strcpy(h->cpus, "3");
}

static void test_hello_unknown_fields(void **state)
{
	struct rb_msg_hello in, out;
	uint8_t buf[BUFSZ];
	char err[256] = "";
	size_t len;

	(void)state;
	sample_hello(&in);
	len = (size_t)rb_pack_hello(&in, buf, sizeof(buf));
	/* A newer build's optional field 99: skipped, the rest read. */
	len = add_field(buf, len, 99, "hint", 4);
	assert_int_equal(rb_unpack_hello_why(buf, len, &out, err, sizeof(err)), 0);
	assert_string_equal(out.test, "send_lat");
	assert_string_equal(out.host, "node7");
	assert_string_equal(out.cpus, "3");
	/* The same field marked must-understand: refused, named. */
	buf[len - 8] |= 0x80;
	assert_int_equal(rb_unpack_hello_why(buf, len, &out, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "HELLO field 99 is one this build does not know and must "
				    "understand"));
	/* A known field of a newer peer's at a wrong length is no HELLO. */
	len = (size_t)rb_pack_hello(&in, buf, sizeof(buf));
	len = add_field(buf, len, 0x8006, "\0\0", 2);
	assert_int_equal(rb_unpack_hello_why(buf, len, &out, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "HELLO field 6 has a bad length (2)"));
	/* A field twice. */
	len = (size_t)rb_pack_hello(&in, buf, sizeof(buf));
	len = add_field(buf, len, 0x8002, "read_lat", 8);
	assert_int_equal(rb_unpack_hello_why(buf, len, &out, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "HELLO field 2 given twice"));
}

static void test_hello_any_order(void **state)
{
	struct rb_msg_hello out;
	struct wb *w = calloc(1, sizeof(*w));

	(void)state;
	assert_non_null(w);
	/* The auth flag first, then the test: read the same; left out: zero. */
	wb_be(w, 2, 2);
	wb_key(w, 6, false, 1);
	wb_be(w, 1, 1);
	wb_key(w, 2, false, 7);
	wb_bytes(w, "read_bw", 7);
	assert_int_equal(unpack_exact(up_hello, w->b, w->n), 0);
	assert_int_equal(rb_unpack_hello(w->b, w->n, &out), 0);
	assert_int_equal(out.auth, 1);
	assert_string_equal(out.test, "read_bw");
	assert_string_equal(out.tool_version, "");
	/* A flag past 1 is refused. */
	w->b[6] = 2;
	assert_int_equal(rb_unpack_hello(w->b, w->n, &out), -EBADMSG);
	free(w);
}

/* A v18 HELLO (fixed fields: u16-prefixed strings, the flag, the nonce) is refused. */
static void test_hello_v18_refused(void **state)
{
	struct rb_msg_hello out;
	struct wb *w = calloc(1, sizeof(*w));
	uint8_t hdr[RB_WIRE_HDR_LEN];
	struct rb_hdr h;
	char err[128];
	int i;

	(void)state;
	assert_non_null(w);
	wb_str(w, "0.8.0");
	wb_str(w, "write_bw");
	wb_str(w, "h");
	wb_str(w, "");
	wb_str(w, "");
	wb_be(w, 0, 1);
	for (i = 0; i < 32; i++)
		wb_be(w, 0, 1);
	assert_int_equal(rb_unpack_hello(w->b, w->n, &out), -EBADMSG);
	/* And its header names both versions before the body is read. */
	rb_hdr_pack(hdr, RB_MSG_HELLO, (uint32_t)w->n);
	hdr[5] = 18;
	assert_int_equal(rb_hdr_unpack(hdr, &h, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "v18"));
	assert_non_null(strstr(err, "v19"));
	free(w);
}

static void test_conn_unknown_fields(void **state)
{
	struct rb_msg_conn in, out;
	uint8_t *buf = malloc(RB_WIRE_MAX_BODY);
	char err[256] = "";
	size_t len;

	(void)state;
	assert_non_null(buf);
	sample_conn(&in, 2);
	len = (size_t)rb_pack_conn(&in, buf, RB_WIRE_MAX_BODY);
	/* A newer build's optional field 4000 (a hint): skipped. */
	len = add_field(buf, len, 4000, "\x01\x02\x03", 3);
	assert_int_equal(rb_unpack_conn_why(buf, len, &out, err, sizeof(err)), 0);
	assert_conn_equal(&in, &out);
	rb_conn_free(&out);
	/* Marked must-understand: refused, named, and nothing left allocated. */
	buf[len - 7] |= 0x80;
	assert_int_equal(rb_unpack_conn_why(buf, len, &out, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "CONN field 4000 is one this build does not know and must "
				    "understand"));
	assert_null(out.qp);
	assert_null(out.mr);
	rb_conn_free(&in);
	free(buf);
}

/* What the rows leave to the message: both lists, and MRs no more than QPs. */
static void test_conn_lists_required(void **state)
{
	struct rb_msg_conn out;
	struct wb *w = calloc(1, sizeof(*w));
	char err[256] = "";
	int i;

	(void)state;
	assert_non_null(w);
	wb_be(w, 2, 2);
	wb_key(w, 3, false, 4);
	wb_be(w, 0x1234, 4);
	wb_key(w, 6, false, 4 + 26);
	wb_be(w, 1, 4);
	for (i = 0; i < 26; i++)
		wb_be(w, 1, 1);
	assert_int_equal(rb_unpack_conn_why(w->b, w->n, &out, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "CONN without its MR list"));
	free(w);
}

/* `--list-wire`'s lines: each message's tags, as the packer marks them. */
static void test_list_wire(void **state)
{
	struct rb_msg_hello h;
	char *text = NULL;
	size_t size = 0, n;
	FILE *f = open_memstream(&text, &size);
	uint8_t buf[BUFSZ];
	int len;

	(void)state;
	assert_non_null(f);
	rb_wire_list(f);
	fclose(f);
	assert_non_null(strstr(text, "PARAMS\t2\tmust\taxis\tsize\n"));
	assert_non_null(strstr(text, "PARAMS\t1\tmust\tstr\ttest\n"));
	assert_non_null(strstr(text, "HELLO\t2\tmust\tstr\ttest\n"));
	assert_non_null(strstr(text, "HELLO\t1\toptional\tstr\ttool_version\n"));
	assert_non_null(strstr(text, "CONN\t6\tmust\tqps\tqp\n"));
	assert_non_null(strstr(text, "CONN\t17\toptional\tstr\tplace.cpus\n"));
	sample_hello(&h);
	len = rb_pack_hello(&h, buf, sizeof(buf));
	assert_non_null(kfield(buf, (size_t)len, 0x8002, &n));
	assert_non_null(kfield(buf, (size_t)len, 0x0001, &n));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello_unknown_fields),
		cmocka_unit_test(test_hello_any_order),
		cmocka_unit_test(test_hello_v18_refused),
		cmocka_unit_test(test_conn_unknown_fields),
		cmocka_unit_test(test_conn_lists_required),
		cmocka_unit_test(test_list_wire),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
