/* SPDX-License-Identifier: MIT */
/*
 * --auth-key: a pre-shared key, a mutual challenge-response in HELLO, then
 * every control message authenticated.  All of the cryptography is
 * libsodium's (crypto_auth: HMAC-SHA-512-256; crypto_generichash and
 * crypto_kdf for the session's keys; randombytes for nonces).
 *
 *   client                                  server
 *   HELLO(..., auth 1, nonce C)        ->
 *                                      <-   AUTH(nonce S, proof_S)
 *   AUTH(0, proof_C)                   ->
 *   ... every later frame carries a tag (below) ...
 *
 * proof_X = HMAC(key, "rdmabench-auth-1" | role X | C | S | HELLO body),
 * role 'S' or 'C', so that neither side's proof is the other's and a
 * recorded proof is worthless under a fresh nonce.  The session key is
 * generichash(key; C | S), split by crypto_kdf into one key per
 * direction; a frame's tag is HMAC(direction key, seq | header | body),
 * seq counting that direction's frames from 0, so a frame replayed,
 * dropped, reordered or reflected fails its tag.  The key never crosses
 * the wire.
 */
#ifndef RB_AUTH_H
#define RB_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/rdmabench.h"

#define RB_AUTH_KEY_LEN	  32
#define RB_AUTH_NONCE_LEN 32
#define RB_AUTH_TAG_LEN	  32 /* crypto_auth_BYTES */
/* The AUTH body: a nonce (zero from the client), then the proof. */
#define RB_AUTH_BODY_LEN (RB_AUTH_NONCE_LEN + RB_AUTH_TAG_LEN)

/* The environment variable that names the key file for launchers. */
#define RB_AUTH_ENV "RDMABENCH_AUTH_KEY"

struct rb_auth_key {
	bool set;
	uint8_t k[RB_AUTH_KEY_LEN];
};

/* One connection's authenticated channel, both directions. */
struct rb_auth_chan {
	uint8_t send_key[RB_AUTH_KEY_LEN], recv_key[RB_AUTH_KEY_LEN];
	uint64_t send_seq, recv_seq;
};

/*
 * rb_auth_key_load() - the key in @path: 64 hexadecimal digits (white
 * space around them ignored) or exactly 32 raw bytes (`head -c 32
 * /dev/urandom`).  A file any group or other may read or write is refused
 * (-EPERM), naming it and `chmod 600`; a malformed one is -EINVAL.  The
 * reason, naming the file, goes into @err.
 */
int rb_auth_key_load(const char *path, struct rb_auth_key *key, char *err, size_t errlen);

/*
 * rb_auth_local() - @l's key: --auth-key's file, else the one
 * RDMABENCH_AUTH_KEY names, read into @l (auth_loaded); nothing when
 * neither is given.  Again on a loaded @l: nothing.  0, or
 * rb_auth_key_load()'s error with the reason in @err.
 */
int rb_auth_local(struct rb_local *l, char *err, size_t errlen);

/* rb_auth_key_of() - @l's loaded key as a key (unset when none). */
void rb_auth_key_of(const struct rb_local *l, struct rb_auth_key *key);

/* rb_auth_nonce() - @n filled with random bytes. */
void rb_auth_nonce(uint8_t n[RB_AUTH_NONCE_LEN]);

/*
 * rb_auth_proof() - @role's ('C' or 'S') proof over both nonces and the
 * HELLO body as it crossed the wire.  rb_auth_proof_ok() compares in
 * constant time.
 */
void rb_auth_proof(const struct rb_auth_key *key, char role, const uint8_t *cnonce,
		   const uint8_t *snonce, const uint8_t *hello, size_t hello_len,
		   uint8_t tag[RB_AUTH_TAG_LEN]);
bool rb_auth_proof_ok(const struct rb_auth_key *key, char role, const uint8_t *cnonce,
		      const uint8_t *snonce, const uint8_t *hello, size_t hello_len,
		      const uint8_t tag[RB_AUTH_TAG_LEN]);

/* rb_auth_pack() / rb_auth_unpack() - the AUTH body; unpack: 0 or -EBADMSG. */
int rb_auth_pack(const uint8_t *nonce, const uint8_t *tag, uint8_t *buf, size_t cap);
int rb_auth_unpack(const uint8_t *buf, size_t len, uint8_t *nonce, uint8_t *tag);

/* rb_auth_chan_init() - @c's keys for @client's side (else the server's). */
void rb_auth_chan_init(struct rb_auth_chan *c, const struct rb_auth_key *key, bool client,
		       const uint8_t *cnonce, const uint8_t *snonce);

/*
 * rb_auth_seal() - the tag of the next frame sent (header @hdr, then
 * @len bytes of @body); rb_auth_open() checks a received frame's, and
 * counts it only when it is right (false: forged, replayed or reordered).
 */
void rb_auth_seal(struct rb_auth_chan *c, const uint8_t *hdr, const uint8_t *body, uint32_t len,
		  uint8_t tag[RB_AUTH_TAG_LEN]);
bool rb_auth_open(struct rb_auth_chan *c, const uint8_t *hdr, const uint8_t *body, uint32_t len,
		  const uint8_t tag[RB_AUTH_TAG_LEN]);

#endif
