// SPDX-License-Identifier: MIT
/*
 * Unit tests for --auth-key (src/wire/auth.c, auth_hs.c): key files (hex,
 * raw, mode 0644, malformed, RDMABENCH_AUTH_KEY), the handshake over a
 * socketpair (right key, wrong key, a key on one side only, a replayed
 * proof, a truncated AUTH) and the tags of later frames (replayed,
 * altered, reflected).
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "wire/auth.h"
#include "wire/oob.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/rb-auth-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

/* A file @name under dir with @n bytes of @data and @mode; its path. */
static const char *file(const char *name, const void *data, size_t n, mode_t mode)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
	return path;
}

static const char hex[] = "000102030405060708090a0b0c0d0e0f"
			  "101112131415161718191a1b1c1d1e1f\n";

static void test_key_hex_and_raw(void **state)
{
	struct rb_auth_key k;
	uint8_t raw[32];
	char err[256];
	int i;

	(void)state;
	for (i = 0; i < 32; i++)
		raw[i] = (uint8_t)i;
	assert_int_equal(
		rb_auth_key_load(file("hex", hex, strlen(hex), 0600), &k, err, sizeof(err)), 0);
	assert_true(k.set);
	assert_memory_equal(k.k, raw, 32);
	memset(&k, 0, sizeof(k));
	assert_int_equal(rb_auth_key_load(file("raw", raw, 32, 0400), &k, err, sizeof(err)), 0);
	assert_memory_equal(k.k, raw, 32);
}

static void test_key_mode_refused(void **state)
{
	struct rb_auth_key k;
	const char *p;
	char err[256], want[200];

	(void)state;
	p = file("open", hex, strlen(hex), 0644);
	assert_int_equal(rb_auth_key_load(p, &k, err, sizeof(err)), -EPERM);
	assert_false(k.set);
	snprintf(want, sizeof(want),
		 "--auth-key %s: the key file has mode 0644, open to group or "
		 "others: run 'chmod 600 %s'",
		 p, p);
	assert_string_equal(err, want);
	/* Group write alone is enough to refuse it. */
	p = file("gw", hex, strlen(hex), 0620);
	assert_int_equal(rb_auth_key_load(p, &k, err, sizeof(err)), -EPERM);
}

static void test_key_malformed(void **state)
{
	struct rb_auth_key k;
	char err[256];

	(void)state;
	/* 63 digits, 31 bytes, a non-hex digit, 33 bytes */
	assert_int_equal(rb_auth_key_load(file("short", hex, 63, 0600), &k, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "not a key"));
	assert_int_equal(rb_auth_key_load(file("b31", hex, 31, 0600), &k, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(rb_auth_key_load(file("nothex",
					       "g00102030405060708090a0b0c0d0e0f"
					       "101112131415161718191a1b1c1d1e1f",
					       64, 0600),
					  &k, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(rb_auth_key_load(file("b33", hex, 33, 0600), &k, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(rb_auth_key_load("/nonexistent/key", &k, err, sizeof(err)), -ENOENT);
}

static void test_key_env(void **state)
{
	struct rb_local l;
	char err[256];

	(void)state;
	memset(&l, 0, sizeof(l));
	unsetenv(RB_AUTH_ENV);
	assert_int_equal(rb_auth_local(&l, err, sizeof(err)), 0);
	assert_false(l.auth_loaded);
	setenv(RB_AUTH_ENV, file("env", hex, strlen(hex), 0600), 1);
	assert_int_equal(rb_auth_local(&l, err, sizeof(err)), 0);
	assert_true(l.auth_loaded);
	assert_int_equal(l.auth_k[31], 0x1f);
	/* --auth-key wins over the environment. */
	memset(&l, 0, sizeof(l));
	snprintf(l.auth_key, sizeof(l.auth_key), "%s", file("o", hex, strlen(hex), 0644));
	assert_int_equal(rb_auth_local(&l, err, sizeof(err)), -EPERM);
	unsetenv(RB_AUTH_ENV);
}

/* ---- the handshake over a socketpair ----------------------------------- */

struct side {
	struct rb_oob o;
	struct rb_auth_key key;
	struct rb_auth_chan chan;
	int ret;
	/* the server's: HELLO's auth flag as it came, its last error */
	uint8_t hello_auth;
	char err[RB_TEXT_MAX];
};

static void key_of(struct rb_auth_key *k, uint8_t fill, bool set)
{
	memset(k->k, fill, sizeof(k->k));
	k->set = set;
}

/* The server: HELLO, the handshake, then OK (tagged with a key) and a PARAMS-like echo. */
static void *server(void *arg)
{
	static __thread uint8_t body[RB_WIRE_MAX_BODY];
	struct side *s = arg;
	struct rb_msg_hello h;
	uint32_t len;

	s->ret = rb_oob_expect(&s->o, RB_MSG_HELLO, body, sizeof(body), &len);
	if (!s->ret)
		s->ret = rb_unpack_hello(body, len, &h);
	if (!s->ret) {
		s->hello_auth = h.auth;
		s->ret = rb_oob_hello_auth(&s->o, &h, body, len, &s->key, &s->chan);
	}
	if (!s->ret)
		s->ret = rb_oob_send(&s->o, RB_MSG_OK, NULL, 0);
	else
		rb_oob_send_error(&s->o, "server: %s", rb_last_error);
	if (!s->ret)
		s->ret = rb_oob_expect(&s->o, RB_MSG_BYE, body, sizeof(body), &len);
	snprintf(s->err, sizeof(s->err), "%s", s->ret ? rb_last_error : "");
	rb_oob_close(&s->o);
	return NULL;
}

static void pair(struct side *c, struct side *s)
{
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	memset(&c->o, 0, sizeof(c->o));
	memset(&s->o, 0, sizeof(s->o));
	c->o.fd = sv[0];
	s->o.fd = sv[1];
	c->o.timeout_ms = s->o.timeout_ms = 3000;
	snprintf(c->o.peer, sizeof(c->o.peer), "server");
	snprintf(s->o.peer, sizeof(s->o.peer), "10.9.8.7:4242");
}

/* A whole exchange: the client's HELLO, OK and BYE; the client's result. */
static int run(struct side *c, struct side *s)
{
	static uint8_t body[RB_WIRE_MAX_BODY];
	struct rb_msg_hello h = { .tool_version = "t", .test = "tcp_lat" };
	pthread_t th;
	uint32_t len;

	pair(c, s);
	assert_int_equal(pthread_create(&th, NULL, server, s), 0);
	c->ret = rb_oob_hello(&c->o, &h, &c->key, &c->chan);
	if (!c->ret)
		c->ret = rb_oob_expect(&c->o, RB_MSG_OK, body, sizeof(body), &len);
	if (!c->ret)
		c->ret = rb_oob_send(&c->o, RB_MSG_BYE, NULL, 0);
	rb_oob_close(&c->o);
	pthread_join(th, NULL);
	return c->ret;
}

static void test_hs_right_key(void **state)
{
	struct side c, s;

	(void)state;
	key_of(&c.key, 7, true);
	key_of(&s.key, 7, true);
	assert_int_equal(run(&c, &s), 0);
	assert_int_equal(s.ret, 0);
	assert_int_equal(s.hello_auth, 1);
	/* OK and BYE went through the tags: each side counted one frame each way. */
	assert_int_equal(c.chan.send_seq, 1);
	assert_int_equal(c.chan.recv_seq, 1);
	assert_int_equal(s.chan.send_seq, 1);
	assert_int_equal(s.chan.recv_seq, 1);
	/* Neither side's key crossed: the directions' keys differ from it. */
	assert_memory_not_equal(c.chan.send_key, c.key.k, 32);
	assert_memory_equal(c.chan.send_key, s.chan.recv_key, 32);
	assert_memory_not_equal(c.chan.send_key, c.chan.recv_key, 32);
}

static void test_hs_no_keys(void **state)
{
	struct side c, s;

	(void)state;
	key_of(&c.key, 0, false);
	key_of(&s.key, 0, false);
	assert_int_equal(run(&c, &s), 0);
	assert_int_equal(s.ret, 0);
	assert_null(c.o.auth);
}

static void test_hs_wrong_key(void **state)
{
	struct side c, s;

	(void)state;
	key_of(&c.key, 7, true);
	key_of(&s.key, 8, true);
	assert_int_equal(run(&c, &s), -EACCES);
	assert_int_equal(s.ret, -EACCES);
	/* The server names the client's address, and the same words for any failed proof. */
	assert_string_equal(s.err, "client 10.9.8.7:4242: authentication failed (--auth-key)");
	assert_string_equal(rb_last_error, "authentication with server server failed: it does not "
					   "hold this --auth-key's key (a wrong key on either "
					   "side, or "
					   "not the server meant)");
}

static void test_hs_one_side_keyed(void **state)
{
	struct side c, s;

	(void)state;
	key_of(&c.key, 0, false);
	key_of(&s.key, 7, true);
	assert_int_equal(run(&c, &s), -ECONNABORTED);
	assert_int_equal(s.ret, -EACCES);
	assert_non_null(strstr(rb_last_error, "gave up: server: client 10.9.8.7:4242 has no key; "
					      "this server takes only clients with its key: run "
					      "the "
					      "client with --auth-key FILE"));
	key_of(&c.key, 7, true);
	key_of(&s.key, 0, false);
	assert_int_equal(run(&c, &s), -ECONNABORTED);
	assert_int_equal(s.ret, -EACCES);
	assert_non_null(strstr(rb_last_error, "gave up: server: client 10.9.8.7:4242 has "
					      "--auth-key; this server has none"));
}

/* The raw frames of a hostile client; its @body's AUTH answer into @sn/@tag. */
static void send_frame(int fd, uint16_t type, const uint8_t *body, uint32_t len)
{
	uint8_t hdr[RB_WIRE_HDR_LEN];

	rb_hdr_pack(hdr, type, len);
	assert_int_equal(write(fd, hdr, sizeof(hdr)), sizeof(hdr));
	if (len)
		assert_int_equal(write(fd, body, len), (ssize_t)len);
}

static void recv_auth(int fd, uint8_t *sn, uint8_t *tag)
{
	uint8_t hdr[RB_WIRE_HDR_LEN], body[RB_AUTH_BODY_LEN];
	struct rb_hdr h;
	char err[128];

	assert_int_equal(read(fd, hdr, sizeof(hdr)), sizeof(hdr));
	assert_int_equal(rb_hdr_unpack(hdr, &h, err, sizeof(err)), 0);
	assert_int_equal(h.type, RB_MSG_AUTH);
	assert_int_equal(recv(fd, body, h.len, MSG_WAITALL), RB_AUTH_BODY_LEN);
	assert_int_equal(rb_auth_unpack(body, h.len, sn, tag), 0);
}

/*
 * A recorded exchange played again: the client's proof was right for the
 * first server nonce, and is refused under the second.
 */
static void test_hs_replayed_proof(void **state)
{
	struct rb_msg_hello h = { .tool_version = "t", .test = "tcp_lat", .auth = 1 };
	uint8_t raw[512], proof[RB_AUTH_TAG_LEN], body[RB_AUTH_BODY_LEN];
	uint8_t sn[RB_AUTH_NONCE_LEN], sn2[RB_AUTH_NONCE_LEN], tag[RB_AUTH_TAG_LEN];
	struct side c, s;
	pthread_t th;
	int n, round;

	(void)state;
	memset(h.nonce, 0x33, sizeof(h.nonce));
	n = rb_pack_hello(&h, raw, sizeof(raw));
	key_of(&c.key, 5, true);
	for (round = 0; round < 2; round++) {
		key_of(&s.key, 5, true);
		pair(&c, &s);
		assert_int_equal(pthread_create(&th, NULL, server, &s), 0);
		send_frame(c.o.fd, RB_MSG_HELLO, raw, (uint32_t)n);
		recv_auth(c.o.fd, round ? sn2 : sn, tag);
		assert_true(rb_auth_proof_ok(&c.key, 'S', h.nonce, round ? sn2 : sn, raw, (size_t)n,
					     tag));
		/* Round 0: the proof for this nonce; round 1: the same bytes again. */
		if (!round)
			rb_auth_proof(&c.key, 'C', h.nonce, sn, raw, (size_t)n, proof);
		send_frame(c.o.fd, RB_MSG_AUTH, body,
			   (uint32_t)rb_auth_pack(NULL, proof, body, sizeof(body)));
		if (round)
			shutdown(c.o.fd, SHUT_WR);
		else
			c.o.timeout_ms = 3000;
		if (!round) {
			/* A right proof: the server's OK comes tagged, BYE goes tagged. */
			uint32_t len;
			uint8_t b[64];

			rb_auth_chan_init(&c.chan, &c.key, true, h.nonce, sn);
			c.o.auth = &c.chan;
			assert_int_equal(rb_oob_expect(&c.o, RB_MSG_OK, b, sizeof(b), &len), 0);
			assert_int_equal(rb_oob_send(&c.o, RB_MSG_BYE, NULL, 0), 0);
		}
		pthread_join(th, NULL);
		close(c.o.fd);
		assert_int_equal(s.ret, round ? -EACCES : 0);
	}
	assert_memory_not_equal(sn, sn2, sizeof(sn));
	assert_string_equal(s.err, "client 10.9.8.7:4242: authentication failed (--auth-key)");
}

/* An AUTH a byte short: refused as any failed proof. */
static void test_hs_truncated(void **state)
{
	struct rb_msg_hello h = { .tool_version = "t", .test = "tcp_lat", .auth = 1 };
	uint8_t raw[512], body[RB_AUTH_BODY_LEN], sn[RB_AUTH_NONCE_LEN], tag[RB_AUTH_TAG_LEN];
	struct side c, s;
	pthread_t th;
	int n;

	(void)state;
	n = rb_pack_hello(&h, raw, sizeof(raw));
	key_of(&c.key, 5, true);
	key_of(&s.key, 5, true);
	pair(&c, &s);
	assert_int_equal(pthread_create(&th, NULL, server, &s), 0);
	send_frame(c.o.fd, RB_MSG_HELLO, raw, (uint32_t)n);
	recv_auth(c.o.fd, sn, tag);
	rb_auth_proof(&c.key, 'C', h.nonce, sn, raw, (size_t)n, tag);
	rb_auth_pack(NULL, tag, body, sizeof(body));
	send_frame(c.o.fd, RB_MSG_AUTH, body, RB_AUTH_BODY_LEN - 1);
	pthread_join(th, NULL);
	close(c.o.fd);
	assert_int_equal(s.ret, -EACCES);
	assert_string_equal(s.err, "client 10.9.8.7:4242: authentication failed (--auth-key)");
	/* A HELLO cut inside its nonce is no HELLO. */
	struct rb_msg_hello out;

	assert_int_equal(rb_unpack_hello(raw, (size_t)n - 1, &out), -EBADMSG);
}

/* Later frames: a replay, an altered byte, a frame sent back to its sender: refused. */
static void test_frame_tags(void **state)
{
	struct rb_auth_chan c, s;
	struct rb_auth_key k;
	uint8_t cn[32] = { 1 }, sn[32] = { 2 }, hdr[RB_WIRE_HDR_LEN], body[8] = "payload";
	uint8_t t0[RB_AUTH_TAG_LEN], t1[RB_AUTH_TAG_LEN];

	(void)state;
	key_of(&k, 9, true);
	rb_auth_chan_init(&c, &k, true, cn, sn);
	rb_auth_chan_init(&s, &k, false, cn, sn);
	rb_hdr_pack(hdr, RB_MSG_SYNC, sizeof(body));
	rb_auth_seal(&c, hdr, body, sizeof(body), t0);
	rb_auth_seal(&c, hdr, body, sizeof(body), t1);
	/* Reflected: the client's own frame back to it. */
	assert_false(rb_auth_open(&c, hdr, body, sizeof(body), t0));
	/* Out of order: frame 1 first. */
	assert_false(rb_auth_open(&s, hdr, body, sizeof(body), t1));
	body[0] ^= 1;
	assert_false(rb_auth_open(&s, hdr, body, sizeof(body), t0));
	body[0] ^= 1;
	assert_true(rb_auth_open(&s, hdr, body, sizeof(body), t0));
	/* Replayed: frame 0 again. */
	assert_false(rb_auth_open(&s, hdr, body, sizeof(body), t0));
	assert_true(rb_auth_open(&s, hdr, body, sizeof(body), t1));
	/* Another session (other nonces): none of these tags. */
	sn[0] = 3;
	rb_auth_chan_init(&s, &k, false, cn, sn);
	assert_false(rb_auth_open(&s, hdr, body, sizeof(body), t0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_hex_and_raw),	  cmocka_unit_test(test_key_mode_refused),
		cmocka_unit_test(test_key_malformed),	  cmocka_unit_test(test_key_env),
		cmocka_unit_test(test_hs_right_key),	  cmocka_unit_test(test_hs_no_keys),
		cmocka_unit_test(test_hs_wrong_key),	  cmocka_unit_test(test_hs_one_side_keyed),
		cmocka_unit_test(test_hs_replayed_proof), cmocka_unit_test(test_hs_truncated),
		cmocka_unit_test(test_frame_tags),
	};

	rb_quiet = true;
	return cmocka_run_group_tests(tests, setup, teardown);
}
