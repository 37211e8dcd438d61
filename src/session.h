/* SPDX-License-Identifier: MIT */
/*
 * One connection from HELLO to BYE: the client's and the server's flow.
 * The client sends the whole plan; the server adopts it.
 */
#ifndef RB_SESSION_H
#define RB_SESSION_H

#include "bench.h"

/*
 * rb_client() - run test @t with plan @p (valid: plan.c) against l->host.
 * Returns an exit code: 0, 1 (runtime failure), 2 (usage error found
 * once the device is known) or 130/143 (interrupted; finished points kept).
 */
int rb_client(const struct rb_bench *t, const struct rb_params *p, const struct rb_local *l);

/* What a server is started for. */
struct rb_serve {
	const char *name;   /* in messages: "send_lat", "atomic", "server" */
	const char *accept; /* the test or family it runs; NULL: any */
	bool once;	    /* serve one client and return its exit code */
};

/*
 * rb_server() - serve clients on l->tcp_port for the tests @f accepts; a
 * client asking for another is refused with a message naming both.  With
 * f->once, serve one client and return its exit code; without, serve one
 * client after another, each in its own process, until interrupted
 * (returns 0).
 */
int rb_server(const struct rb_serve *f, const struct rb_local *l);

#endif
