/* SPDX-License-Identifier: MIT */
/*
 * The out-of-band TCP channel: listen, accept, connect, and framed
 * messages (wire.h), every wait bounded by a timeout.
 */
#ifndef RB_OOB_H
#define RB_OOB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include "wire/auth.h"
#include "wire/wire.h"

struct rb_oob {
	int fd;
	int timeout_ms; /* per message; the peer is gone after that */
	char peer[80];	/* "host:port" for messages */
	/* --auth-key, once the handshake is done (auth.h): every frame is
	 * followed by its tag, RB_AUTH_TAG_LEN bytes the header does not
	 * count.  NULL: frames alone. */
	struct rb_auth_chan *auth;
};

/*
 * rb_oob_listen() - listening socket on @port of @bind_addr (NULL or "":
 * every address, IPv4 and IPv6); 0 or -errno.
 */
int rb_oob_listen(uint16_t port, const char *bind_addr, int *lfd);

/* rb_oob_listening() - the addresses @lfd listens on, as "a, b, c". */
void rb_oob_listening(int lfd, char *buf, size_t len);

/* rb_oob_peer_host() - the address of @o's peer without the port ("?" when unknown). */
void rb_oob_peer_host(const struct rb_oob *o, char *buf, size_t len);

/*
 * rb_oob_local() - the local address a connection to @host would leave
 * from (from @bind_addr when given), as the routing says, before any
 * connection: the client chooses its device by it.
 */
int rb_oob_local(const char *host, uint16_t port, const char *bind_addr,
		 struct sockaddr_storage *local);

/*
 * rb_oob_accept() - wait for one client on @lfd (forever when
 * @wait_ms < 0).  Returns 0, -ETIMEDOUT, -EINTR (signal) or -errno.
 */
int rb_oob_accept(int lfd, int wait_ms, struct rb_oob *o);

/*
 * rb_oob_connect() - connect to @host:@port, retrying a refused connection
 * until @wait_ms passes (the server may still be starting).
 */
int rb_oob_connect(const char *host, uint16_t port, const char *bind_addr, int wait_ms,
		   struct rb_oob *o);

void rb_oob_close(struct rb_oob *o);

/*
 * rb_oob_drain_close() - close @o without an RST: shut the sending side,
 * then read and drop what the peer sent until it closes or @ms pass.
 */
void rb_oob_drain_close(struct rb_oob *o, int ms);

/* rb_oob_send() - one message of @type with @len body bytes. */
int rb_oob_send(struct rb_oob *o, uint16_t type, const uint8_t *body, uint32_t len);

/*
 * rb_oob_recv() - the next message, whatever its type, body into @body
 * (@cap >= RB_WIRE_MAX_BODY).  A bad header is logged, with the reason
 * from the wire layer, and returns -EBADMSG/-EPROTO/-EMSGSIZE.
 */
int rb_oob_recv(struct rb_oob *o, uint16_t *type, uint8_t *body, uint32_t cap, uint32_t *len);

/*
 * rb_oob_expect() - receive a message that must be of @type.  An ERROR
 * from the peer is logged as the peer's words and returns -ECONNABORTED;
 * another type is a protocol error (-EPROTO).
 */
int rb_oob_expect(struct rb_oob *o, uint16_t type, uint8_t *body, uint32_t cap, uint32_t *len);

/* rb_oob_send_error() - tell the peer why we give up (best effort). */
void rb_oob_send_error(struct rb_oob *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * rb_oob_hello() - the client's HELLO @h on @o, and with @key (set) the
 * challenge-response of auth.h: @h's auth and nonce are filled here; on
 * success @o's later frames go through @chan.  0 or -errno (logged: a
 * server that fails the proof, a server without a key, a refusal).
 */
int rb_oob_hello(struct rb_oob *o, struct rb_msg_hello *h, const struct rb_auth_key *key,
		 struct rb_auth_chan *chan);

/*
 * rb_oob_hello_auth() - the server's side, after HELLO @h arrived as
 * @raw (@rawlen bytes): with @key, the client must hold it too; without,
 * the client must not ask for it.  0 (with a key, @o's later frames go
 * through @chan), or -EACCES logged with the client's address (the same
 * words for any failed proof), -errno for a connection's failure.
 */
int rb_oob_hello_auth(struct rb_oob *o, const struct rb_msg_hello *h, const uint8_t *raw,
		      uint32_t rawlen, const struct rb_auth_key *key, struct rb_auth_chan *chan);

#endif
