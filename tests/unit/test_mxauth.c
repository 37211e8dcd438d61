// SPDX-License-Identifier: MIT
/*
 * Unit tests for --auth-key on the matrix coordinator's connections
 * (src/matrix/matrix_auth.c, issue 41): JOIN's key fields, then the
 * handshake over a socketpair with the coordinator's half as
 * matrix_coord.c runs it (right key, wrong key, a key on one side only,
 * a forged or truncated AUTH), WELCOME and later frames tagged.  A rank
 * that stalls mid-handshake is tests/matrix_hostile.sh's job 3 (it needs
 * the coordinator's whole join loop).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>
#include "matrix/matrix_auth.h"
#include "wire/wire.h"

static uint8_t buf[4096];

static void key_of(struct rb_auth_key *k, uint8_t fill, bool set)
{
	memset(k->k, fill, sizeof(k->k));
	k->set = set;
}

static int pack_join(struct rb_mx_join *m, bool auth, uint8_t *out, size_t cap)
{
	memset(m, 0, sizeof(*m));
	m->proto = RB_MX_PROTO;
	m->rank = 1;
	m->nranks = 2;
	strcpy(m->test, "send_lat");
	strcpy(m->host, "node01");
	m->auth = auth;
	if (auth)
		rb_auth_nonce(m->nonce);
	return rb_mx_pack_join(m, out, cap);
}

static void test_join_auth_fields(void **state)
{
	struct rb_mx_join m, got;
	int n;

	(void)state;
	n = pack_join(&m, true, buf, sizeof(buf));
	assert_true(n > 33);
	assert_int_equal(rb_mx_unpack_join(buf, (size_t)n, &got), 0);
	assert_int_equal(got.auth, 1);
	assert_memory_equal(got.nonce, m.nonce, RB_AUTH_NONCE_LEN);
	/* The flag is 0 or 1; the nonce is whole. */
	buf[n - RB_AUTH_NONCE_LEN - 1] = 2;
	assert_int_equal(rb_mx_unpack_join(buf, (size_t)n, &got), -EBADMSG);
	assert_int_equal(rb_mx_unpack_join(buf, (size_t)n - 1, &got), -EBADMSG);
	/* Another version: its common fields read, the rest ignored, to be named. */
	m.proto = RB_MX_PROTO - 1;
	n = rb_mx_pack_join(&m, buf, sizeof(buf));
	assert_int_equal(rb_mx_unpack_join(buf, (size_t)n - RB_AUTH_NONCE_LEN - 1, &got), 0);
	assert_int_equal(got.proto, RB_MX_PROTO - 1);
	assert_int_equal(got.auth, 0);
	assert_string_equal(got.host, "node01");
}

static void test_agree(void **state)
{
	struct rb_auth_key none, key;
	struct rb_mx_join m;
	char err[256];

	(void)state;
	key_of(&none, 0, false);
	key_of(&key, 7, true);
	pack_join(&m, false, buf, sizeof(buf));
	assert_int_equal(rb_mx_auth_agree(&none, &m, err, sizeof(err)), 0);
	assert_int_equal(rb_mx_auth_agree(&key, &m, err, sizeof(err)), -EACCES);
	assert_string_equal(err, "the rank has no key; this coordinator takes only ranks with its "
				 "key: run the rank with --auth-key FILE (or "
				 "RDMABENCH_AUTH_KEY=FILE)");
	pack_join(&m, true, buf, sizeof(buf));
	assert_int_equal(rb_mx_auth_agree(&key, &m, err, sizeof(err)), 0);
	assert_int_equal(rb_mx_auth_agree(&none, &m, err, sizeof(err)), -EACCES);
	assert_non_null(strstr(err, "the rank has --auth-key; this coordinator has none"));
}

/* ---- the handshake over a socketpair ----------------------------------- */

struct rank {
	struct rb_oob o;
	struct rb_auth_key key;
	struct rb_auth_chan chan;
	int ret;
	bool forge;	       /* send a proof of nothing in place of AUTH */
	char err[RB_TEXT_MAX]; /* its last error (rb_last_error is the thread's) */
};

/* The rank: JOIN, the handshake, WELCOME (tagged), then a BEAT back. */
static void *rank_main(void *arg)
{
	static uint8_t raw[512], body[4096];
	struct rank *r = arg;
	struct rb_mx_join m;
	uint32_t len;
	int n = pack_join(&m, r->key.set, raw, sizeof(raw));

	r->ret = rb_oob_send(&r->o, RB_MX_MSG_JOIN, raw, (uint32_t)n);
	if (!r->ret && r->forge) {
		r->ret = rb_oob_expect(&r->o, RB_MSG_AUTH, body, sizeof(body), &len);
		memset(body, 0, RB_AUTH_BODY_LEN);
		if (!r->ret)
			r->ret = rb_oob_send(&r->o, RB_MSG_AUTH, body, RB_AUTH_BODY_LEN - 1);
	} else if (!r->ret && r->key.set) {
		r->ret = rb_mx_auth_rank(&r->o, &r->key, m.nonce, raw, (uint32_t)n, &r->chan);
	}
	if (!r->ret)
		r->ret = rb_oob_expect(&r->o, RB_MX_MSG_WELCOME, body, sizeof(body), &len);
	if (!r->ret)
		r->ret = rb_oob_send(&r->o, RB_MX_MSG_BEAT, NULL, 0);
	snprintf(r->err, sizeof(r->err), "%s", r->ret ? rb_last_error : "");
	rb_oob_close(&r->o);
	return NULL;
}

/* The coordinator's half, as matrix_coord.c's join_one() and auth_one(). */
static int coordinate(struct rb_oob *o, const struct rb_auth_key *key, struct rb_auth_chan *chan)
{
	static uint8_t join[512], body[4096];
	uint8_t snonce[RB_AUTH_NONCE_LEN], ch[RB_AUTH_BODY_LEN];
	struct rb_mx_join m;
	char err[256];
	uint32_t jlen, len;
	uint16_t t;
	int ret;

	ret = rb_oob_expect(o, RB_MX_MSG_JOIN, join, sizeof(join), &jlen);
	if (!ret)
		ret = rb_mx_unpack_join(join, jlen, &m);
	if (!ret && rb_mx_auth_agree(key, &m, err, sizeof(err))) {
		rb_oob_send_error(o, "coordinator: %s", err); /* as refuse() */
		ret = -EACCES;
	}
	if (ret || !key->set)
		goto out;
	ret = rb_oob_send(o, RB_MSG_AUTH, ch,
			  (uint32_t)rb_mx_auth_challenge(key, &m, join, jlen, snonce, ch));
	if (!ret)
		ret = rb_oob_expect(o, RB_MSG_AUTH, body, sizeof(body), &len);
	if (!ret)
		ret = rb_mx_auth_verify(key, &m, snonce, join, jlen, body, len, chan);
	if (!ret)
		o->auth = chan;
out:
	if (!ret)
		ret = rb_oob_send(o, RB_MX_MSG_WELCOME, NULL, 0);
	if (!ret)
		ret = rb_oob_recv(o, &t, body, sizeof(body), &len);
	if (!ret && t != RB_MX_MSG_BEAT)
		ret = -EPROTO;
	rb_oob_close(o);
	return ret;
}

static int run(struct rank *r, const struct rb_auth_key *ckey, struct rb_auth_chan *cchan)
{
	struct rb_oob co = { .timeout_ms = 3000 };
	pthread_t th;
	int sv[2], ret;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	memset(&r->o, 0, sizeof(r->o));
	r->o.fd = sv[0];
	co.fd = sv[1];
	r->o.timeout_ms = 3000;
	snprintf(r->o.peer, sizeof(r->o.peer), "coord:1");
	snprintf(co.peer, sizeof(co.peer), "10.9.8.7:4242");
	assert_int_equal(pthread_create(&th, NULL, rank_main, r), 0);
	ret = coordinate(&co, ckey, cchan);
	pthread_join(th, NULL);
	return ret;
}

static void test_right_key(void **state)
{
	struct rank r = { .forge = false };
	struct rb_auth_key key;
	struct rb_auth_chan cchan;

	(void)state;
	key_of(&r.key, 7, true);
	key_of(&key, 7, true);
	assert_int_equal(run(&r, &key, &cchan), 0);
	assert_int_equal(r.ret, 0);
	/* WELCOME and the BEAT went through the tags, one frame each way. */
	assert_int_equal(r.chan.recv_seq, 1);
	assert_int_equal(r.chan.send_seq, 1);
	assert_int_equal(cchan.send_seq, 1);
	assert_int_equal(cchan.recv_seq, 1);
	assert_memory_equal(r.chan.send_key, cchan.recv_key, RB_AUTH_KEY_LEN);
	assert_memory_not_equal(r.chan.send_key, key.k, RB_AUTH_KEY_LEN);
}

static void test_wrong_key(void **state)
{
	struct rank r = { .forge = false };
	struct rb_auth_key key;
	struct rb_auth_chan cchan;

	(void)state;
	key_of(&r.key, 7, true);
	key_of(&key, 8, true);
	assert_int_equal(run(&r, &key, &cchan), -EACCES);
	assert_int_equal(r.ret, -EACCES);
	assert_string_equal(r.err, "authentication with coordinator coord:1 failed: it does not "
				   "hold this "
				   "--auth-key's key (a wrong key on either side, or not the "
				   "coordinator "
				   "meant)");
}

static void test_forged_proof(void **state)
{
	struct rank r = { .forge = true };
	struct rb_auth_key key;
	struct rb_auth_chan cchan;

	(void)state;
	key_of(&r.key, 7, true);
	key_of(&key, 7, true);
	/* A truncated AUTH of zeros: refused, never welcomed. */
	assert_int_equal(run(&r, &key, &cchan), -EACCES);
	assert_int_not_equal(r.ret, 0);
}

static void test_one_side_keyed(void **state)
{
	struct rank r = { .forge = false };
	struct rb_auth_key key;
	struct rb_auth_chan cchan;

	(void)state;
	/* An unkeyed rank, a keyed coordinator. */
	key_of(&r.key, 0, false);
	key_of(&key, 7, true);
	assert_int_equal(run(&r, &key, &cchan), -EACCES);
	assert_int_not_equal(r.ret, 0);
	assert_string_equal(r.err, "peer coord:1 gave up: coordinator: the rank has no key; this "
				   "coordinator takes only ranks with its key: run the rank with "
				   "--auth-key FILE (or RDMABENCH_AUTH_KEY=FILE)");
	/* A keyed rank, an unkeyed coordinator. */
	key_of(&r.key, 7, true);
	key_of(&key, 0, false);
	assert_int_equal(run(&r, &key, &cchan), -EACCES);
	assert_int_not_equal(r.ret, 0);
	assert_non_null(strstr(r.err, "gave up: coordinator: the rank has --auth-key; this "
				      "coordinator has none"));
	/* Neither keyed: frames alone. */
	key_of(&r.key, 0, false);
	assert_int_equal(run(&r, &key, &cchan), 0);
	assert_int_equal(r.ret, 0);
	assert_null(r.o.auth);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join_auth_fields), cmocka_unit_test(test_agree),
		cmocka_unit_test(test_right_key),	 cmocka_unit_test(test_wrong_key),
		cmocka_unit_test(test_forged_proof),	 cmocka_unit_test(test_one_side_keyed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
