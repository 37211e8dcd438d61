// SPDX-License-Identifier: MIT
/*
 * The device tests' fake host (test_verbs*.c): the library calls that
 * find, open and query a device, allocate a PD, register memory, create a
 * CQ and an AH are wrapped (-Wl,--wrap, Makefile.am) onto a device list of
 * NDEV fake devices whose attributes each test sets in host; setup() gives
 * them rxe0's figures.  ibv_create_qp(), ibv_qp_to_qp_ex() and
 * ibv_modify_qp() are fake_wrap.c's (fake_verbs.h: fake_mod).
 */
#ifndef VERBS_FX_H
#define VERBS_FX_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "fake_verbs.h"
#include "core/bench.h"
#include "rdma/verbs.h"
#include "wire/plan.h"

#ifdef HAVE_EFADV
#include <infiniband/efadv.h>
#endif

#define NDEV 2

/* The fake host: its devices, their attributes, what was opened. */
struct fake_host {
	struct fake *f; /* the context every device opens to, and the CQ */
	struct ibv_device dev[NDEV];
	int ndev;
	struct ibv_device_attr attr;
	struct ibv_port_attr port_attr;
	int opens, closes, cqs;
	int cqe;		     /* what the last ibv_create_cq() asked for */
	struct ibv_comp_channel *ch; /* and its channel and vector */
	int vec;
	struct ibv_pd pd;
	struct ibv_mr mr;
	int reg_calls, reg_access[4]; /* ibv_reg_mr()s and their access flags */
	int reg_refuse;		      /* errno for a registration with relaxed ordering */
	bool iwarp_gids; /* the GID table as siw's: one IB GID from the MAC, no address */
	int pds;	 /* PDs allocated and not freed */
};
extern struct fake_host host;

/* What the last ibv_create_ah() was given. */
extern struct ibv_ah_attr ah_seen;

/* EFA's efadv (HAVE_EFADV): the device's SRD caps, and the driver QP type last asked for. */
extern uint32_t efa_caps;
extern int efa_qp_type;

/* rxe0's figures, as ibv_devinfo -v shows them in the lab. */
int setup(void **state);
int teardown(void **state);

/* The want of a server given -d @name, -i @port, -x @gid. */
struct rb_dev_want want(const char *name, int port, int gid);

#endif
