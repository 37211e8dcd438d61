/* SPDX-License-Identifier: MIT */
/*
 * One connection from HELLO to BYE: the client's and the server's flow.
 * The client sends the whole plan; the server adopts it.
 */
#ifndef RB_SESSION_H
#define RB_SESSION_H

#include "opts.h"
#include "tests.h"

/*
 * rb_client() - run test @t against c->host as the plan in @c says.
 * Returns an exit code: 0, 1 (runtime failure), 2 (usage error found
 * once the device is known) or 130 (interrupted; finished points kept).
 */
int rb_client(const struct rb_test *t, struct rb_cli *c);

/*
 * rb_server() - serve clients on c->tcp_port, for the tests whose RB_T_*
 * bits are in @accept (@name in messages: "send_lat", "atomic").  With
 * @once, serve one client and return its exit code; a client asking for
 * another test is refused with a message naming both.  Without, serve one
 * client after another until interrupted (returns 0).
 */
int rb_server(const char *name, unsigned int accept, bool once, struct rb_cli *c);

#endif
