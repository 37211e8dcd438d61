/* SPDX-License-Identifier: MIT */
/*
 * --auth-key on the matrix coordinator's connections: the server's
 * challenge-response (wire/auth.h) with JOIN in HELLO's place.
 *
 *   rank                                    coordinator
 *   JOIN(..., auth 1, nonce C)         ->
 *                                      <-   AUTH(nonce S, proof_S)
 *   AUTH(0, proof_C)                   ->
 *                                      <-   WELCOME (tagged, as every later frame)
 *
 * The proofs cover both nonces and the JOIN body as it crossed the wire.
 * The coordinator's half is here without sockets: matrix_coord.c reads
 * the AUTH as it reads a JOIN, without blocking and within RB_MX_JOIN_MS
 * of the connection's accept, so that a rank stalled mid-handshake holds
 * up no one.
 */
#ifndef RB_MATRIX_AUTH_H
#define RB_MATRIX_AUTH_H

#include "wire/matrix_wire.h"
#include "wire/oob.h"

/*
 * rb_mx_auth_agree() - whether JOIN @m's auth flag goes with @key: 0, or
 * -EACCES with the reason (the server's words, naming --auth-key) in @err.
 */
int rb_mx_auth_agree(const struct rb_auth_key *key, const struct rb_mx_join *m, char *err,
		     size_t len);

/*
 * rb_mx_auth_challenge() - the coordinator's AUTH body for JOIN @m (raw
 * body @raw, @rawlen bytes) into @body (RB_AUTH_BODY_LEN bytes), its nonce
 * into @snonce.  Returns the body's length.
 */
int rb_mx_auth_challenge(const struct rb_auth_key *key, const struct rb_mx_join *m,
			 const uint8_t *raw, uint32_t rawlen, uint8_t *snonce, uint8_t *body);

/*
 * rb_mx_auth_verify() - the rank's AUTH body @body of @len bytes against
 * the challenge of @snonce: 0 with @chan keyed for the coordinator's side,
 * or -EACCES (a wrong key, or not an AUTH body).
 */
int rb_mx_auth_verify(const struct rb_auth_key *key, const struct rb_mx_join *m,
		      const uint8_t *snonce, const uint8_t *raw, uint32_t rawlen,
		      const uint8_t *body, uint32_t len, struct rb_auth_chan *chan);

/*
 * rb_mx_auth_rank() - the rank's side on @o after its JOIN (@raw, @rawlen
 * bytes, nonce @cnonce) went: the AUTH taken, its proof sent, the
 * coordinator's checked; then @o->auth is @chan.  0 or -errno, logged.
 */
int rb_mx_auth_rank(struct rb_oob *o, const struct rb_auth_key *key, const uint8_t *cnonce,
		    const uint8_t *raw, uint32_t rawlen, struct rb_auth_chan *chan);

#endif
