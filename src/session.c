// SPDX-License-Identifier: MIT
/*
 * The flow of one connection:
 *
 *   client                         server
 *   HELLO(test, version)   ->
 *                          <-      OK | ERROR(why)
 *   PARAMS(plan)           ->
 *                          <-      OK | ERROR(why)     (server sets up)
 *   CONN(QPs, MR, place)   ->
 *                          <-      CONN
 *   per point i:  SYNC(i, START) -> <- SYNC(i, START)
 *                 ... the data path ...
 *                 SYNC(i, STOP, count) -> <- RESULT(i)
 *                 (-b: both streams; each side sends its STOP when its
 *                 own is done, and the server's comes before RESULT)
 *   BYE                    ->
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "admit.h"
#include "clock.h"
#include "cm.h"
#include "diag.h"
#include "output.h"
#include "plan.h"
#include "samples_file.h"
#include "session.h"
#include "sweep.h"
#include "topo.h"
#include "xfer.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

struct session {
	const struct rb_bench *t;
	const struct rb_local *l; /* this side's choices */
	struct rb_params p;	  /* the plan: the client's, adopted by the server */
	enum rb_role role;
	bool usage; /* the failure is the user's request, not the run */
	struct rb_oob oob;
	struct rb_ctl ctl; /* the points' control channel, over oob */
	struct rb_cm cm;   /* -R only */
	struct rb_run run;
	struct rb_report rep;
	struct rb_writer out; /* stdout */
	bool out_begun;
	bool progress; /* a progress line is on stderr (a terminal) */
	struct rb_result *res;
	size_t nres;
	size_t buf_len;
	char host[64];
	int slot_fd;		       /* generic server: the lock that serializes measuring */
	struct rb_admit *admit;	       /* generic server: who is served, holding what */
	char peer_cpus[128];	       /* server: the client's CPUs when it shares our host */
	char hello_cpus[128];	       /* client: every thread's CPUs (--threads), or "" */
	struct sockaddr_storage local; /* client: where the connection leaves from */
	struct rb_diag diag;	       /* counters and --expect */
	struct rb_samples_file sf;     /* client: --samples, from the first point on */
	struct rb_session_hooks h;     /* the caller's: matrix, --threads */
};

/* Per thread: the threads of a --threads run are sessions each. */
static __thread uint8_t msg[RB_WIRE_MAX_BODY];

/* ---- resources ------------------------------------------------------ */

/*
 * The part of the data path this side runs: its role's, or with
 * --reversed the other's (the server sends and measures).  The control
 * channel keeps the connection's roles: the client drives the plan.
 */
static enum rb_role data_role(const struct session *s)
{
	if (!s->p.reversed)
		return s->role;
	return s->role == RB_ROLE_CLIENT ? RB_ROLE_SERVER : RB_ROLE_CLIENT;
}

/* The QPs' remote rights on this side. */
static int qp_access(const struct session *s)
{
	/* -b: each side is written or read by the other, as either role is. */
	if (s->p.bidir)
		return s->t->server_access | s->t->client_access;
	return data_role(s) == RB_ROLE_SERVER ? s->t->server_access : s->t->client_access;
}

/* What --odp asks of the device: the test's verbs; an SRQ's receives are its own bit. */
static uint32_t odp_need(const struct session *s)
{
	uint32_t need = s->t->odp_caps;

	if (s->p.srq && (need & IBV_ODP_SUPPORT_RECV))
		need = (need & ~(uint32_t)IBV_ODP_SUPPORT_RECV) | IBV_ODP_SUPPORT_SRQ_RECV;
	return need;
}

/* The receives kept posted per QP (or on the SRQ): only tests that receive post any. */
static uint32_t rx_depth_of(const struct session *s)
{
	return rb_bench_receives(s->t, &s->p) ? s->p.rx_depth : 0;
}

/* The one CQ's entries: everything the loops can have outstanding at once. */
static uint64_t cq_need(const struct session *s)
{
	return rb_cq_entries((uint32_t)rb_axis_max(&s->p.qps),
			     (uint32_t)rb_axis_max(&s->p.tx_depth), rx_depth_of(s), s->p.srq);
}

/* A plan whose completions would not fit the device's largest CQ. */
static int check_cq(const struct session *s)
{
	const struct rb_dev *d = &s->run.dev;
	uint64_t need = cq_need(s);
	uint32_t rx = rx_depth_of(s);
	char what[128];

	if (need <= (uint64_t)d->attr.max_cqe)
		return 0;
	if (!rx)
		snprintf(what, sizeof(what), "-q %llu x -t %llu",
			 (unsigned long long)rb_axis_max(&s->p.qps),
			 (unsigned long long)rb_axis_max(&s->p.tx_depth));
	else
		snprintf(what, sizeof(what),
			 s->p.srq ? "-q %llu x -t %llu + -r %u (--srq)"
				  : "-q %llu x (-t %llu + -r %u)",
			 (unsigned long long)rb_axis_max(&s->p.qps),
			 (unsigned long long)rb_axis_max(&s->p.tx_depth), rx);
	rb_err("%s: needs %llu CQ entries, %s allows %d (max_cqe)", what, (unsigned long long)need,
	       d->name, d->attr.max_cqe);
	return -EINVAL;
}

/* Requests the device cannot honour are usage errors (exit 2). */
static int check_limits(struct session *s)
{
	struct rb_dev *d = &s->run.dev;
	uint64_t size = rb_axis_max(&s->p.size);

	s->usage = true;
	if (size > d->port_attr.max_msg_sz) {
		rb_err("-s/--size %llu exceeds %s port %u's max message size %u",
		       (unsigned long long)size, d->name, d->port, d->port_attr.max_msg_sz);
		return -EINVAL;
	}
	if (rb_axis_max(&s->p.tx_depth) > (uint64_t)d->attr.max_qp_wr ||
	    s->p.rx_depth > (uint32_t)d->attr.max_qp_wr) {
		rb_err("-t/--tx-depth or -r/--rx-depth exceeds %s's max_qp_wr %d", d->name,
		       d->attr.max_qp_wr);
		return -EINVAL;
	}
	if (check_cq(s))
		return -EINVAL;
	if (s->t->atomic && d->attr.atomic_cap == IBV_ATOMIC_NONE) {
		rb_err("%s does not support atomic operations (atomic_cap NONE)", d->name);
		return -EOPNOTSUPP;
	}
	if (s->p.odp && rb_odp_check(d, odp_need(s)))
		return -EOPNOTSUPP;
	s->usage = false;
	return 0;
}

/* Where a receive's payload starts: a UD receive begins with the GRH. */
static uint32_t rx_offset(const struct rb_params *p)
{
	return p->transport == RB_TR_UD ? RB_GRH_BYTES : 0;
}

/* Both regions hold the largest message (and the GRH): plan.c sizes them. */
static size_t region_size(const struct rb_params *p)
{
	return (size_t)rb_plan_region(p);
}

static enum ibv_qp_type qp_type(const struct rb_params *p)
{
	static const enum ibv_qp_type types[RB_TR_COUNT] = { IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD };

	return types[p->transport]; /* in range: the plan was validated */
}

/*
 * --post-api: what QP @caps asks for.  @settled, after the first QP: the
 * API it got ("wr" or "post"), which every other QP must take as well.
 */
static void want_post_api(const struct session *s, const char *settled, struct rb_qp_caps *caps)
{
	bool wr = s->l->post_api != RB_POST_POST && (!settled || !strcmp(settled, "wr"));

	caps->send_ops = !wr ? 0 : s->p.imm ? s->t->imm_ops : s->t->send_ops;
	caps->ex_only = wr && (settled || s->l->post_api == RB_POST_WR);
}

/*
 * --post-api wr, and the first QP could not be made for ibv_wr_*: the
 * provider's (exit 2) when it refused the extended API or its verbs.
 */
static bool no_wr_api(const struct session *s, int ret)
{
	if (ret != -EOPNOTSUPP && ret != -EINVAL)
		return false;
	rb_err("--post-api wr: %s takes no %s WRs through ibv_wr_* (ibv_create_qp_ex with "
	       "send_ops_flags refused); --post-api auto or post uses ibv_post_send",
	       s->run.dev.name, s->t->wr_name);
	return true;
}

/* The loops post through ibv_wr_* (@ex) or ibv_post_send(); JSON's device.post_api. */
static void posting_by(struct session *s, bool ex)
{
	struct rb_run *r = &s->run;

	r->post_send = rb_qp_post_fn(r->qp[0], ex);
	s->rep.post_api = ex ? "wr" : "post";
	if (rb_verbose)
		rb_info("%s: posting with %s", r->dev.name,
			ex ? "ibv_wr_* (ibv_qp_ex)" : "ibv_post_send");
}

static int create_qps(struct session *s)
{
	struct rb_run *r = &s->run;
	bool recv = rb_bench_receives(s->t, &s->p);
	struct rb_qp_caps caps;
	uint32_t i;
	int ret;

	r->rx_depth = rx_depth_of(s);
	ret = s->p.poll == RB_POLL_EVENT ? rb_channel_create(&r->dev, &r->chan) : 0;
	if (!ret)
		ret = rb_cq_create_on(&r->dev, cq_need(s), r->chan, s->l->comp_vector, &r->cq);
	s->usage = ret == -ERANGE; /* -X/--vector past the device's */
	s->rep.comp_vector = (int)s->l->comp_vector;
	if (!ret && recv && s->p.srq) {
		ret = rb_srq_create(&r->dev, r->rx_depth, &r->srq);
		s->usage = ret == -EINVAL;
	}
	for (i = 0; !ret && i < r->nqp; i++) {
		caps = (struct rb_qp_caps){ .send_wr = (uint32_t)rb_axis_max(&s->p.tx_depth),
					    .recv_wr = recv ? r->rx_depth : 1,
					    .inline_size = s->p.inline_size,
					    .srq = r->srq };
		/* The first QP settles the API; the others must take it too. */
		want_post_api(s, i ? s->rep.post_api : NULL, &caps);
		ret = rb_qp_create(&r->dev, r->cq, qp_type(&s->p), &caps, &r->qp[i]);
		r->inline_max = caps.inline_size;
		if (ret && !i && caps.ex_only)
			s->usage = no_wr_api(s, ret);
		if (!ret && !i)
			posting_by(s, caps.ex);
	}
	if (!ret && r->inline_max < s->p.inline_size && s->t->inline_ok)
		rb_info("-I/--inline %u: %s QPs accept %u bytes inline; capped", s->p.inline_size,
			r->dev.name, r->inline_max);
	return ret;
}

/* The device: the one holding @local (the OOB connection's address). */
/* perftest's warning (unless -F), once a run: thread 0 of --threads says it. */
static void warn_freq(const struct session *s, const char *whose, const struct rb_placement *p)
{
	char gov[4 * sizeof(p->governor)];

	if (s->l->freq_quiet || s->p.thread || !rb_freq_varies(p))
		return;
	rb_warn("%s measuring cpu %d runs the %s cpufreq governor, not performance: its clock "
		"follows its load, and latencies with it (-F/--cpu-freq silences this)",
		whose, p->freq_cpu, rb_escape(p->governor, gov, sizeof(gov)));
}

static int open_device(struct session *s, const struct sockaddr *local)
{
	const struct rb_local *l = s->l;
	struct rb_dev_want w = {
		.name = l->device[0] ? l->device : NULL,
		.port = l->ib_port,
		.gid_index = l->gid_index,
		.local = local,
		.peer_family = AF_UNSPEC,
		.gid_family = l->ipv6 ? AF_INET6 : AF_UNSPEC,
	};
	int ret;

	/* With -R the CM resolves the address given, and its GID is of its family. */
	if (l->ipv6 && s->p.use_cm) {
		rb_err("--ipv6 with -R: the CM takes the GID of the address given; give an IPv6 "
		       "address instead");
		s->usage = true;
		return -EINVAL;
	}
	ret = rb_dev_open_want(&w, &s->run.dev);

	/* A port or GID index the device does not have is the user's. */
	s->usage = ret == -EINVAL;
	if (!ret && rb_verbose)
		rb_info("%s; %s", s->run.dev.why_dev, s->run.dev.why_gid);
	return ret;
}

/*
 * The buffers: one rx and one tx region per MR, one MR per QP with
 * --mr-per-qp; in 2 MiB huge pages with --hugepages.  A shortage of huge
 * pages is the configuration's, as is an explicit --numa (exit 2).
 */
static int alloc_buffers(struct session *s)
{
	struct rb_run *r = &s->run;
	size_t huge = RB_HUGE_PAGE;

	r->nqp = (uint32_t)rb_axis_max(&s->p.qps);
	r->nmr = s->p.mr_per_qp ? r->nqp : 1;
	r->region = region_size(&s->p);
	s->buf_len = r->nmr * 2 * r->region;
	if (s->p.hugepages)
		s->buf_len = (s->buf_len + huge - 1) / huge * huge;
	r->buf = rb_place_alloc(s->buf_len, s->rep.place.mem_node, s->p.hugepages);
	if (!r->buf) {
		s->usage = s->p.hugepages && errno == ENOMEM;
		return -errno;
	}
	return 0;
}

/*
 * PCIe relaxed ordering, as perftest: asked for unless this side's
 * --disable-pcie-relaxed, or a test whose receiver polls its buffer for
 * arrival (a byte may land before those before it).  Why not, for JSON.
 */
static const char *relaxed_off(const struct session *s)
{
	if (s->l->no_relaxed)
		return "off: --disable-pcie-relaxed";
	if (s->t->polls_buffer)
		return "off: the test polls its buffer's last byte for arrival, which relaxed "
		       "ordering may place before the rest";
	return NULL;
}

static int register_buffers(struct session *s)
{
	struct rb_run *r = &s->run;
	int access = IBV_ACCESS_LOCAL_WRITE | qp_access(s) | (s->p.odp ? IBV_ACCESS_ON_DEMAND : 0);
	const char *off = relaxed_off(s);
	uint32_t i;
	int ret = 0;

	if (!off)
		access |= IBV_ACCESS_RELAXED_ORDERING;
	for (i = 0; i < r->nmr && !ret; i++)
		ret = rb_mr_reg(&r->dev, rb_rx_of(r, i), 2 * r->region, access, &r->mr[i]);
	if (!off && r->dev.relaxed_err)
		off = "off: the provider or kernel refused IBV_ACCESS_RELAXED_ORDERING; "
		      "registered without it";
	s->rep.relaxed_ordering = !off;
	s->rep.why_relaxed = off ? off : "on: perftest's default (IBV_ACCESS_RELAXED_ORDERING)";
	return ret;
}

static int open_resources(struct session *s, const struct sockaddr *local)
{
	struct rb_run *r = &s->run;
	int ret;

	ret = open_device(s, local);
	if (ret)
		return ret;
	ret = check_limits(s);
	if (!ret) {
		ret = rb_diag_setup(&s->diag, &s->run.dev, s->t, s->role, s->l, &s->rep);
		s->diag.reversed = s->p.reversed;
		s->usage = ret == -EINVAL;
	}
	if (ret)
		return ret;
	ret = rb_place_apply_thread(r->dev.name, s->l->cpu, s->l->numa,
				    s->peer_cpus[0] ? s->peer_cpus : NULL, s->p.thread,
				    s->p.threads, &s->rep.place);
	if (ret) {
		/* An explicit --cpu/--numa this machine cannot honour. */
		s->usage = ret == -EINVAL;
		return ret;
	}
	warn_freq(s, "this side's", &s->rep.place);
	r->rx_off = rx_offset(&s->p);
	r->ud = s->p.transport == RB_TR_UD;
	r->lossy = s->p.transport != RB_TR_RC;
	ret = alloc_buffers(s);
	if (!ret)
		ret = register_buffers(s);
	if (!ret)
		ret = create_qps(s);
	if (!ret && rb_verbose)
		rb_info("%s port %u: %u QP(s)%s, %u MR(s) of %zu bytes%s%s, inline %u", r->dev.name,
			r->dev.port, r->nqp, r->srq ? " on one SRQ" : "", r->nmr, 2 * r->region,
			s->p.hugepages ? " in 2 MiB huge pages" : "", s->p.odp ? " (ODP)" : "",
			r->inline_max);
	return ret;
}

static void close_resources(struct session *s)
{
	struct rb_run *r = &s->run;
	struct rb_res res = { r->qp, r->nqp, r->srq, r->cq, r->mr, r->nmr, r->chan };
	uint32_t i;

	/* ibv_destroy_cq() waits until every event taken from the CQ is acked. */
	rb_events_ack(r);
	for (i = 0; i < r->nqp; i++)
		rb_ah_destroy(&r->dev, r->ah[i]);
	rb_resources_close(&r->dev, &res);
	if (r->buf)
		rb_place_free(r->buf, s->buf_len);
	rb_dev_close(&r->dev);
	rb_samples_free(&r->lat);
	rb_iv_free(r);
	rb_wrs_free(r);
}

/* ---- connection ----------------------------------------------------- */

static int send_body(struct session *s, uint16_t type, int len)
{
	if (len < 0) {
		rb_err("%s message does not fit", rb_msg_name(type));
		return len;
	}
	return rb_oob_send(&s->oob, type, msg, (uint32_t)len);
}

static void local_conn(struct session *s, struct rb_msg_conn *m)
{
	struct rb_run *r = &s->run;
	uint32_t i;

	memset(m, 0, sizeof(*m));
	m->mtu = rb_mtu_bytes(r->dev.port_attr.active_mtu);
	m->max_rd_atom = (uint32_t)(r->dev.attr.max_qp_rd_atom < r->dev.attr.max_qp_init_rd_atom
					    ? r->dev.attr.max_qp_rd_atom
					    : r->dev.attr.max_qp_init_rd_atom);
	m->rkey = r->mr[0]->rkey;
	m->addr = (uintptr_t)r->buf;
	m->len = 2 * r->region; /* per MR */
	m->nqp = r->nqp;
	m->nmr = r->nmr;
	for (i = 0; i < r->nmr; i++)
		m->mr[i] = (struct rb_mr_info){ (uintptr_t)rb_rx_of(r, i), r->mr[i]->rkey };
	for (i = 0; i < r->nqp; i++)
		rb_qp_info(&r->dev, r->qp[i], (uint32_t)(lrand48() & 0xffffff), &m->qp[i]);
	m->place = s->rep.place;
	snprintf(m->device, sizeof(m->device), "%s", r->dev.name);
	m->link_layer = r->dev.port_attr.link_layer;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* MTU, reads in flight: what both ends can do, and what was asked. */
static const char *link_name(uint8_t ll)
{
	return ll == IBV_LINK_LAYER_ETHERNET ? "Ethernet (RoCE)" : "InfiniBand";
}

/* A UD message is one packet: the largest size must fit the path MTU. */
static int check_ud_size(struct session *s, uint32_t mtu)
{
	uint64_t size = rb_axis_max(&s->p.size);

	if (s->p.transport != RB_TR_UD || size <= mtu)
		return 0;
	rb_err("-s/--size %llu exceeds the path MTU of %u bytes: a -c UD message is one packet",
	       (unsigned long long)size, mtu);
	s->usage = true;
	return -EINVAL;
}

/*
 * MTU, reads in flight: what both ends can do, and what was asked.  Ports
 * of different link layers cannot reach each other: named, not tried.
 */
static int negotiate(struct session *s, const struct rb_msg_conn *me)
{
	struct rb_run *r = &s->run;
	uint32_t mtu = min_u32(me->mtu, r->remote.mtu);
	uint32_t rd = min_u32(min_u32(me->max_rd_atom, r->remote.max_rd_atom), 255);
	char dev[4 * sizeof(r->remote.device)];

	rb_escape(r->remote.device, dev, sizeof(dev));
	if (r->remote.link_layer != me->link_layer) {
		rb_err("peer %s's %s port is %s, but %s port %u here is %s: they cannot connect",
		       s->oob.peer, dev, link_name(r->remote.link_layer), r->dev.name, r->dev.port,
		       link_name(me->link_layer));
		s->usage = true;
		return -EPROTO;
	}
	if (r->remote.mtu != me->mtu && s->role == RB_ROLE_CLIENT)
		rb_info("peer %s's %s has an active MTU of %u, %s here %u: the path MTU is %u",
			s->oob.peer, dev, r->remote.mtu, r->dev.name, me->mtu, mtu);

	if (s->p.mtu && s->p.mtu > mtu && s->role == RB_ROLE_CLIENT)
		rb_info("--mtu %u: the ports' active MTU is %u; using %u", s->p.mtu, mtu, mtu);
	if (s->p.mtu)
		mtu = min_u32(mtu, s->p.mtu);
	r->path_mtu = rb_mtu_from_bytes(mtu);
	if (!r->path_mtu) {
		rb_err("no path MTU from %u bytes (%s here %u, peer %s %u)", mtu, r->dev.name,
		       me->mtu, s->oob.peer, r->remote.mtu);
		return -EPROTO;
	}
	if (s->p.outstanding > rd && s->role == RB_ROLE_CLIENT)
		rb_info("-o/--outstanding %u: max_qp_rd_atom allows %u; clamped", s->p.outstanding,
			rd);
	if (s->p.outstanding && s->p.outstanding < rd)
		rd = s->p.outstanding;
	r->rd_atom = (uint8_t)(rd ? rd : 1);
	s->rep.path_mtu = mtu;
	return check_ud_size(s, mtu);
}

/*
 * QP @i's path: --sl, --tclass and its --flow-label (label i modulo the
 * list, as perftest's) are the plan's, for both sides' address vectors;
 * -u, --retry-count, --pkey-index, -L this side's own.
 */
static struct rb_av path_av(const struct session *s, uint32_t i)
{
	const struct rb_params *p = &s->p;

	return (struct rb_av){ .sl = (uint8_t)p->sl,
			       .tclass = (uint8_t)p->tclass,
			       .flow_label = p->nflow ? p->flow_label[i % p->nflow] : 0,
			       .qp = s->l->qp };
}

/* -R: the CM connects the QPs; the server listens before it answers CONN. */
static int cm_connect(struct session *s)
{
	struct rb_run *r = &s->run;
	struct rb_av av[RB_MAX_QPS];
	struct rb_cm_conn c = { &r->dev,
				r->qp,
				r->nqp,
				qp_access(s),
				r->path_mtu,
				r->rd_atom,
				(struct sockaddr *)&s->local,
				av };
	uint32_t i;

	for (i = 0; i < r->nqp && i < RB_MAX_QPS; i++)
		av[i] = path_av(s, i);
	if (s->role == RB_ROLE_SERVER)
		return rb_cm_accept(&s->cm, &c);
	return rb_cm_connect(&s->cm, s->l->host, (uint16_t)s->l->tcp_port, s->oob.timeout_ms, &c);
}

static int qp_connect(struct session *s, const struct rb_msg_conn *me)
{
	struct rb_run *r = &s->run;
	struct rb_av av;
	uint32_t i;
	int ret = 0;

	if (s->p.use_cm)
		return cm_connect(s);
	for (i = 0; i < r->nqp && !ret; i++) {
		av = path_av(s, i);
		ret = rb_qp_connect(&r->dev, r->qp[i], qp_access(s), me->qp[i].psn,
				    &r->remote.qp[i], r->path_mtu, r->rd_atom, &av);
		if (!ret && r->ud)
			ret = rb_ah_create(&r->dev, &r->remote.qp[i], &av, &r->ah[i]);
	}
	return ret;
}

/*
 * The peer's CONN, decoded and checked before any of it reaches the verbs
 * layer (an MTU of 0 there hangs rxe for a minute).
 */
static int check_conn(struct session *s, const uint8_t *body, uint32_t len)
{
	struct rb_run *r = &s->run;
	const struct rb_conn_want want = { r->nqp, r->nmr, 2 * r->region };
	char err[RB_TEXT_MAX];

	if (rb_unpack_conn(body, len, &r->remote)) {
		rb_err("peer %s sent a malformed CONN message", s->oob.peer);
		return -EPROTO;
	}
	if (rb_conn_validate(&r->remote, &want, err, sizeof(err))) {
		rb_err("peer %s sent a CONN message this side refuses: %s", s->oob.peer, err);
		return -EPROTO;
	}
	return 0;
}

static int exchange_conn(struct session *s)
{
	struct rb_run *r = &s->run;
	struct rb_msg_conn me;
	uint32_t len;
	int ret = 0;

	local_conn(s, &me);
	if (s->role == RB_ROLE_CLIENT)
		ret = send_body(s, RB_MSG_CONN, rb_pack_conn(&me, msg, sizeof(msg)));
	if (!ret)
		ret = rb_oob_expect(&s->oob, RB_MSG_CONN, msg, sizeof(msg), &len);
	if (!ret)
		ret = check_conn(s, msg, len);
	if (!ret && s->role == RB_ROLE_SERVER && s->p.use_cm)
		ret = rb_cm_listen(&s->cm, (uint16_t)s->l->tcp_port, s->oob.timeout_ms);
	if (!ret && s->role == RB_ROLE_SERVER)
		ret = send_body(s, RB_MSG_CONN, rb_pack_conn(&me, msg, sizeof(msg)));
	if (ret)
		return ret;
	ret = negotiate(s, &me);
	if (ret)
		return ret;
	s->rep.has_peer_place = true;
	s->rep.peer_place = r->remote.place;
	warn_freq(s, "the peer's", &r->remote.place);
	ret = qp_connect(s, &me);
	if (!ret && s->t->setup)
		ret = s->t->setup(r);
	return ret;
}

/* ---- output --------------------------------------------------------- */

static void report_init(struct session *s)
{
	struct rb_report *rep = &s->rep;
	struct rb_dev *d = &s->run.dev;

	rep->test = s->t->name;
	rep->mode = s->t->mode;
	rep->op = s->t->atomic ? rb_op_name(s->p.atomic_op) : NULL;
	rep->role = s->role == RB_ROLE_CLIENT ? "client" : "server";
	rep->host = s->host;
	rep->peer = s->oob.peer;
	rb_timestamp(rep->timestamp, sizeof(rep->timestamp));
	rep->device = d->name;
	rep->port = d->port;
	rep->gid_index = d->gid_index;
	rep->gid_type = d->gid_type;
	rep->gid = d->gid_addr;
	rep->why_device = d->why_dev;
	rep->why_gid = d->why_gid;
	rep->link_layer = rb_link_layer_str(d);
	rep->active_mtu = rb_mtu_bytes(d->port_attr.active_mtu);
	rep->qp = s->l->qp;
	rep->freq_quiet = s->l->freq_quiet;
	rep->output = (enum rb_output)s->l->output;
	rep->params = &s->p;
	rep->units = (enum rb_units)s->l->units;
	rep->samples_path = s->l->samples_path[0] ? s->l->samples_path : NULL;
	rep->tick_clock = s->l->cycles ? rb_tick_clock() : NULL;
}

/*
 * Regular files are rewritten after every point, so an interrupted sweep
 * keeps what it finished; a device or a pipe (/dev/stdout) only at @last.
 */
static int write_files(struct session *s, bool last)
{
	const char *json = s->l->json_path, *csv = s->l->csv_path;
	int ret = 0;

	if (json[0] && (last || rb_output_rewritable(json)))
		ret = rb_write_file(json, RB_FMT_JSON, &s->rep, s->res, s->nres);
	if (!ret && csv[0] && (last || rb_output_rewritable(csv)))
		ret = rb_write_file(csv, RB_FMT_CSV, &s->rep, s->res, s->nres);
	return ret;
}

/* Before anything is measured: the files can be written, and differ. */
static int check_outputs(const struct rb_local *c)
{
	const char *paths[] = { c->json_path, c->csv_path, c->samples_path };
	const char *names[] = { "json", "csv", "samples" };
	char err[RB_TEXT_MAX];
	size_t i, j;

	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++)
			if (paths[i][0] && paths[j][0] && rb_output_same(paths[i], paths[j])) {
				rb_err("--%s and --%s name the same file (%s)", names[i], names[j],
				       paths[j]);
				return -EINVAL;
			}
	for (i = 0; i < 3; i++)
		if (paths[i][0] && rb_output_check(paths[i], err, sizeof(err))) {
			rb_err("--%s %s", names[i], err);
			return -EINVAL;
		}
	return 0;
}

/*
 * --samples: the point's samples into the file, in measurement order,
 * before its summary sorts them.  The file starts with the first point.
 */
static int keep_samples(struct session *s)
{
	struct rb_run *r = &s->run;
	double k = r->t->lat_scale;
	int ret = 0;

	if (!s->l->samples_path[0] || !r->lat.n)
		return 0;
	if (!s->sf.f)
		ret = rb_samples_file_open(&s->sf, s->l->samples_path, s->l->cycles);
	return ret ? ret
		   : rb_samples_file_point(&s->sf, s->t->name, s->rep.op, &r->pt, &r->lat,
					   k * rb_ns_per_tick(r) / 1000, k);
}

/* -H and -C, from the samples the summary left sorted. */
static int lat_extras(struct session *s, struct rb_result *res)
{
	struct rb_run *r = &s->run;
	double ns = rb_ns_per_tick(r), k = r->t->lat_scale;
	struct rb_lat_buckets b;
	int ret = 0;

	if (!res->has_lat)
		return 0;
	if (s->l->histogram) {
		ret = rb_lat_buckets(&r->lat, &b);
		if (!ret)
			rb_lat_hist_fill(&b, k * ns / 1000, k, &res->hist);
		res->has_hist = !ret;
	}
	if (!ret && s->l->cycles) {
		/* A scale of k * 1000 "ns" per tick reports ticks times k. */
		ret = rb_lat_summarize(&r->lat, k * 1000, &res->lat_ticks);
		res->has_ticks = !ret;
		res->ticks_per_us = ns > 0 ? 1000 / ns : 0;
	}
	return ret;
}

/* stdout's writer, begun once; its first line replaces a progress line. */
static void out_begin(struct session *s)
{
	if (s->progress) {
		fputs("\r\033[K", stderr);
		s->progress = false;
	}
	if (s->out_begun)
		return;
	rb_writer_init(&s->out, (enum rb_format)s->l->format, stdout);
	s->out.ops->begin(&s->out, &s->rep);
	s->out_begun = true;
}

/* Keep a finished point: print it, and rewrite the files whole. */
static int emit(struct session *s, const struct rb_result *res)
{
	struct rb_result *n = realloc(s->res, (s->nres + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	s->res = n;
	s->res[s->nres++] = *res;
	/* rdmabench matrix keeps the point itself: nothing on stdout. */
	if (s->h.on_point) {
		s->h.on_point(s->h.on_point_ctx, res, &s->rep);
		return write_files(s, false);
	}
	out_begin(s);
	s->out.ops->row(&s->out, &s->rep, res);
	return write_files(s, false);
}

/* --interval: a slice of the point being measured, on stdout as it ends. */
static void show_interval(void *ctx, const struct rb_run *r, const struct rb_interval *iv)
{
	struct session *s = ctx;

	if (s->h.on_point)
		return;
	out_begin(s);
	if (s->out.ops->interval)
		s->out.ops->interval(&s->out, &s->rep, &r->pt, iv, r->niv - 1);
}

/*
 * A point cut short by a signal (-EINTR): report what it measured until
 * then, from this side's figures alone, and its intervals.  Still -EINTR.
 */
static int cut_point(struct session *s)
{
	struct rb_run *r = &s->run;
	struct rb_result res;

	/* Reversed, the point's figures are the server's, and a cut point
	 * gets no RESULT: the receiver's own are not the point's. */
	if (s->p.reversed)
		return -EINTR;
	if (!rb_run_cut(r) || rb_iv_finish(r) || keep_samples(s) || r->t->report(r, &res) ||
	    lat_extras(s, &res))
		return -EINTR;
	res.cut = true;
	emit(s, &res);
	return -EINTR;
}

/*
 * The files' last version: every finished point, and when the run did not
 * finish, "complete": false with the reason.  Nothing is written for a run
 * that never reached its peer's device.
 */
static int finish_output(struct session *s, int ret)
{
	static __thread char reason[RB_TEXT_MAX];
	/* The points that finished, also of a run that did not. */
	int sret = rb_samples_file_close(&s->sf);

	if (s->out_begun)
		s->out.ops->end(&s->out, &s->rep);
	fflush(stdout);
	if (!s->rep.test)
		return sret;
	if (ret) {
		s->rep.incomplete = true;
		snprintf(reason, sizeof(reason), "%s",
			 ret == -EINTR || rb_interrupted ? "interrupted" : rb_last_error);
		s->rep.reason = reason;
	}
	ret = write_files(s, true);
	return ret ? ret : sret;
}

/* ---- points --------------------------------------------------------- */

/* Put the run state at the start of point @i: WRs built, buffers ready. */
static int point_start(struct session *s, uint32_t i)
{
	struct rb_run *r = &s->run;
	bool reads = r->t->bounded_by_rd_atom;
	uint32_t qi;
	int ret;

	r->point = i;
	rb_plan_point(&s->p, i, &r->pt);
	for (qi = 0; qi < r->nqp; qi++) {
		r->sq[qi].depth = reads ? min_u32(r->pt.tx_depth, r->rd_atom) : r->pt.tx_depth;
		r->sq[qi].unsig = 0;
	}
	rb_samples_reset(&r->lat);
	r->ops = r->total = 0;
	rb_rx_plan(r);
	r->t0 = r->t1 = r->cpu0 = r->cpu1 = 0;
	r->bidir = s->p.bidir;
	r->role = data_role(s);
	r->stopped = r->stop_sent = false;
	r->stop_count = 0;
	r->verify_status = 0;
	rb_iv_free(r);
	ret = rb_wrs_prepare(r);
	if (!ret && r->t->prepare)
		ret = r->t->prepare(r);
	if (!ret)
		rb_diag_before(&s->diag);
	return ret;
}

/*
 * The server's figures that cannot be true (rb_result_check()) are not
 * shown as measured: each becomes NaN (null in JSON, "-" in the table,
 * empty in CSV; a count becomes 0), and is named in the point's
 * peer_result_rejected and its table flag.
 */
static uint32_t reject_figures(const struct session *s, struct rb_msg_result *m, char *list,
			       size_t len)
{
	double *fig[RB_PEER_NFIELDS] = { NULL,
					 &m->bw_avg_gbps,
					 &m->cpu_util_pct,
					 &m->bw_peak_gbps,
					 &m->msg_rate_mpps,
					 &m->duration_s };
	uint32_t bad = rb_result_check(m, s->p.iters), i;
	size_t used = 0;

	list[0] = '\0';
	for (i = 0; i < RB_PEER_NFIELDS; i++) {
		if (!(bad & (1u << i)))
			continue;
		if (used < len)
			used += (size_t)snprintf(list + used, len - used, "%s%s", used ? ", " : "",
						 rb_result_field(1u << i));
		if (fig[i])
			*fig[i] = NAN;
		else
			m->iters = 0;
	}
	if (bad)
		rb_warn("server %s reported figures that cannot be true at point %u (%s): left "
			"out",
			s->oob.peer, m->point, list);
	return bad;
}

/* A server that measured nothing sends no figures (NaN) and 0 iterations. */
static void apply_peer(struct rb_result *res, const struct rb_msg_result *m)
{
	res->has_peer = true;
	/* A rejected count is 0 too (reject_figures()), but no claim of nothing. */
	res->peer_nothing_measured = !m->iters && !(res->peer_rejected & RB_PEER_ITERS);
	res->peer_cpu_util_pct = m->cpu_util_pct;
	res->peer_bw_avg_gbps = m->bw_avg_gbps;
}

/*
 * -b: the client's stream and the server's each move one direction of the
 * data (a read brings it to its initiator); the totals become their sums.
 * The server's figures are its direction's: no peer_bw_avg_gbps.
 */
static void apply_bidir(const struct session *s, struct rb_result *res,
			const struct rb_msg_result *m)
{
	bool toward = s->t->payload_from_server;
	struct rb_dir_result *mine = &res->dir[toward ? RB_DIR_S2C : RB_DIR_C2S];
	struct rb_dir_result *peer = &res->dir[toward ? RB_DIR_C2S : RB_DIR_S2C];

	*mine = (struct rb_dir_result){ .iters = res->iters,
					.duration_s = res->duration_s,
					.bw_avg_gbps = res->bw_avg_gbps,
					.bw_peak_gbps = res->bw_peak_gbps,
					.msg_rate_mpps = res->msg_rate_mpps };
	*peer = (struct rb_dir_result){ .by_server = true,
					.iters = m->iters,
					.duration_s = m->duration_s,
					.bw_avg_gbps = m->bw_avg_gbps,
					.bw_peak_gbps = m->bw_peak_gbps,
					.msg_rate_mpps = m->msg_rate_mpps };
	res->has_bidir = true;
	res->bw_avg_gbps = mine->bw_avg_gbps + peer->bw_avg_gbps;
	/* The peaks need not coincide: their sum is an upper bound. */
	res->bw_peak_gbps = mine->bw_peak_gbps + peer->bw_peak_gbps;
	res->msg_rate_mpps = mine->msg_rate_mpps + peer->msg_rate_mpps;
	res->peer_bw_avg_gbps = 0;
}

/* A server's latency summary that can be true: finite, and in order. */
static bool lat_plausible(const struct rb_lat_summary *l)
{
	const double v[] = { l->min, l->p50, l->p90, l->p99, l->p999, l->max };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!isfinite(v[i]) || v[i] < 0 || (i && v[i] < v[i - 1]))
			return false;
	return isfinite(l->avg) && l->avg >= l->min && l->avg <= l->max && isfinite(l->stdev) &&
	       l->stdev >= 0;
}

/*
 * --reversed: the server sent and timed the point, so its figures are the
 * point's; this side's (the receiver's CPU, and its own bandwidth where it
 * counts arrivals) take the peer's place.  A rejected server figure stays
 * NaN (reject_figures()).
 */
static void apply_reversed(const struct session *s, struct rb_result *res,
			   const struct rb_msg_result *m)
{
	const struct rb_result own = *res;
	bool bw = s->t->mode == RB_MODE_BW;
	double cpu_ns = m->cpu_util_pct / 100 * m->duration_s * 1e9;

	res->iters = m->iters;
	res->nothing_measured = !m->iters;
	res->duration_s = m->iters ? m->duration_s : NAN;
	res->has_lat = m->has_lat && lat_plausible(&m->lat);
	res->lat = m->lat;
	if (m->has_lat && !res->has_lat)
		rb_warn("server %s reported a latency summary that cannot be true at point %u: "
			"left out",
			s->oob.peer, m->point);
	res->has_bw = bw && m->iters;
	res->bw_avg_gbps = m->bw_avg_gbps;
	res->bw_peak_gbps = m->bw_peak_gbps;
	res->msg_rate_mpps = m->msg_rate_mpps;
	res->has_cpu = m->iters && !isnan(m->cpu_util_pct);
	res->cpu_util_pct = m->cpu_util_pct;
	res->cpu_ns_per_msg = m->iters ? cpu_ns / (double)m->iters : 0;
	res->has_peer = true;
	res->peer_nothing_measured = own.nothing_measured;
	res->peer_cpu_util_pct = own.has_cpu ? own.cpu_util_pct : NAN;
	res->peer_bw_avg_gbps = own.has_bw && rb_bench_receives(s->t, &s->p) ? own.bw_avg_gbps : 0;
	/* --rate: the server paced its stream; the rate reached is its. */
	rb_rate_report(res, s->p.rate, s->p.rate_unit);
}

/* --threads: waiting for the other threads before point @i (or BYE). */
static int thread_beat(void *arg, uint32_t i)
{
	struct session *s = arg;

	return s->ctl.ops->alive(&s->ctl, i);
}

static int client_point(struct session *s, uint32_t i)
{
	const struct rb_ctl_ops *ctl = s->ctl.ops;
	struct rb_msg_result m = { .point = i };
	struct rb_run *r = &s->run;
	struct rb_result res;
	char list[128];
	int ret;

	ret = point_start(s, i);
	/* --threads: every thread starts the point together. */
	if (!ret && s->h.thread_hooks)
		ret = s->h.thread_hooks->point(s->h.thread_hooks->ctx, i, thread_beat, s);
	if (!ret)
		ret = ctl->barrier(&s->ctl, i);
	/* -D 0: the first signal ends this point (main.c). */
	rb_stop_armed = s->p.forever;
	if (!ret)
		ret = r->t->run(r);
	rb_stop_armed = 0;
	if (ret == -EINTR)
		return cut_point(s);
	/* A mismatch in what this side received (reads, -b). */
	if (!ret)
		ret = r->verify_status;
	if (!ret)
		ret = rb_iv_finish(r);
	if (ret)
		return ret;
	/* With -b the loop sent it, and then waited for the server's.  Before
	 * the counters: the server that waits for it (reads, writes, atomics)
	 * ends its interval on it, and reading them waits out their lifespan.
	 * Reversed, the server sent it: its stream ended the point. */
	if (!r->stop_sent && !s->p.reversed)
		ret = ctl->stop(&s->ctl, i, r->total);
	rb_diag_after(&s->diag);
	if (!ret)
		ret = ctl->result(&s->ctl, &m);
	if (!ret)
		ret = s->ctl.ops->counters(&s->ctl, &s->diag.peer);
	if (!ret)
		rb_diag_peer(&s->diag, &s->rep);
	if (!ret && m.status) {
		rb_err("server %s: %s at point %u (see the server's log)", s->oob.peer,
		       m.status == -EILSEQ ? "--verify found a mismatch" : strerror(-m.status), i);
		ret = m.status;
	}
	if (!ret)
		ret = keep_samples(s);
	if (!ret)
		ret = r->t->report(r, &res);
	if (!ret)
		ret = lat_extras(s, &res);
	if (ret)
		return ret;
	res.peer_rejected = reject_figures(s, &m, list, sizeof(list));
	if (res.peer_rejected)
		snprintf(res.flag, sizeof(res.flag), "peer figures rejected: %s", list);
	if (s->p.reversed)
		apply_reversed(s, &res, &m);
	else
		apply_peer(&res, &m);
	if (s->p.bidir)
		apply_bidir(s, &res, &m);
	rb_diag_point(&s->diag, &s->rep, &res, s->run.total);
	return emit(s, &res);
}

/* Server: the rest of point @i, once the barrier passed. */
static int server_point(struct session *s, uint32_t i)
{
	struct rb_run *r = &s->run;
	struct rb_msg_result m = { .point = i };
	struct rb_result res;
	int ret;

	ret = r->t->run(r);
	/* Reversed, this side streamed or pinged: its STOP ends the point,
	 * as the client's does otherwise (with -b the loop sent it). */
	if (!ret && s->p.reversed && !r->stop_sent)
		ret = s->ctl.ops->stop(&s->ctl, i, r->total);
	if (!ret) {
		rb_diag_after(&s->diag);
		ret = r->t->report(r, &res);
	}
	if (ret)
		return ret;
	m.status = r->verify_status;
	m.has_lat = res.has_lat;
	m.lat = res.lat;
	m.iters = res.iters;
	m.bw_avg_gbps = res.has_bw ? res.bw_avg_gbps : 0;
	m.cpu_util_pct = res.has_cpu ? res.cpu_util_pct : NAN;
	m.bw_peak_gbps = res.has_bw ? res.bw_peak_gbps : 0;
	m.msg_rate_mpps = res.has_bw ? res.msg_rate_mpps : 0;
	m.duration_s = res.duration_s;
	ret = s->ctl.ops->result(&s->ctl, &m);
	/* All of them, whatever this side shows: the client chooses its own. */
	if (!ret)
		ret = s->ctl.ops->counters(&s->ctl, &s->diag.delta);
	if (!ret) {
		rb_diag_point(&s->diag, &s->rep, &res, s->run.total);
		ret = emit(s, &res);
	}
	return ret ? ret : r->verify_status;
}

/* Progress on stderr when it is a terminal (and not --quiet). */
static void progress(struct session *s, size_t i, size_t n, uint64_t t0)
{
	double el = (double)(rb_now_ns() - t0) / 1e9;
	struct rb_point pt;
	char sz[16];

	if (rb_quiet || !isatty(STDERR_FILENO) || n < 2 || s->h.thread_hooks)
		return;
	rb_plan_point(&s->p, i, &pt);
	fprintf(stderr, "\r\033[Kpoint %zu/%zu  size %s batch %u signal %u qps %u  %.0fs elapsed",
		i + 1, n, rb_size_str(pt.size, sz, sizeof(sz)), pt.batch, pt.signal, pt.qps, el);
	if (i)
		fprintf(stderr, ", ~%.0fs left", el / (double)i * (double)(n - i));
	s->progress = true;
}

/* ---- both ----------------------------------------------------------- */

/* Once the peer is known: connect the QPs, then measure every point. */
static int connect_and_measure(struct session *s, int (*points)(struct session *))
{
	int ret;

	report_init(s);
	ret = exchange_conn(s);
	return ret ? ret : points(s);
}

/* ---- client --------------------------------------------------------- */

/* /proc's boot id: with the host name, it says whether two sides share a host. */
static void boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

static int client_hello(struct session *s)
{
	struct rb_msg_hello h = { .tool_version = PACKAGE_VERSION };
	uint32_t len;
	int ret;

	snprintf(h.test, sizeof(h.test), "%s", s->t->name);
	snprintf(h.host, sizeof(h.host), "%s", s->host);
	boot_id(h.boot_id, sizeof(h.boot_id));
	snprintf(h.cpus, sizeof(h.cpus), "%s",
		 s->hello_cpus[0] ? s->hello_cpus : s->rep.place.cpus);
	ret = send_body(s, RB_MSG_HELLO, rb_pack_hello(&h, msg, sizeof(msg)));
	if (!ret)
		ret = rb_oob_expect(&s->oob, RB_MSG_OK, msg, sizeof(msg), &len);
	if (!ret)
		ret = send_body(s, RB_MSG_PARAMS, rb_pack_params(&s->p, msg, sizeof(msg)));
	if (!ret)
		ret = rb_oob_expect(&s->oob, RB_MSG_OK, msg, sizeof(msg), &len);
	return ret;
}

/* --recommend: print it, and put it into the JSON (files rewritten). */
static int recommend(struct session *s)
{
	FILE *f = s->l->format == RB_FMT_TABLE ? stdout : stderr;
	struct rb_reco reco[RB_MAX_AXIS];
	size_t i, n = rb_recommend(s->res, s->nres, reco, RB_MAX_AXIS);
	json_t *arr = json_array();
	char sz[16];

	fprintf(f, "# recommendation: per size, the smallest batch and largest signal interval "
		   "within 5%% of the best message rate\n");
	for (i = 0; i < n; i++) {
		fprintf(f,
			"# size %s: batch %u signal %u -> %.4g Mpps (best %.4g Mpps at batch %u "
			"signal %u)\n",
			rb_size_str(reco[i].size, sz, sizeof(sz)), reco[i].batch, reco[i].signal,
			reco[i].msg_rate_mpps, reco[i].best_msg_rate_mpps, reco[i].best_batch,
			reco[i].best_signal);
		json_array_append_new(
			arr, json_pack("{sI sI sI sf sI sI sf}", "size", (json_int_t)reco[i].size,
				       "batch", (json_int_t)reco[i].batch, "signal",
				       (json_int_t)reco[i].signal, "msg_rate_mpps",
				       reco[i].msg_rate_mpps, "best_batch",
				       (json_int_t)reco[i].best_batch, "best_signal",
				       (json_int_t)reco[i].best_signal, "best_msg_rate_mpps",
				       reco[i].best_msg_rate_mpps));
	}
	s->rep.recommendation = arr;
	return write_files(s, false);
}

static int client_points(struct session *s)
{
	size_t i, n = rb_plan_count(&s->p);
	uint64_t t0 = rb_now_ns();
	int ret = 0;

	for (i = 0; i < n && !ret && !rb_interrupted; i++) {
		progress(s, i, n, t0);
		ret = client_point(s, (uint32_t)i);
	}
	if (ret == -EINTR || rb_interrupted) {
		bool cut = s->nres && s->res[s->nres - 1].cut;

		rb_oob_send_error(&s->oob, "client interrupted at point %zu of %zu", i, n);
		rb_err("interrupted: %zu of %zu points finished%s%s", s->nres - cut, n,
		       cut ? ", one cut short" : "",
		       s->l->json_path[0] || s->l->csv_path[0] ? "; kept in the output files" : "");
		return -EINTR;
	}
	if (ret) {
		rb_oob_send_error(&s->oob, "client failed at point %zu: %s", i - 1, rb_last_error);
		return ret;
	}
	/* --threads: no server ends (and frees its slot) before the last. */
	if (s->h.thread_hooks)
		ret = s->h.thread_hooks->point(s->h.thread_hooks->ctx, (uint32_t)n, thread_beat, s);
	if (!ret)
		ret = send_body(s, RB_MSG_BYE, 0);
	return !ret && s->l->recommend ? recommend(s) : ret;
}

static int exit_code(struct session *s, int ret)
{
	/* -D 0 ended by its signal: the point is whole, the exit says how it ended. */
	if (!ret && rb_stop_asked && !rb_interrupted)
		return 128 + rb_stop_asked;
	if (!ret)
		return s->diag.failed ? RB_EXIT_EXPECT : RB_EXIT_OK;
	if (rb_interrupted)
		return 128 + rb_interrupted;
	if (ret == -EINTR)
		return RB_EXIT_INTR;
	return s->usage ? RB_EXIT_USAGE : RB_EXIT_FAIL;
}

static void session_init(struct session *s, const struct rb_bench *t, const struct rb_local *c,
			 const struct rb_session_hooks *h, enum rb_role role)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->l = c;
	if (h)
		s->h = *h;
	s->role = role;
	s->oob.fd = -1;
	s->slot_fd = -1;
	s->oob.timeout_ms = (int)c->timeout_s * 1000;
	s->run.t = t;
	s->run.role = role;
	s->run.p = &s->p;
	rb_ctl_oob_init(&s->ctl, &s->oob, role);
	s->run.ctl = &s->ctl;
	s->run.timeout_ns = (uint64_t)c->timeout_s * 1000000000ULL;
	s->run.cancel = s->h.thread_hooks ? s->h.thread_hooks->cancel : NULL;
	s->run.progress_ns = s->h.thread_hooks ? s->h.thread_hooks->progress_ns : NULL;
	s->run.on_interval = show_interval;
	s->run.iv_ctx = s;
	gethostname(s->host, sizeof(s->host) - 1);
	srand48((long)rb_now_ns() ^ getpid());
	rb_ticks_per_ms(); /* calibrate now, not inside a measured wait */
	rb_hook_bad_verify = role == RB_ROLE_SERVER && getenv("RDMABENCH_HOOK_BAD_VERIFY");
}

/* Returns @ret, or the failure to write the files' last version. */
static int session_end(struct session *s, int ret)
{
	size_t i;
	int wret;

	wret = finish_output(s, ret);
	close_resources(s);
	rb_cm_close(&s->cm);
	rb_oob_close(&s->oob);
	json_decref(s->rep.recommendation);
	for (i = 0; i < s->nres; i++) {
		json_decref(s->res[i].diag);
		rb_result_free(&s->res[i]);
	}
	free(s->res);
	return ret ? ret : wret;
}

/* What the client can check before it reaches for the server. */
static int client_checks(struct session *s)
{
	char err[RB_TEXT_MAX];
	int ret;

	s->usage = true;
	ret = rb_plan_validate(&s->p, rb_mem_budget(), err, sizeof(err));
	if (ret) {
		rb_err("%s", err);
		return ret;
	}
	ret = check_outputs(s->l);
	if (!ret)
		ret = rb_place_check(s->l->cpu, s->l->numa);
	if (!ret)
		s->usage = false;
	return ret;
}

int rb_client(const struct rb_bench *t, const struct rb_params *p, const struct rb_local *c,
	      const struct rb_session_hooks *h)
{
	struct session s;
	int ret;

	/* --threads N: one of N sessions, started by rb_threads_run() (main.c). */
	if (p->threads > 1 && !(h && h->thread_hooks)) {
		rb_err("--threads %u: a session of a run of threads needs its hooks", p->threads);
		return RB_EXIT_FAIL;
	}
	session_init(&s, t, c, h, RB_ROLE_CLIENT);
	s.p = *p;
	ret = client_checks(&s);
	/* Local setup first, on the device the connection will leave from:
	 * under load it takes seconds, which must not count against the
	 * server's timeout. */
	if (!ret)
		ret = rb_oob_local(c->host, (uint16_t)c->tcp_port, c->bind, &s.local);
	if (!ret)
		ret = open_resources(&s, (struct sockaddr *)&s.local);
	if (!ret && s.h.thread_hooks)
		ret = s.h.thread_hooks->placed(s.h.thread_hooks->ctx, s.rep.place.cpus,
					       s.hello_cpus, sizeof(s.hello_cpus));
	if (!ret)
		ret = rb_oob_connect(c->host, (uint16_t)c->tcp_port, c->bind,
				     (int)c->timeout_s * 1000, &s.oob);
	if (!ret)
		ret = client_hello(&s);
	if (!ret)
		ret = connect_and_measure(&s, client_points);
	ret = session_end(&s, ret);
	return exit_code(&s, ret);
}

/* ---- server --------------------------------------------------------- */

/*
 * A client on this very host (same name, same boot): two busy-pollers on
 * one core would measure the scheduler, so this side keeps off its CPUs.
 */
static void same_host(struct session *s, const struct rb_msg_hello *h)
{
	char id[40], safe[4 * sizeof(h->cpus)];

	boot_id(id, sizeof(id));
	if (!id[0] || strcmp(h->boot_id, id) || strcmp(h->host, s->host))
		return;
	snprintf(s->peer_cpus, sizeof(s->peer_cpus), "%s", h->cpus);
	if (rb_verbose)
		rb_info("client %s runs on this host, on CPUs %s: measuring elsewhere", s->oob.peer,
			h->cpus[0] ? rb_escape(h->cpus, safe, sizeof(safe)) : "(unbound)");
}

/* HELLO: which test; refuse one this server does not run. */
static int server_hello(struct session *s, const struct rb_serve *f)
{
	char safe[4 * sizeof(((struct rb_msg_hello *)0)->test)];
	struct rb_msg_hello h;
	uint32_t len;
	int ret;

	ret = rb_oob_expect(&s->oob, RB_MSG_HELLO, msg, sizeof(msg), &len);
	if (ret)
		return ret;
	if (rb_unpack_hello(msg, len, &h)) {
		rb_err("peer %s sent a malformed HELLO", s->oob.peer);
		return -EPROTO;
	}
	s->t = rb_bench_find(h.test);
	if (!s->t) {
		rb_err("client %s asked for test '%s', which this rdmabench %s does not know",
		       s->oob.peer, rb_escape(h.test, safe, sizeof(safe)), PACKAGE_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (!rb_bench_in(s->t, f->accept)) {
		rb_err("this server runs %s; client %s asked for %s", f->name, s->oob.peer,
		       s->t->name);
		return -EPROTONOSUPPORT;
	}
	s->run.t = s->t;
	same_host(s, &h);
	return send_body(s, RB_MSG_OK, 0);
}

/* How long a client may wait for the slot: told before its timeout. */
static uint64_t slot_wait_ns(const struct session *s)
{
	return s->run.timeout_ns > 2000000000ULL ? s->run.timeout_ns - 2000000000ULL
						 : 1000000000ULL;
}

/*
 * The generic server measures one client at a time: a record lock on
 * byte 0 of a file shared with its children (POSIX locks belong to a
 * process and die with it, so a crashed child cannot keep it; byte 1
 * locks the table of admitted connections, admit.h).  A client that waits
 * longer than the timeout is told the server is busy.
 */
static int take_slot(struct session *s)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
	uint64_t wait_ns = slot_wait_ns(s), until = rb_now_ns() + wait_ns;

	/* A --threads run's other connections: its thread 0 holds the slot
	 * (admit() checks that it is being served), and every point waits
	 * for thread 0 (rb_thread_hooks). */
	if (s->slot_fd < 0 || s->p.thread > 0)
		return 0;
	while (fcntl(s->slot_fd, F_SETLK, &fl)) {
		if (errno != EAGAIN && errno != EACCES) {
			rb_warn("cannot lock the measuring slot: %s; measuring anyway",
				strerror(errno));
			return 0;
		}
		if (rb_interrupted)
			return -EINTR;
		if (rb_now_ns() >= until) {
			rb_err("server busy: another client has been measured for over %llu s; "
			       "try again later",
			       (unsigned long long)(wait_ns / 1000000000ULL));
			return -EBUSY;
		}
		usleep(50000);
	}
	return 0;
}

/*
 * Generic server, once it holds the slot: the connection goes into the
 * table its processes share (admit.h), its memory counted with what the
 * connections in progress hold.  A thread k > 0 of a run joins its thread
 * 0, which may still wait for the slot: as long as that, and a second.
 */
static int admit(struct session *s)
{
	struct rb_admit_entry w = { .pid = getpid(),
				    .run_id = s->p.run_id,
				    .thread = s->p.thread,
				    .threads = s->p.threads,
				    .share = rb_plan_mem(&s->p) };
	uint64_t wait_ns = slot_wait_ns(s) + 1000000000ULL, until = rb_now_ns() + wait_ns;
	uint64_t budget = rb_mem_budget();
	char err[RB_TEXT_MAX];
	int ret;

	if (!s->admit || s->slot_fd < 0)
		return 0;
	rb_oob_peer_host(&s->oob, w.client, sizeof(w.client));
	for (;;) {
		ret = rb_admit_lock(s->slot_fd, true);
		if (ret) {
			rb_err("cannot lock the table of connections: %s", strerror(-ret));
			return ret;
		}
		ret = rb_admit_try(s->admit, &w, budget, err, sizeof(err));
		rb_admit_lock(s->slot_fd, false);
		if (ret != -EAGAIN || rb_interrupted || rb_now_ns() >= until)
			break;
		usleep(50000);
	}
	if (ret == -EAGAIN)
		rb_err("client %s: %s (waited %llu s)", s->oob.peer, err,
		       (unsigned long long)(wait_ns / 1000000000ULL));
	else if (ret)
		rb_err("client %s: %s", s->oob.peer, err);
	return ret;
}

/* The connection ends: what it held is free (its server also frees it when it reaps). */
static void admit_end(struct session *s)
{
	if (!s->admit || s->slot_fd < 0 || rb_admit_lock(s->slot_fd, true))
		return;
	rb_admit_release(s->admit, getpid());
	rb_admit_lock(s->slot_fd, false);
}

/* PARAMS: adopt the client's plan after the checks the command line gets. */
static int server_params(struct session *s, const struct rb_serve *f)
{
	struct sockaddr_storage local;
	socklen_t sl = sizeof(local);
	char err[RB_TEXT_MAX];
	uint32_t len;
	int ret;

	/* The device is the one the client reached us through. */
	if (getsockname(s->oob.fd, (struct sockaddr *)&local, &sl))
		local.ss_family = AF_UNSPEC;
	ret = rb_oob_expect(&s->oob, RB_MSG_PARAMS, msg, sizeof(msg), &len);
	if (ret)
		return ret;
	if (rb_unpack_params(msg, len, &s->p) || strcmp(s->p.test, s->t->name)) {
		rb_err("client %s sent malformed parameters", s->oob.peer);
		return -EPROTO;
	}
	/* A thread k > 0 takes a share of what its thread 0 was admitted for
	 * (admit()): memory its thread 0 may have taken already is not left
	 * to count twice. */
	if (rb_plan_validate(&s->p, s->p.thread > 0 && s->admit ? 0 : rb_mem_budget(), err,
			     sizeof(err))) {
		rb_err("client %s sent a plan this server refuses: %s", s->oob.peer, err);
		return -EINVAL;
	}
	s->ctl.threads = s->p.threads > 1;
	if (f->once && s->p.threads > 1) {
		rb_err("client %s asked for --threads %u: this %s server serves one connection; "
		       "run 'rdmabench server' for several threads",
		       s->oob.peer, s->p.threads, f->name);
		return -EINVAL;
	}
	ret = take_slot(s);
	if (!ret)
		ret = admit(s);
	if (!ret)
		ret = open_resources(s, local.ss_family == AF_UNSPEC ? NULL
								     : (struct sockaddr *)&local);
	return ret ? ret : send_body(s, RB_MSG_OK, 0);
}

/*
 * Each point is prepared before the barrier: once the server answers, the
 * client's first message may land.  The client ends the plan with BYE.
 */
static int server_points(struct session *s)
{
	size_t n = rb_plan_count(&s->p);
	uint32_t i;
	int ret;

	for (i = 0;; i++) {
		ret = i < n ? point_start(s, i) : 0;
		if (!ret)
			ret = s->ctl.ops->barrier(&s->ctl, i);
		if (ret)
			return ret == 1 ? 0 : ret;
		if (i >= n) {
			rb_err("client %s started point %u of a plan of %zu", s->oob.peer, i, n);
			return -EPROTO;
		}
		ret = server_point(s, i);
		if (ret)
			return ret;
	}
}

/* One client on @o, from HELLO to BYE; returns the exit code. */
static int serve_conn(struct rb_oob *o, const struct rb_serve *f, const struct rb_local *c,
		      const struct rb_session_hooks *h, int slot_fd, struct rb_admit *adm)
{
	struct session s;
	int ret;

	session_init(&s, NULL, c, h, RB_ROLE_SERVER);
	s.slot_fd = slot_fd;
	s.admit = adm;
	s.oob.fd = o->fd;
	memcpy(s.oob.peer, o->peer, sizeof(s.oob.peer));
	rb_info("client %s connected", s.oob.peer);
	ret = server_hello(&s, f);
	if (!ret)
		ret = server_params(&s, f);
	if (!ret)
		ret = connect_and_measure(&s, server_points);
	/* Tell the client why, unless it is the one who hung up. */
	if (ret && ret != -ECONNABORTED && ret != -ECONNRESET)
		rb_oob_send_error(&s.oob, "server: %s", rb_last_error);
	ret = session_end(&s, ret);
	admit_end(&s);
	if (!ret)
		rb_info("client %s done: %zu point(s)", s.oob.peer, s.nres);
	return exit_code(&s, ret);
}

/* ---- the generic server: one process per connection ------------------ */

#define MAX_CONNS RB_ADMIT_MAX
/* A refused client's answer: the listener waits for no one longer. */
#define REFUSE_SEND_MS	1000
#define REFUSE_DRAIN_MS 200

struct kids {
	pid_t pid[MAX_CONNS];
	int n;
	int slot_fd;	      /* the lock file, or -1 */
	struct rb_admit *adm; /* what they were admitted for, or NULL */
};

/* A child that died before it could free its entry: freed here. */
static void reaped(struct kids *k, pid_t pid)
{
	if (!k->adm || k->slot_fd < 0 || rb_admit_lock(k->slot_fd, true))
		return;
	rb_admit_release(k->adm, pid);
	rb_admit_lock(k->slot_fd, false);
}

static void reap_kids(struct kids *k, bool block)
{
	int i = 0;

	while (i < k->n) {
		if (waitpid(k->pid[i], NULL, block ? 0 : WNOHANG) == 0) {
			i++;
			continue;
		}
		reaped(k, k->pid[i]);
		k->pid[i] = k->pid[--k->n];
	}
}

/* Wait up to @until (ns) for the children to end. */
static void wait_kids(struct kids *k, uint64_t until)
{
	while (k->n && rb_now_ns() < until) {
		reap_kids(k, false);
		usleep(20000);
	}
}

/*
 * Interrupted: the connections in progress end too, keeping their points.
 * A ^C on a terminal reached them already (a second signal would make them
 * exit at once), so they get a second to end before they are told.
 */
static void stop_kids(struct kids *k, int timeout_s)
{
	int i;

	wait_kids(k, rb_now_ns() + 1000000000ULL);
	for (i = 0; i < k->n; i++)
		kill(k->pid[i], SIGTERM);
	wait_kids(k, rb_now_ns() + (uint64_t)(timeout_s + 5) * 1000000000ULL);
	for (i = 0; i < k->n; i++)
		kill(k->pid[i], SIGKILL);
	reap_kids(k, true);
}

/*
 * A child serves the connection: a slow, silent or hostile peer holds only
 * its own process, never the listener, and whatever it makes a session
 * allocate is returned when the child exits.
 */
static void spawn(struct kids *k, struct rb_oob *o, const struct rb_serve *f,
		  const struct rb_local *c, const struct rb_session_hooks *h, int lfd)
{
	pid_t pid;

	if (k->n == MAX_CONNS) {
		rb_oob_send_error(o, "server: %d connections in progress; try again later",
				  MAX_CONNS);
		rb_warn("refused %s: %d connections in progress", o->peer, MAX_CONNS);
		rb_oob_drain_close(o, REFUSE_DRAIN_MS);
		return;
	}
	fflush(NULL); /* nothing buffered is written twice */
	pid = fork();
	if (pid == 0) {
		close(lfd);
		/* A forked child ends here; main() never sees its status. */
		_exit(serve_conn(o, f, c, h, k->slot_fd, k->adm) ? RB_EXIT_FAIL : RB_EXIT_OK);
	}
	if (pid < 0)
		rb_err("cannot fork a process for %s: %s", o->peer, strerror(errno));
	else
		k->pid[k->n++] = pid;
}

static int serve_forever(int lfd, const struct rb_serve *f, const struct rb_local *c,
			 const struct rb_session_hooks *h)
{
	FILE *slot = tmpfile();
	struct kids k = { .n = 0, .slot_fd = slot ? fileno(slot) : -1 };
	/* The listener's own send (a refusal) waits at most REFUSE_SEND_MS. */
	struct rb_oob o = { .fd = -1, .timeout_ms = REFUSE_SEND_MS };
	int ret;

	if (!slot)
		rb_warn("no lock file (%s): clients may be measured at the same time",
			strerror(errno));
	else
		k.adm = rb_admit_map();
	while (!rb_interrupted) {
		reap_kids(&k, false);
		o.fd = -1;
		ret = rb_oob_accept(lfd, 200, &o);
		if (ret == -ETIMEDOUT || ret == -EINTR)
			continue;
		if (ret) {
			usleep(100000); /* e.g. out of fds: do not spin */
			continue;
		}
		spawn(&k, &o, f, c, h, lfd);
		rb_oob_close(&o);
	}
	stop_kids(&k, (int)c->timeout_s);
	rb_admit_unmap(k.adm);
	if (slot)
		fclose(slot);
	return RB_EXIT_OK;
}

/*
 * -d, -i and -x, checked before listening: a server on a device that is
 * not there would wait, and tell only its first client.  Exit codes are
 * the client's for the same choices (-i or -x out of range: usage);
 * returns one, RB_EXIT_OK to go on.
 */
static int server_device_check(const struct rb_local *c)
{
	const struct rb_dev_want w = { .name = c->device[0] ? c->device : NULL,
				       .port = c->ib_port,
				       .gid_index = c->gid_index,
				       .local = NULL,
				       .peer_family = AF_UNSPEC };
	int ret;

	/* Nothing chosen: the device is the one the client comes through. */
	if (!w.name && w.port <= 0 && w.gid_index < 0)
		return RB_EXIT_OK;
	ret = rb_dev_check(&w);
	if (!ret)
		return RB_EXIT_OK;
	return ret == -EINVAL ? RB_EXIT_USAGE : RB_EXIT_FAIL;
}

int rb_server(const struct rb_serve *f, const struct rb_local *c, const struct rb_session_hooks *h)
{
	struct rb_oob o = { .fd = -1 };
	char addrs[512];
	int lfd, ret;

	if (check_outputs(c) || rb_place_check(c->cpu, c->numa))
		return RB_EXIT_USAGE;
	ret = server_device_check(c);
	if (ret)
		return ret;
	ret = rb_oob_listen((uint16_t)c->tcp_port, c->bind, &lfd);
	if (ret)
		return RB_EXIT_FAIL;
	rb_oob_listening(lfd, addrs, sizeof(addrs));
	rb_info("%s: waiting for a client on TCP port %u of %s", f->name, c->tcp_port,
		addrs[0] ? addrs : "every address");
	if (!f->once) {
		ret = serve_forever(lfd, f, c, h);
	} else if ((ret = rb_oob_accept(lfd, -1, &o))) {
		ret = rb_interrupted ? 128 + rb_interrupted : RB_EXIT_FAIL;
	} else {
		ret = serve_conn(&o, f, c, h, -1, NULL);
	}
	close(lfd);
	return ret;
}
