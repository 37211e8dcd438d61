// SPDX-License-Identifier: MIT
/* --auth-key's challenge-response over the out-of-band channel (auth.h, oob.h). */
#include <errno.h>
#include <string.h>

#include "wire/oob.h"

/* An answer in AUTH's place may be an ERROR, of any length. */
static __thread uint8_t body[RB_WIRE_MAX_BODY];

int rb_oob_hello(struct rb_oob *o, struct rb_msg_hello *h, const struct rb_auth_key *key,
		 struct rb_auth_chan *chan)
{
	uint8_t raw[1024], snonce[RB_AUTH_NONCE_LEN];
	uint8_t tag[RB_AUTH_TAG_LEN], mine[RB_AUTH_TAG_LEN];
	uint32_t len;
	int n, ret;

	h->auth = key->set;
	if (key->set)
		rb_auth_nonce(h->nonce);
	else
		memset(h->nonce, 0, sizeof(h->nonce));
	n = rb_pack_hello(h, raw, sizeof(raw));
	if (n < 0)
		return n;
	ret = rb_oob_send(o, RB_MSG_HELLO, raw, (uint32_t)n);
	if (ret || !key->set)
		return ret;
	ret = rb_oob_expect(o, RB_MSG_AUTH, body, sizeof(body), &len);
	if (ret)
		return ret;
	if (rb_auth_unpack(body, len, snonce, tag)) {
		rb_err("server %s sent a malformed AUTH", o->peer);
		return -EPROTO;
	}
	/* Our proof first: a server with another key then logs the attempt. */
	rb_auth_proof(key, 'C', h->nonce, snonce, raw, (size_t)n, mine);
	ret = rb_oob_send(o, RB_MSG_AUTH, body,
			  (uint32_t)rb_auth_pack(NULL, mine, body, sizeof(body)));
	if (ret)
		return ret;
	if (!rb_auth_proof_ok(key, 'S', h->nonce, snonce, raw, (size_t)n, tag)) {
		rb_err("authentication with server %s failed: it does not hold this --auth-key's "
		       "key (a wrong key on either side, or not the server meant)",
		       o->peer);
		return -EACCES;
	}
	rb_auth_chan_init(chan, key, true, h->nonce, snonce);
	o->auth = chan;
	return 0;
}

int rb_oob_hello_auth(struct rb_oob *o, const struct rb_msg_hello *h, const uint8_t *raw,
		      uint32_t rawlen, const struct rb_auth_key *key, struct rb_auth_chan *chan)
{
	uint8_t snonce[RB_AUTH_NONCE_LEN], tag[RB_AUTH_TAG_LEN];
	uint8_t zero[RB_AUTH_NONCE_LEN];
	uint32_t len;
	int ret;

	if (!key->set && h->auth) {
		rb_err("client %s has --auth-key; this server has none: run the client without "
		       "--auth-key, or start the server with --auth-key FILE",
		       o->peer);
		return -EACCES;
	}
	if (!key->set)
		return 0;
	if (!h->auth) {
		rb_err("client %s has no key; this server takes only clients with its key: run the "
		       "client with --auth-key FILE (or RDMABENCH_AUTH_KEY=FILE)",
		       o->peer);
		return -EACCES;
	}
	rb_auth_nonce(snonce);
	rb_auth_proof(key, 'S', h->nonce, snonce, raw, rawlen, tag);
	ret = rb_oob_send(o, RB_MSG_AUTH, body,
			  (uint32_t)rb_auth_pack(snonce, tag, body, sizeof(body)));
	if (!ret)
		ret = rb_oob_expect(o, RB_MSG_AUTH, body, sizeof(body), &len);
	if (ret)
		return ret;
	if (rb_auth_unpack(body, len, zero, tag) ||
	    !rb_auth_proof_ok(key, 'C', h->nonce, snonce, raw, rawlen, tag)) {
		rb_err("client %s: authentication failed (--auth-key)", o->peer);
		return -EACCES;
	}
	rb_auth_chan_init(chan, key, false, h->nonce, snonce);
	o->auth = chan;
	return 0;
}
