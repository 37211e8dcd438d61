/* SPDX-License-Identifier: MIT */
/*
 * The socket loops' helpers (sock.c) for another loop on r->c.data_fd
 * (tcplock.c): each call blocks for a slice at most, then looks at ^C,
 * the peer's news on the control channel and --timeout.  Private to
 * src/engine/ and the unit tests.
 */
#ifndef RB_ENGINE_SOCK_H
#define RB_ENGINE_SOCK_H

#include "engine/run.h"

/* rb_sock_send() - all @len bytes of @buf on the data connection; 0 or -errno (logged). */
int rb_sock_send(struct rb_run *r, const uint8_t *buf, size_t len);

/*
 * rb_sock_idle() - a slice in which nothing moved: -EINTR on ^C,
 * -ECANCELED when another thread failed, the peer's news taken (its STOP
 * sets r->stopped), -ETIMEDOUT (logged, naming @what) once nothing moved
 * for --timeout since *@since (0: this is the first such slice).  0 else.
 */
int rb_sock_idle(struct rb_run *r, uint64_t *since, const char *what);

/* rb_sock_failed() - a failed @call (errno @err; 0: the peer closed it), logged; -errno. */
int rb_sock_failed(struct rb_run *r, const char *call, int err);

#endif
