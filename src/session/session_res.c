// SPDX-License-Identifier: MIT
/*
 * A session's resources: device, PD, CQ, QPs and buffers, as the plan and
 * this side's choices ask, checked against the device's limits first.
 */
#include "rdma/memlock.h"
#include "session/rails.h"
#include "session/session_int.h"

/* ---- resources ------------------------------------------------------ */

/*
 * The part of the data path this side runs: its role's, or with
 * --reversed the other's (the server sends and measures).  The control
 * channel keeps the connection's roles: the client drives the plan.
 */
enum rb_role sess_data_role(const struct session *s)
{
	if (!s->p.reversed)
		return s->role;
	return s->role == RB_ROLE_CLIENT ? RB_ROLE_SERVER : RB_ROLE_CLIENT;
}

/* Whether this side's buffers are an RDMA READ's sink: it issues the reads. */
static bool read_sink(const struct session *s)
{
	return (s->bench->send_ops & IBV_QP_EX_WITH_RDMA_READ) &&
	       (s->p.bidir || sess_data_role(s) == RB_ROLE_CLIENT);
}

/* The QPs' remote rights on this side (and a READ sink's on iWARP). */
int sess_qp_access(const struct session *s)
{
	/* -b: each side is written or read by the other, as either role is. */
	int sink = read_sink(s) && s->conn.dev.tr ? s->conn.dev.tr->read_sink_access : 0;

	/* Send credits: the receiver WRITEs the sender's credit words. */
	int credits = s->p.credits && sess_data_role(s) == RB_ROLE_CLIENT ? IBV_ACCESS_REMOTE_WRITE
									  : 0;

	if (s->p.bidir)
		return s->bench->server_access | s->bench->client_access | sink;
	return (sess_data_role(s) == RB_ROLE_SERVER ? s->bench->server_access
						    : s->bench->client_access) |
	       sink | credits;
}

/* -c DC: the client's QPs are DC initiators, the server's DC targets (rdma/dc.h). */
static bool dc_initiator(const struct session *s)
{
	return s->p.transport == RB_TR_DC && s->role == RB_ROLE_CLIENT;
}

static bool dc_target(const struct session *s)
{
	return s->p.transport == RB_TR_DC && s->role == RB_ROLE_SERVER;
}

/* The receives kept posted per QP (or on the SRQ): only tests that receive post any. */
static uint32_t rx_depth_of(const struct session *s)
{
	if (dc_initiator(s)) /* a DCI has no receive queue */
		return 0;
	return rb_bench_receives(s->bench, &s->p) ? s->p.rx_depth : 0;
}

/*
 * A CQ's entries: everything the loops can have outstanding on it at
 * once: every QP's, or with --cq-per-qp one QP's (all the SRQ's receives
 * may land on one QP).
 */
static uint64_t cq_need(const struct session *s)
{
	uint32_t qps = s->p.cq_per_qp ? 1 : (uint32_t)rb_axis_max(&s->p.qps);

	return rb_cq_entries(qps, (uint32_t)rb_axis_max(&s->p.tx_depth), rx_depth_of(s), s->p.srq);
}

/* A plan whose completions would not fit the device's largest CQ. */
static int check_cq(const struct session *s)
{
	const struct rb_dev *d = &s->conn.dev;
	uint64_t need = cq_need(s);
	uint32_t rx = rx_depth_of(s);
	char what[128];

	uint64_t qps = s->p.cq_per_qp ? 1 : rb_axis_max(&s->p.qps);

	if (need <= (uint64_t)d->attr.max_cqe)
		return 0;
	if (!rx)
		snprintf(what, sizeof(what), "-q %llu x -t %llu%s", (unsigned long long)qps,
			 (unsigned long long)rb_axis_max(&s->p.tx_depth),
			 s->p.cq_per_qp ? " (--cq-per-qp)" : "");
	else
		snprintf(what, sizeof(what),
			 s->p.srq ? "-q %llu x -t %llu + -r %u (--srq)%s"
				  : "-q %llu x (-t %llu + -r %u)%s",
			 (unsigned long long)qps, (unsigned long long)rb_axis_max(&s->p.tx_depth),
			 rx, s->p.cq_per_qp ? " (--cq-per-qp)" : "");
	rb_err("%s: needs %llu CQ entries, %s allows %d (max_cqe)", what, (unsigned long long)need,
	       d->name, d->attr.max_cqe);
	return -EINVAL;
}

/* What the device's transport (iWARP: RC only, no atomics) does not offer. */
static int check_transport(const struct session *s)
{
	const struct rb_dev *d = &s->conn.dev;
	const struct rb_xport *t = d->tr;

	/* RC, UC, UD: the transport's word; SRD is a provider's own QP type,
	 * judged by the provider table (rb_plan_provider_check()). */
	if (s->p.transport < RB_TR_SRD && !(t->qp_types & RB_TR_BIT(s->p.transport))) {
		rb_err("-c %s: %s is %s, which has no %s QPs: use -c RC",
		       rb_transport_name(s->p.transport), d->name, t->name,
		       rb_transport_name(s->p.transport));
		return -EOPNOTSUPP;
	}
	if (s->p.transport == RB_TR_DC && !rb_dc_built()) {
		rb_err("-c DC: %s: this rdmabench was built without mlx5dv (configure found no "
		       "libmlx5 and infiniband/mlx5dv.h)",
		       d->name);
		return -EOPNOTSUPP;
	}
	if (s->bench->atomic && !t->atomics) {
		rb_err("%s: %s is %s, which has no atomic operations", s->bench->name, d->name,
		       t->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Requests the device cannot honour are usage errors (exit 2). */
static int check_limits(struct session *s)
{
	struct rb_dev *d = &s->conn.dev;
	uint64_t size = rb_axis_max(&s->p.size);
	char why[RB_TEXT_MAX];

	s->usage = true;
	if (check_transport(s))
		return -EOPNOTSUPP;
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
	if (rb_plan_provider_check(&s->p, s->bench, d->prov, d->name, why, sizeof(why))) {
		rb_err("%s", why);
		return -EINVAL;
	}
	if (s->bench->atomic && d->attr.atomic_cap == IBV_ATOMIC_NONE) {
		rb_err("%s does not support atomic operations (atomic_cap NONE)", d->name);
		return -EOPNOTSUPP;
	}
	if (s->p.odp && rb_odp_check(d, s->p.transport, rb_bench_odp_need(s->bench, &s->p)))
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

/* QPs a plan needs: -q, and --probe's own. */
static uint64_t qps_need(const struct session *s)
{
	return rb_axis_max(&s->p.qps) + (sess_probing(s) ? 1 : 0);
}

/*
 * A plan of more QPs, MRs or CQs than the device holds, refused before any
 * is made (exit 2), naming the limit; more locked memory than this process
 * may pin, the same but exit 1 (the host's limit, raised without changing
 * the plan).
 */
static int check_scale(struct session *s)
{
	const struct rb_dev *d = &s->conn.dev;
	uint64_t nqp = rb_axis_max(&s->p.qps), nmr = s->p.mr_per_qp ? nqp : 1;
	uint64_t bytes = rb_memlock_pinned(nmr * 2 * region_size(&s->p), s->p.odp, s->l->use_cuda,
					   s->l->cuda_mem == RB_CUDA_HOST_PINNED);
	char l[64], why[400];

	s->usage = true;
	if (qps_need(s) > (uint64_t)d->attr.max_qp) {
		rb_err("-q/--qps %llu%s: %s holds at most %d QPs (max_qp)", (unsigned long long)nqp,
		       sess_probing(s) ? " and --probe's QP" : "", d->name, d->attr.max_qp);
		return -EINVAL;
	}
	if (s->p.cq_per_qp && qps_need(s) > (uint64_t)d->attr.max_cq) {
		rb_err("--cq-per-qp with -q %llu: %llu CQs%s, %s holds at most %d (max_cq)",
		       (unsigned long long)nqp, (unsigned long long)qps_need(s),
		       sess_probing(s) ? " with --probe's" : "", d->name, d->attr.max_cq);
		return -EINVAL;
	}
	if (nmr > (uint64_t)d->attr.max_mr) {
		rb_err("--mr-per-qp with -q %llu: %llu MRs, %s holds at most %d (max_mr)",
		       (unsigned long long)nqp, (unsigned long long)nmr, d->name, d->attr.max_mr);
		return -EINVAL;
	}
	/* The host's limit, not the plan's fault: exit 1, as a registration
	 * that failed on it would, but before anything is made. */
	if (bytes && rb_memlock_binds() && bytes > rb_memlock_limit()) {
		rb_err("-q %llu: %llu MR(s) of %zu bytes would pin %llu bytes on %s, over "
		       "RLIMIT_MEMLOCK %s%s",
		       (unsigned long long)nqp, (unsigned long long)nmr, 2 * region_size(&s->p),
		       (unsigned long long)bytes, d->name,
		       rb_memlock_fmt(rb_memlock_limit(), l, sizeof(l)),
		       rb_memlock_explain(ENOMEM, bytes, rb_memlock_limit(), why, sizeof(why)));
		s->usage = false;
		return -ENOMEM;
	}
	s->usage = false;
	return 0;
}

static enum ibv_qp_type qp_type(const struct rb_params *p)
{
	/* SRD is a driver QP (efadv_create_qp_ex: rb_qp_create()). */
	static const enum ibv_qp_type types[RB_TR_COUNT] = { IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD,
							     IBV_QPT_DRIVER, IBV_QPT_DRIVER };

	return types[p->transport]; /* in range: the plan was validated */
}

/*
 * --post-api: what QP @caps asks for.  @settled, after the first QP: the
 * API it got ("wr" or "post"), which every other QP must take as well.
 */
static void want_post_api(const struct session *s, const char *settled, struct rb_qp_caps *caps)
{
	/* SRD posts only through ibv_wr_* (EFA's ibv_post_send takes SENDs alone),
	 * and so does a DCI (each WR names its DCT: mlx5dv_wr_set_dc_addr()). */
	bool srd = s->p.transport == RB_TR_SRD || dc_initiator(s);
	bool wr = srd || (s->l->post_api != RB_POST_POST && (!settled || !strcmp(settled, "wr")));

	caps->send_ops = !wr ? 0 : s->p.imm ? s->bench->imm_ops : s->bench->send_ops;
	caps->ex_only = wr && (srd || settled || s->l->post_api == RB_POST_WR);
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
	       s->conn.dev.name, s->bench->wr_name);
	return true;
}

/* The loops post through ibv_wr_* (@ex) or ibv_post_send(); JSON's device.post_api. */
static void posting_by(struct session *s, bool ex)
{
	struct rb_conn *cn = &s->conn;

	cn->post_send = dc_initiator(s) ? rb_post_send_dc : rb_qp_post_fn(cn->qp[0], ex);
	s->rep.post_api = ex ? "wr" : "post";
	if (rb_verbose)
		rb_info("%s: posting with %s", cn->dev.name,
			ex ? "ibv_wr_* (ibv_qp_ex)" : "ibv_post_send");
}

/* Inline sends are read by the CPU: none from GPU device memory. */
static uint32_t inline_wanted(const struct session *s)
{
	if (s->conn.gpu && s->gpu_buf.mem == RB_CUDA_DEVICE)
		return 0;
	return s->p.inline_size;
}

/* QP @i: of the plan's transport; under -c DC, this side's DC kind. */
static int create_qp(struct session *s, uint32_t i, struct rb_qp_caps *caps)
{
	struct rb_conn *cn = &s->conn;
	struct ibv_cq *cq = cn->cqs ? cn->cqs[i] : cn->cq;

	if (s->p.transport != RB_TR_DC)
		return rb_qp_create(&cn->dev, cq, qp_type(&s->p), caps, &cn->qp[i]);
	caps->srq = cn->srq ? cn->srq : s->dc_srq;
	return rb_dc_create(&cn->dev, cq, dc_target(s), RB_DC_KEY, caps, &cn->qp[i]);
}

static int create_qps(struct session *s)
{
	struct rb_conn *cn = &s->conn;
	bool recv = rb_bench_receives(s->bench, &s->p);
	struct rb_qp_caps caps;
	uint32_t i;
	int ret;

	cn->rx_depth = rx_depth_of(s);
	/* A channel when any point waits on events; each such point uses it
	 * (r->ev.chan, rb_point_begin()). */
	ret = rb_axis_has(&s->p.poll, RB_POLL_EVENT) ? rb_channel_create(&cn->dev, &cn->channel)
						     : 0;
	if (!ret)
		ret = sess_create_cqs(s, cq_need(s));
	/* A DC target receives from an SRQ: the run's when it posts receives. */
	if (!ret && recv && (s->p.srq || dc_target(s))) {
		ret = rb_srq_create(&cn->dev, cn->rx_depth, &cn->srq);
		s->usage = ret == -EINVAL;
	} else if (!ret && dc_target(s)) {
		ret = rb_srq_create(&cn->dev, 1, &s->dc_srq);
	}
	if (!ret && (dc_initiator(s) || s->p.transport == RB_TR_SRD)) {
		s->peers = calloc(cn->nqp, sizeof(*s->peers));
		ret = s->peers ? 0 : -ENOMEM;
	}
	for (i = 0; !ret && i < cn->nqp; i++) {
		/* The first QP finds the inline size; the others ask what it took. */
		caps = (struct rb_qp_caps){ .send_wr = (uint32_t)rb_axis_max(&s->p.tx_depth),
					    .recv_wr = recv ? cn->rx_depth : 1,
					    .inline_size = i ? cn->inline_max : inline_wanted(s),
					    .srq = cn->srq };
		/* The first QP settles the API; the others must take it too. */
		want_post_api(s, i ? s->rep.post_api : NULL, &caps);
		ret = create_qp(s, i, &caps);
		cn->inline_max = caps.inline_size;
		if (ret && !i && (s->p.transport == RB_TR_SRD || s->p.transport == RB_TR_DC))
			s->usage = ret == -EOPNOTSUPP; /* said by rb_qp_create() */
		else if (ret && !i && caps.ex_only)
			s->usage = no_wr_api(s, ret);
		if (!ret && !i)
			posting_by(s, caps.ex);
	}
	if (!ret && !inline_wanted(s) && s->p.inline_size && s->bench->inline_ok && rb_verbose)
		rb_info("-I/--inline %u: off, the CPU cannot read GPU device memory (--use-cuda)",
			s->p.inline_size);
	else if (!ret && s->p.inline_size == RB_INLINE_AUTO && s->bench->inline_ok && rb_verbose)
		rb_info("-I/--inline auto: %s QPs took %u bytes inline", cn->dev.name,
			cn->inline_max);
	else if (!ret && cn->inline_max < s->p.inline_size && s->p.inline_size != RB_INLINE_AUTO &&
		 s->bench->inline_ok)
		rb_info("-I/--inline %u: %s QPs accept %u bytes inline; capped", s->p.inline_size,
			cn->dev.name, cn->inline_max);
	/* What post.c inlines at most (JSON device.inline_size, compare's). */
	s->rep.inline_used = s->bench->inline_ok ? cn->inline_max : 0;
	return ret;
}

/* create_qps(), timed for JSON "setup". */
static int timed_create(struct session *s)
{
	uint64_t t0 = rb_now_ns();
	int ret = create_qps(s);

	if (ret)
		return ret;
	s->rep.setup = (struct rb_setup){ .on = true,
					  .qps = s->conn.nqp,
					  .create_ms = (double)(rb_now_ns() - t0) / 1e6,
					  .connect_ms = -1,
					  .destroy_ms = -1 };
	return 0;
}

/* The device: the one holding @local (the OOB connection's address). */
/* perftest's warning (unless -F), once a run: thread 0 of --threads says it. */
void sess_warn_freq(const struct session *s, const char *whose, const struct rb_placement *p)
{
	char gov[4 * sizeof(p->governor)];

	if (s->l->freq_quiet || s->p.thread || !rb_freq_varies(p))
		return;
	rb_warn("%s measuring cpu %d runs the %s cpufreq governor, not performance: its clock "
		"follows its load, and latencies with it (-F/--cpu-freq silences this)",
		whose, p->freq_cpu, rb_escape(p->governor, gov, sizeof(gov)));
}

/*
 * An unpinned thread (--cpu none) reads the TSC of whichever CPU it runs
 * on.  A kernel that found the CPUs' TSCs unsynchronized takes "tsc" off
 * its clocksources: two readings on two CPUs may then disagree (a 40-vCPU
 * TCG guest's do).  Said once a run, by thread 0; the gates on ticks
 * survive it (rb_ticks_due()), the timings may not.
 */
static void warn_tsc(const struct session *s)
{
#if defined(__x86_64__) || defined(__i386__)
	char cs[256];

	if (!s->p.thread && !strcmp(s->l->cpu, "none") && rb_tsc_untrusted("/sys", cs, sizeof(cs)))
		rb_warn("--cpu none: this kernel does not trust the CPUs' TSCs (clocksources: %s), "
			"and an unpinned thread may read two CPUs' that disagree: timings are "
			"reliable only pinned (--cpu auto or a list)",
			cs);
#else
	(void)s;
#endif
}

/*
 * Server: its own -d LIST, -d all or -O serves thread k of a client's run
 * (the client's rail k) on its rail k (modulo its count), whichever address
 * the connection came through; without, the device that address is on.
 */
int sess_server_rail(struct session *s)
{
	struct rb_rails r;
	char err[256];
	uint32_t k;

	if (rb_rails_parse(s->l, &r, err, sizeof(err))) {
		rb_err("server: %s", err);
		return -EINVAL;
	}
	if (!r.n)
		return 0;
	k = s->p.thread % r.n;
	s->rail_l = *s->l;
	rb_rails_apply(&r, k, &s->rail_l);
	s->l = &s->rail_l;
	rb_info("client %s: thread %u served on rail %s (%u of %u)", s->oob.peer, s->p.thread,
		r.name[k], k + 1, r.n);
	return 0;
}

/*
 * A transport whose QPs reach RTS only through the CM (iWARP) connects
 * through rdma_cm whatever -R says; the client says so, once a process.
 * Each side decides from its own device; a peer of another transport is
 * refused when the CONNs meet (session_conn.c).
 */
static void cm_if_needed(struct session *s)
{
	static int said;
	const struct rb_dev *d = &s->conn.dev;

	if (s->p.use_cm || !d->tr->cm_only)
		return;
	s->p.use_cm = 1;
	if (s->role == RB_ROLE_CLIENT && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		rb_info("%s is %s: its QPs connect only through rdma_cm, so the run uses it (as "
			"-R/--rdma_cm would)",
			d->name, d->tr->name);
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
	ret = rb_dev_open_want(&w, &s->conn.dev);

	/* A port or GID index the device does not have is the user's. */
	s->usage = ret == -EINVAL;
	if (!ret)
		cm_if_needed(s);
	if (!ret && rb_verbose)
		rb_info("%s; %s", s->conn.dev.why_dev, s->conn.dev.why_gid);
	return ret;
}

/*
 * sess_alloc_buffers() - @len bytes of buffers on the memory node chosen,
 * in 2 MiB huge pages with --hugepages.  A shortage of huge pages is the
 * configuration's, as is an explicit --numa (exit 2).
 */
int sess_alloc_buffers(struct session *s, size_t len)
{
	size_t huge = RB_HUGE_PAGE;

	s->buf_len = len;
	if (s->p.hugepages)
		s->buf_len = (s->buf_len + huge - 1) / huge * huge;
	s->conn.buf = rb_place_alloc(s->buf_len, s->rep.place.mem_node, s->p.hugepages);
	if (!s->conn.buf) {
		s->usage = s->p.hugepages && errno == ENOMEM;
		return -errno;
	}
	return 0;
}

/*
 * --use-cuda: what this side cannot do with its buffers in GPU memory, a
 * usage error (exit 2) naming the way that works.
 */
static int cuda_refuses(struct session *s)
{
	const struct rb_local *l = s->l;
	const char *why = NULL;

	if (s->bench->polls_buffer && !s->p.imm && l->cuda_mem == RB_CUDA_DEVICE)
		why = "polls its buffer's last byte from the CPU, which cannot read GPU device "
		      "memory: add --write-with-imm (both sides), or --cuda-mem managed or "
		      "host-pinned";
	else if (s->p.odp)
		why = "--odp: on-demand paging is for host memory";
	else if (s->p.reg_mode == RB_REG_PER_MSG)
		why = "--reg-mode per-msg is not built yet for GPU memory";
	else if (strchr(s->l->cuda, '%'))
		why = "%r, %l and their kin are matrix's, each rank's own; name a GPU here";
	if (!why)
		return 0;
	rb_err("--use-cuda with %s: %s", s->bench->name, why);
	s->usage = true;
	return -EINVAL;
}

/* The buffers in GPU memory, and a host region to copy through (JSON: gpu). */
static int alloc_gpu(struct session *s, size_t len)
{
	struct rb_conn *cn = &s->conn;
	int ret = cuda_refuses(s);

	if (!ret)
		ret = rb_cuda_choose(s->l->cuda, cn->dev.name, &s->gpu);
	s->usage = s->usage || ret == -EINVAL;
	if (!ret)
		ret = rb_cuda_alloc(s->gpu.index, s->l->cuda_mem, len, &s->gpu_buf);
	if (ret)
		return ret;
	if (s->p.hugepages)
		rb_warn("--hugepages: this side's buffers are GPU memory (--use-cuda)");
	cn->buf = s->gpu_buf.ptr;
	cn->gpu = &s->gpu_buf;
	s->buf_len = s->gpu_buf.len;
	cn->scratch = malloc(cn->region);
	if (!cn->scratch)
		return -ENOMEM;
	s->rep.gpu = &s->gpu;
	s->rep.gpu_mem = rb_cuda_mem_name(s->gpu_buf.mem);
	if (rb_verbose)
		rb_info("GPU %d (%s), %s: %s; %zu bytes of %s memory", s->gpu.index, s->gpu.bus_id,
			s->gpu.relation[0] ? s->gpu.relation : "relation unknown", s->gpu.why,
			s->buf_len, s->rep.gpu_mem);
	return 0;
}

/* The buffers: one rx and one tx region per MR, one MR per QP with --mr-per-qp. */
static int alloc_buffers(struct session *s)
{
	struct rb_conn *cn = &s->conn;
	int ret;

	cn->nqp = (uint32_t)rb_axis_max(&s->p.qps);
	cn->nmr = s->p.mr_per_qp ? cn->nqp : 1;
	cn->region = region_size(&s->p);
	if (rb_conn_lists_alloc(cn))
		return -ENOMEM;
	if (s->l->use_cuda)
		return alloc_gpu(s, cn->nmr * 2 * cn->region);
	ret = sess_alloc_buffers(s, cn->nmr * 2 * cn->region);
	/* lock --run-id: the run's words and data are the hosts' one segment. */
	if (!ret && s->lks)
		ret = sess_lockshare_map(s->lks, cn->buf, s->buf_len);
	if (!ret && s->lks) {
		cn->lock_share = s->lks->sh;
		cn->lock_host = s->lks->host;
	}
	return ret;
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
	if (s->bench->polls_buffer)
		return "off: the test polls its buffer's last byte for arrival, which relaxed "
		       "ordering may place before the rest";
	return NULL;
}

static int register_buffers(struct session *s)
{
	struct rb_conn *cn = &s->conn;
	int access = IBV_ACCESS_LOCAL_WRITE | sess_qp_access(s) |
		     (s->p.odp ? IBV_ACCESS_ON_DEMAND : 0);
	const char *off = relaxed_off(s);
	uint32_t i;
	int ret = 0;

	if (!off)
		access |= IBV_ACCESS_RELAXED_ORDERING;
	for (i = 0; i < cn->nmr && !ret; i++)
		ret = cn->gpu ? rb_cuda_reg_mr(&cn->dev, cn->gpu, rb_conn_rx_of(cn, i),
					       2 * cn->region, access, s->l->cuda_reg, &cn->mr[i],
					       &s->rep.gpu_reg_path, s->gpu_why_reg,
					       sizeof(s->gpu_why_reg))
			      : rb_mr_reg(&cn->dev, rb_conn_rx_of(cn, i), 2 * cn->region, access,
					  &cn->mr[i]);
	if (cn->gpu) {
		static const char *const regs[] = { "auto", "dmabuf", "peermem" };

		s->rep.gpu_reg = regs[s->l->cuda_reg % 3];
		s->rep.gpu_why_reg = s->gpu_why_reg;
		if (!ret && rb_verbose)
			rb_info("%s: GPU memory registered by %s (%s)", cn->dev.name,
				s->rep.gpu_reg_path, s->gpu_why_reg);
	}
	/* Requested is not honoured: what the driver and the registration say. */
	s->rep.relaxed_ordering = !off;
	s->rep.relaxed_honoured = rb_prov_relaxed_known(off, cn->dev.relaxed_err != 0, cn->dev.prov,
							s->why_relaxed, sizeof(s->why_relaxed));
	s->rep.why_relaxed = s->why_relaxed;
	return ret;
}

/*
 * sess_place() - this thread to the CPUs and memory node near @ibdev (NULL:
 * locality unknown), away from a client on this host.
 */
int sess_place(struct session *s, const char *ibdev)
{
	int ret = rb_place_apply_thread(ibdev, s->l->cpu, s->l->numa,
					s->peer_cpus[0] ? s->peer_cpus : NULL, s->p.thread,
					s->p.threads, &s->rep.place);

	if (ret) {
		/* An explicit --cpu/--numa this machine cannot honour. */
		s->usage = ret == -EINVAL;
		return ret;
	}
	sess_warn_freq(s, "this side's", &s->rep.place);
	warn_tsc(s);
	return 0;
}

/*
 * -c not given, and the client's device does not make the default (RC):
 * the first transport the test and the device share, said once; the plan
 * is checked again (a -c UD message is one packet, no -R) and then sent.
 */
static int auto_transport(struct session *s)
{
	const struct rb_provider *pv = s->conn.dev.prov;
	unsigned int tr = rb_plan_transport_for(s->bench, pv, s->p.transport);
	char offers[64], why[RB_TEXT_MAX];

	if (s->role != RB_ROLE_CLIENT || !s->l->transport_auto || tr == s->p.transport)
		return 0;
	s->p.transport = (uint8_t)tr;
	rb_info("%s is %s, which makes %s QPs: -c %s (no -c given)", s->conn.dev.name, pv->name,
		rb_prov_offers_str(pv->offers, offers, sizeof(offers)), rb_transport_name(tr));
	if (!rb_plan_validate(&s->p, 0, why, sizeof(why)))
		return 0;
	rb_err("-c %s, the transport %s makes: %s", rb_transport_name(tr), s->conn.dev.name, why);
	s->usage = true;
	return -EINVAL;
}

/*
 * --probe: its thread on a CPU of its own of the device's node, off the
 * run's measuring threads (the client's, with --threads every thread's)
 * and a peer on this host, where the stream is bound to one CPU; said
 * (JSON probe_placement) and warned when it cannot be.
 */
int sess_probe_place(struct session *s)
{
	struct rb_probe_place pl;
	int ret;

	ret = rb_probe_place(s->conn.dev.name, s->rep.place.cpus,
			     s->role == RB_ROLE_CLIENT ? s->hello_cpus : "",
			     s->peer_cpus[0] ? s->peer_cpus : NULL, &pl);
	if (ret)
		return ret;
	s->probe.cpu = pl.cpu;
	s->rep.has_probe_place = true;
	s->rep.probe_cpu = pl.cpu;
	s->rep.probe_shared = pl.shared;
	s->rep.probe_elsewhere = pl.elsewhere;
	if (rb_verbose && pl.cpu >= 0)
		rb_info("--probe: its thread on CPU %d%s", pl.cpu,
			pl.shared ? ", the stream's" : "");
	return 0;
}

int sess_open_resources(struct session *s, const struct sockaddr *local)
{
	struct rb_conn *cn = &s->conn;
	int ret;

	ret = open_device(s, local);
	if (ret)
		return ret;
	ret = auto_transport(s);
	if (!ret)
		ret = sess_credits(s);
	if (!ret)
		ret = check_limits(s);
	if (!ret)
		ret = check_scale(s);
	if (!ret) {
		ret = rb_diag_setup(&s->diag, &s->conn.dev, s->bench, s->role, s->l, &s->rep);
		s->diag.reversed = s->p.reversed;
		s->usage = ret == -EINVAL;
	}
	if (!ret)
		ret = sess_place(s, cn->dev.name);
	if (ret)
		return ret;
	cn->rx_off = rx_offset(&s->p);
	/* The WRs carry the peer's address: UD alone (SRD's is the QP's, s->peers). */
	cn->ud = s->p.transport == RB_TR_UD;
	cn->lossy = s->p.transport == RB_TR_UC || s->p.transport == RB_TR_UD;
	ret = alloc_buffers(s);
	if (!ret)
		ret = register_buffers(s);
	if (!ret)
		ret = timed_create(s);
	if (!ret && sess_probing(s))
		ret = rb_probe_open(&s->probe, &cn->dev, s->role == RB_ROLE_SERVER,
				    s->p.probe_rate);
	if (!ret && rb_verbose)
		rb_info("%s port %u: %u QP(s)%s, %u MR(s) of %zu bytes%s%s, inline %u",
			cn->dev.name, cn->dev.port, cn->nqp, cn->srq ? " on one SRQ" : "", cn->nmr,
			2 * cn->region, s->p.hugepages ? " in 2 MiB huge pages" : "",
			s->p.odp ? " (ODP)" : "", cn->inline_max);
	return ret;
}

/*
 * The data QPs destroyed, timed (JSON "setup"), before the files' last
 * version; sess_close_resources() then finds them gone.
 */
static void drop_qps(struct session *s)
{
	struct rb_conn *cn = &s->conn;
	struct rb_res res = { .qp = cn->qp, .nqp = cn->qp ? cn->nqp : 0 };
	uint64_t t0 = rb_now_ns();
	uint32_t i;

	if (!cn->qp || !cn->qp[0])
		return;
	rb_resources_close(&cn->dev, &res);
	for (i = 0; i < cn->nqp; i++)
		cn->qp[i] = NULL;
	if (s->rep.setup.on)
		s->rep.setup.destroy_ms = (double)(rb_now_ns() - t0) / 1e6;
}

/* --cq-per-qp: the QPs, then their CQs; the rest as without. */
static void close_cqs(struct session *s)
{
	struct rb_conn *cn = &s->conn;
	struct rb_res res = { .qp = cn->qp, .nqp = cn->qp ? cn->nqp : 0 };
	uint32_t i;

	if (!cn->cqs)
		return;
	rb_resources_close(&cn->dev, &res);
	for (i = 0; cn->qp && i < cn->nqp; i++)
		cn->qp[i] = NULL;
	for (i = 0; i < cn->nqp; i++) {
		res = (struct rb_res){ .cq = cn->cqs[i] };
		rb_resources_close(&cn->dev, &res);
	}
	free(cn->cqs);
	cn->cqs = NULL;
	cn->cq = NULL;
}

void sess_close_resources(struct session *s)
{
	struct rb_conn *cn = &s->conn;
	/* Lists never made (a failed open) hold nothing to destroy. */
	struct rb_res res = { cn->qp, cn->qp ? cn->nqp : 0, cn->srq,	cn->cq,
			      cn->mr, cn->mr ? cn->nmr : 0, cn->channel };
	uint32_t i;

	rb_probe_close(&s->probe);
	rb_run_close(s->run); /* its events acked before the CQs go */
	for (i = 0; cn->ah && i < cn->nqp; i++)
		rb_ah_destroy(&cn->dev, cn->ah[i]);
	close_cqs(s);
	res.cq = cn->cq;
	rb_resources_close(&cn->dev, &res);
	if (s->dc_srq && ibv_destroy_srq(s->dc_srq))
		rb_warn("%s: ibv_destroy_srq (the DC targets'): %m", cn->dev.name);
	s->dc_srq = NULL;
	free(s->peers);
	s->peers = NULL;
	if (cn->gpu)
		rb_cuda_free(&s->gpu_buf);
	else if (cn->buf)
		rb_place_free(cn->buf, s->buf_len);
	cn->buf = NULL;
	cn->gpu = NULL;
	free(cn->scratch);
	cn->scratch = NULL;
	rb_dev_close(&cn->dev);
	rb_conn_lists_free(cn);
}

const struct sess_path sess_path_verbs = {
	.open = sess_open_resources,
	.connect = sess_exchange_conn,
	.close = sess_close_resources,
	.drop_qps = drop_qps,
};
