// SPDX-License-Identifier: MIT
/* --auth-key: key files and the handshake's and frames' tags (auth.h). */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wire/auth.h"

#define PROOF_LABEL "rdmabench-auth-1"
#define KDF_CONTEXT "rdmbauth" /* crypto_kdf_CONTEXTBYTES: 8 */
enum { KDF_C2S = 1, KDF_S2C = 2 };

/* libsodium's own setup, once (it is safe to call again, from any thread). */
static void sodium_ready(void)
{
	if (sodium_init() < 0)
		abort(); /* no source of randomness: nothing here could be safe */
}

/* The key in @buf of @n bytes: 32 raw bytes, or 64 hex digits with white space around. */
static int key_parse(const uint8_t *buf, size_t n, struct rb_auth_key *key)
{
	size_t b = 0, e = n, got = 0;

	if (n == RB_AUTH_KEY_LEN) {
		memcpy(key->k, buf, n);
		key->set = true;
		return 0;
	}
	while (b < e && strchr(" \t\r\n", buf[b]))
		b++;
	while (e > b && strchr(" \t\r\n", buf[e - 1]))
		e--;
	if (e - b != 2 * RB_AUTH_KEY_LEN ||
	    sodium_hex2bin(key->k, sizeof(key->k), (const char *)buf + b, e - b, NULL, &got,
			   NULL) ||
	    got != RB_AUTH_KEY_LEN)
		return -EINVAL;
	key->set = true;
	return 0;
}

int rb_auth_key_load(const char *path, struct rb_auth_key *key, char *err, size_t errlen)
{
	uint8_t buf[2 * RB_AUTH_KEY_LEN + 64];
	struct stat st;
	ssize_t n;
	int fd, ret;

	memset(key, 0, sizeof(*key));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "--auth-key %s: %s", path, strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--auth-key %s: not a regular file", path);
		close(fd);
		return -EINVAL;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		snprintf(err, errlen,
			 "--auth-key %s: the key file has mode %04o, open to group or others: "
			 "run 'chmod 600 %s'",
			 path, (unsigned)(st.st_mode & 07777), path);
		close(fd);
		return -EPERM;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0 || key_parse(buf, (size_t)(n < 0 ? 0 : n), key)) {
		snprintf(err, errlen,
			 "--auth-key %s: not a key: it must hold 64 hexadecimal digits or exactly "
			 "32 bytes (e.g. 'head -c 32 /dev/urandom >FILE; chmod 600 FILE')",
			 path);
		sodium_memzero(buf, sizeof(buf));
		return -EINVAL;
	}
	sodium_memzero(buf, sizeof(buf));
	return 0;
}

int rb_auth_local(struct rb_local *l, char *err, size_t errlen)
{
	const char *env = getenv(RB_AUTH_ENV);
	struct rb_auth_key key;
	int ret;

	if (l->auth_loaded)
		return 0;
	if (!l->auth_key[0] && env && env[0])
		snprintf(l->auth_key, sizeof(l->auth_key), "%s", env);
	if (!l->auth_key[0])
		return 0;
	ret = rb_auth_key_load(l->auth_key, &key, err, errlen);
	if (ret)
		return ret;
	memcpy(l->auth_k, key.k, sizeof(l->auth_k));
	l->auth_loaded = true;
	sodium_memzero(&key, sizeof(key));
	return 0;
}

void rb_auth_key_of(const struct rb_local *l, struct rb_auth_key *key)
{
	key->set = l->auth_loaded;
	memcpy(key->k, l->auth_k, sizeof(key->k));
}

void rb_auth_nonce(uint8_t n[RB_AUTH_NONCE_LEN])
{
	sodium_ready();
	randombytes_buf(n, RB_AUTH_NONCE_LEN);
}

void rb_auth_proof(const struct rb_auth_key *key, char role, const uint8_t *cnonce,
		   const uint8_t *snonce, const uint8_t *hello, size_t hello_len,
		   uint8_t tag[RB_AUTH_TAG_LEN])
{
	crypto_auth_hmacsha512256_state st;
	uint8_t r = (uint8_t)role;

	sodium_ready();
	crypto_auth_hmacsha512256_init(&st, key->k, RB_AUTH_KEY_LEN);
	crypto_auth_hmacsha512256_update(&st, (const uint8_t *)PROOF_LABEL, strlen(PROOF_LABEL));
	crypto_auth_hmacsha512256_update(&st, &r, 1);
	crypto_auth_hmacsha512256_update(&st, cnonce, RB_AUTH_NONCE_LEN);
	crypto_auth_hmacsha512256_update(&st, snonce, RB_AUTH_NONCE_LEN);
	crypto_auth_hmacsha512256_update(&st, hello, hello_len);
	crypto_auth_hmacsha512256_final(&st, tag);
	sodium_memzero(&st, sizeof(st));
}

bool rb_auth_proof_ok(const struct rb_auth_key *key, char role, const uint8_t *cnonce,
		      const uint8_t *snonce, const uint8_t *hello, size_t hello_len,
		      const uint8_t tag[RB_AUTH_TAG_LEN])
{
	uint8_t want[RB_AUTH_TAG_LEN];
	bool ok;

	rb_auth_proof(key, role, cnonce, snonce, hello, hello_len, want);
	ok = !sodium_memcmp(want, tag, RB_AUTH_TAG_LEN);
	sodium_memzero(want, sizeof(want));
	return ok;
}

int rb_auth_pack(const uint8_t *nonce, const uint8_t *tag, uint8_t *buf, size_t cap)
{
	if (cap < RB_AUTH_BODY_LEN)
		return -EMSGSIZE;
	if (nonce)
		memcpy(buf, nonce, RB_AUTH_NONCE_LEN);
	else
		memset(buf, 0, RB_AUTH_NONCE_LEN);
	memcpy(buf + RB_AUTH_NONCE_LEN, tag, RB_AUTH_TAG_LEN);
	return RB_AUTH_BODY_LEN;
}

int rb_auth_unpack(const uint8_t *buf, size_t len, uint8_t *nonce, uint8_t *tag)
{
	if (len != RB_AUTH_BODY_LEN)
		return -EBADMSG;
	memcpy(nonce, buf, RB_AUTH_NONCE_LEN);
	memcpy(tag, buf + RB_AUTH_NONCE_LEN, RB_AUTH_TAG_LEN);
	return 0;
}

void rb_auth_chan_init(struct rb_auth_chan *c, const struct rb_auth_key *key, bool client,
		       const uint8_t *cnonce, const uint8_t *snonce)
{
	uint8_t master[crypto_kdf_KEYBYTES], both[2 * RB_AUTH_NONCE_LEN];

	sodium_ready();
	memcpy(both, cnonce, RB_AUTH_NONCE_LEN);
	memcpy(both + RB_AUTH_NONCE_LEN, snonce, RB_AUTH_NONCE_LEN);
	crypto_generichash(master, sizeof(master), both, sizeof(both), key->k, RB_AUTH_KEY_LEN);
	crypto_kdf_derive_from_key(c->send_key, sizeof(c->send_key), client ? KDF_C2S : KDF_S2C,
				   KDF_CONTEXT, master);
	crypto_kdf_derive_from_key(c->recv_key, sizeof(c->recv_key), client ? KDF_S2C : KDF_C2S,
				   KDF_CONTEXT, master);
	c->send_seq = c->recv_seq = 0;
	sodium_memzero(master, sizeof(master));
}

static void frame_tag(const uint8_t *k, uint64_t seq, const uint8_t *hdr, const uint8_t *body,
		      uint32_t len, uint8_t tag[RB_AUTH_TAG_LEN])
{
	crypto_auth_hmacsha512256_state st;
	uint8_t s[8];
	int i;

	for (i = 0; i < 8; i++)
		s[i] = (uint8_t)(seq >> (56 - 8 * i));
	crypto_auth_hmacsha512256_init(&st, k, RB_AUTH_KEY_LEN);
	crypto_auth_hmacsha512256_update(&st, s, sizeof(s));
	crypto_auth_hmacsha512256_update(&st, hdr, 12); /* RB_WIRE_HDR_LEN */
	if (len)
		crypto_auth_hmacsha512256_update(&st, body, len);
	crypto_auth_hmacsha512256_final(&st, tag);
}

void rb_auth_seal(struct rb_auth_chan *c, const uint8_t *hdr, const uint8_t *body, uint32_t len,
		  uint8_t tag[RB_AUTH_TAG_LEN])
{
	frame_tag(c->send_key, c->send_seq++, hdr, body, len, tag);
}

bool rb_auth_open(struct rb_auth_chan *c, const uint8_t *hdr, const uint8_t *body, uint32_t len,
		  const uint8_t tag[RB_AUTH_TAG_LEN])
{
	uint8_t want[RB_AUTH_TAG_LEN];

	frame_tag(c->recv_key, c->recv_seq, hdr, body, len, want);
	if (sodium_memcmp(want, tag, RB_AUTH_TAG_LEN))
		return false;
	c->recv_seq++;
	return true;
}
