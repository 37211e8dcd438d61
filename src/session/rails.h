/* SPDX-License-Identifier: MIT */
/*
 * -d LIST (or -d all): every rail from one command.  One measuring thread
 * per device (threads.c), each with its own connection to the same server,
 * its own --bind address and, where given, its own server address; the
 * run's row adds the rails up, and a rail out of line with the others is
 * flagged by matrix's rule (rb_out_of_line()).
 */
#ifndef RB_RAILS_H
#define RB_RAILS_H

#include <jansson.h>
#include <stdbool.h>
#include "core/rdmabench.h"

#define RB_RAILS_MAX 32
#define RB_RAILS_TOL 0.10 /* a rail 10% below the rails' median bandwidth (above: latency) */

struct rb_rails {
	uint32_t n; /* 0: not a run of rails (-d names one device or none) */
	char dev[RB_RAILS_MAX][64];
	char bind[RB_RAILS_MAX][64];  /* --bind's k-th address, or its one, or "" */
	char host[RB_RAILS_MAX][128]; /* the server's k-th address, or its one */
	int32_t port[RB_RAILS_MAX];   /* -O: port k + 1; else 0, the -i given */
	char name[RB_RAILS_MAX][72];  /* the device, or with -O "DEV:PORT" */
	bool dual;		      /* -O: the ports are the option's, not the device's */
	/* -d all: the ports left out, "DEV port P (STATE)", comma-separated; "" none. */
	char left_out[512];
};

/*
 * rb_rails_parse() - the rails @l's -d names: a comma-separated list, or
 * "all" (every ACTIVE port of every RDMA device of this host: a device of
 * several ports gives a rail "DEV:PORT" per active port; the ports left
 * out, and why, in @r->left_out; none active: -ENETDOWN); -O: ports 1 and 2 of the one
 * device -d names (or of the default one); --bind and the server's address
 * may list one per rail (same count) or give one for all.  @r->n is 0 for
 * a -d of one device.  0, or -EINVAL with @err naming the option.
 */
int rb_rails_parse(const struct rb_local *l, struct rb_rails *r, char *err, size_t len);

/*
 * rb_rails_ready() - before anything starts: every rail's device exists
 * and its port (the rail's, else @ib_port, else any) is ACTIVE
 * (rb_dev_check(), which names the device, the port and its state); with
 * -O, a device of one port is refused naming -O and, where the provider
 * makes a device per port (mlx5), the fix: -d mlx5_0,mlx5_1 (-EINVAL: a
 * usage error).  0 or -errno, logged.
 */
int rb_rails_ready(const struct rb_rails *r, int ib_port);

/* rb_rails_apply() - thread @k's device, --bind and server (rail k). */
void rb_rails_apply(const struct rb_rails *r, uint32_t k, struct rb_local *l);

/* rb_rails_width() - the table's rail column: its longest name, 4 at least; 0 without rails. */
int rb_rails_width(const struct rb_rails *r);

/*
 * rb_rails_flag() - which of @n rails' results @per are out of line, by the
 * test's ranking metric (bandwidth, or p50 latency: rb_metric_rank()):
 * @bad[k].  Pure.  Returns how many.
 */
uint32_t rb_rails_flag(const struct rb_result *per, uint32_t n, enum rb_mode mode, bool *bad);

/*
 * rb_rails_note() - the rails' names and flags into the run row's
 * per-thread JSON @arr (rb_threads_json()), and a warning per rail out of
 * line at point @point.  0, or -ENOMEM.
 */
int rb_rails_note(const struct rb_rails *r, const struct rb_result *per, enum rb_mode mode,
		  uint32_t point, json_t *arr);

#endif
