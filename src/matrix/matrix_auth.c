// SPDX-License-Identifier: MIT
/* --auth-key on the matrix coordinator's connections (matrix_auth.h). */
#include <errno.h>
#include <string.h>

#include "matrix/matrix_auth.h"

int rb_mx_auth_agree(const struct rb_auth_key *key, const struct rb_mx_join *m, char *err,
		     size_t len)
{
	if (!key->set && m->auth)
		return rb_set_err(err, len, -EACCES,
				  "the rank has --auth-key; this coordinator has none: run every "
				  "rank without --auth-key, or every rank with the same --auth-key "
				  "FILE");
	if (key->set && !m->auth)
		return rb_set_err(err, len, -EACCES,
				  "the rank has no key; this coordinator takes only ranks with its "
				  "key: run the rank with --auth-key FILE (or "
				  "RDMABENCH_AUTH_KEY=FILE)");
	return 0;
}

int rb_mx_auth_challenge(const struct rb_auth_key *key, const struct rb_mx_join *m,
			 const uint8_t *raw, uint32_t rawlen, uint8_t *snonce, uint8_t *body)
{
	uint8_t tag[RB_AUTH_TAG_LEN];

	rb_auth_nonce(snonce);
	rb_auth_proof(key, 'S', m->nonce, snonce, raw, rawlen, tag);
	return rb_auth_pack(snonce, tag, body, RB_AUTH_BODY_LEN);
}

int rb_mx_auth_verify(const struct rb_auth_key *key, const struct rb_mx_join *m,
		      const uint8_t *snonce, const uint8_t *raw, uint32_t rawlen,
		      const uint8_t *body, uint32_t len, struct rb_auth_chan *chan)
{
	uint8_t zero[RB_AUTH_NONCE_LEN], tag[RB_AUTH_TAG_LEN];

	if (rb_auth_unpack(body, len, zero, tag) ||
	    !rb_auth_proof_ok(key, 'C', m->nonce, snonce, raw, rawlen, tag))
		return -EACCES;
	rb_auth_chan_init(chan, key, false, m->nonce, snonce);
	return 0;
}

int rb_mx_auth_rank(struct rb_oob *o, const struct rb_auth_key *key, const uint8_t *cnonce,
		    const uint8_t *raw, uint32_t rawlen, struct rb_auth_chan *chan)
{
	uint8_t body[4096]; /* an AUTH, or an ERROR in its place */
	uint8_t snonce[RB_AUTH_NONCE_LEN], tag[RB_AUTH_TAG_LEN], mine[RB_AUTH_TAG_LEN];
	uint32_t len;
	int ret;

	ret = rb_oob_expect(o, RB_MSG_AUTH, body, sizeof(body), &len);
	if (ret)
		return ret;
	if (rb_auth_unpack(body, len, snonce, tag)) {
		rb_err("coordinator %s sent a malformed AUTH", o->peer);
		return -EPROTO;
	}
	/* Our proof first: a coordinator with another key then logs the attempt. */
	rb_auth_proof(key, 'C', cnonce, snonce, raw, rawlen, mine);
	ret = rb_oob_send(o, RB_MSG_AUTH, body,
			  (uint32_t)rb_auth_pack(NULL, mine, body, sizeof(body)));
	if (ret)
		return ret;
	if (!rb_auth_proof_ok(key, 'S', cnonce, snonce, raw, rawlen, tag)) {
		rb_err("authentication with coordinator %s failed: it does not hold this "
		       "--auth-key's key (a wrong key on either side, or not the coordinator "
		       "meant)",
		       o->peer);
		return -EACCES;
	}
	rb_auth_chan_init(chan, key, true, cnonce, snonce);
	o->auth = chan;
	return 0;
}
