// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/opts_perftest.h"
#include "core/shape.h"

#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

#define IGN(l, s, a, why)                                                            \
	{                                                                            \
		.lname = l, .sname = s, .arg = a, .kind = RB_PT_IGNORED, .says = why \
	}
#define NO(l, s, a, why)                                                             \
	{                                                                            \
		.lname = l, .sname = s, .arg = a, .kind = RB_PT_REFUSED, .says = why \
	}
#define MAP(l, s, a, row, val, why)                                                              \
	{                                                                                        \
		.lname = l, .sname = s, .arg = a, .kind = RB_PT_MAPPED, .to = row, .value = val, \
		.says = why                                                                      \
	}
#define LATE(l, s, a, bit, why)                                                                  \
	{                                                                                        \
		.lname = l, .sname = s, .arg = a, .kind = RB_PT_MAPPED, .late = bit, .says = why \
	}

/* Reasons shared by whole families of perftest's flags. */
#define RAW                                                                                      \
	"raw Ethernet tests (raw_ethernet_*) are not part of rdmabench, whose tests run on RC, " \
	"UC or UD QPs"
#define ACCEL                                                                                \
	"this accelerator's memory is not supported: buffers are host memory (--hugepages, " \
	"--numa) or CUDA's (--use-cuda)"
#define CRYPTO "mlx5 crypto and signature offload are not supported"
#define DCSRD  "DC and SRD transports are not supported (-c RC|UC|UD)"
#define MLX5   "a vendor-specific QP or memory attribute rdmabench does not set"
#define NOTYET "not built yet"

const struct rb_pt_flag rb_pt_flags[] = {
	/* accepted: they cannot change a figure here */
	IGN("cpu_util", 0, false,
	    "the CPU use of both sides is always measured (cpu_util_pct, peer_cpu_util_pct)"),
	IGN("report-both", 0, false, "-b always reports each direction and their sum"),
	IGN("noPeak", 'N', false,
	    "bw_peak is always rdmabench's own: the best window of 64 completion marks, "
	    "not perftest's peak"),
	IGN("perform_warm_up", 0, false, "every point is warmed up (--warmup, default auto)"),
	IGN("dont_xchg_versions", 0, false,
	    "both sides are rdmabench, which always checks the peer's protocol version"),
	IGN("ipv6-addr", 0, false,
	    "the out-of-band connection takes the address family of the host given (or of --bind)"),
	/* done with rdmabench's own options */
	IGN("data_validation_debug", 0, false,
	    "with --data_validation (--verify) a mismatch always names size, offset and "
	    "iteration; alone it checks nothing, as perftest's"),
	IGN("disable_dynamic_polling", 0, false,
	    "the completions reaped per ibv_poll_cq are fixed (--cqe-poll, default 32) and never "
	    "adapted during a run, which is what this flag asks of perftest"),
	{ .lname = "disable_numa",
	  .kind = RB_PT_MAPPED,
	  .to = RB_O_CPU,
	  .value = "none",
	  .to2 = RB_O_NUMA,
	  .value2 = "none",
	  .says = "--cpu none --numa none" },
	LATE("run_infinitely", 0, false, RB_PT_RUN_INF,
	     "-D 0 --interval SEC: one point until SIGINT/SIGTERM, a row every SEC (perftest's -D, "
	     "default 5); perftest's report prints each as perftest's line, BW peak 0"),
	LATE("server", 'Z', false, RB_PT_SERVER, "no host argument (or rdmabench server)"),
	LATE("client", 'P', false, RB_PT_CLIENT, "a host argument"),
	LATE("rate_units", 0, true, RB_PT_RATE_UNIT,
	     "the unit written into --rate: g is Gbps, p is pps; M (MB/s) is refused"),
	LATE("limit_bw", 'w', true, RB_PT_LIMIT_BW,
	     "--expect bw>=VALUE in MiB/s (Gb/s with --report_gbits), exit 3 below it"),
	LATE("limit_msgrate", 'y', true, RB_PT_LIMIT_RATE,
	     "--expect rate>=VALUEMpps, exit 3 below it"),
	/* .value alone: accepted with that argument only */
	{ .lname = "rate_limit_type",
	  .arg = true,
	  .kind = RB_PT_MAPPED,
	  .value = "SW",
	  .says = "SW only: --rate paces in software (no HW or PP rate limiting)" },
	/* refused, naming the way here where there is one */
	NO("margin", 'f', true,
	   "--warmup N (unmeasured iterations before each point); with -D all of it is measured"),
	MAP("comm_rdma_cm", 'z', false, RB_O_RDMA_CM, NULL,
	    "-R/--rdma_cm: the QPs connected through librdmacm; the exchange of parameters and "
	    "results stays on rdmabench's TCP connection (with -R too)"),
	NO("dlid", 0, true, "the peer's LID comes over the out-of-band exchange"),
	NO("force-link", 0, true, "the link layer is the port's own (ibv_query_port)"),
	NO("mcg", 'g', false, "UD multicast is not supported"),
	NO("MGID", 'M', true, "UD multicast is not supported"),
	NO("report-per-port", 0, false, "one port a run: run -i 1 and -i 2"),
	NO("payload_file_path", 0, true, "the payload is rdmabench's pattern (--verify checks it)"),
	NO("mmap", 0, true, "buffers are rdmabench's own (--hugepages, --numa)"),
	NO("mmap-offset", 0, true, "buffers are rdmabench's own (--hugepages, --numa)"),
	NO("use-null-mr", 0, false, "every buffer is registered memory"),
	NO("no_lock", 0, false, "thread domains are not used"),
	NO("wait_destroy", 0, true, "resources are destroyed as soon as the test ends"),
	NO("use_ooo", 0, false, MLX5),
	NO("no_enhanced_reorder", 0, false, MLX5),
	NO("congest_type", 0, true, MLX5),
	NO("tph_mem", 0, true, MLX5),
	NO("cpu_id", 0, true, MLX5),
	NO("ph", 0, true, MLX5),
	NO("log_dci_streams", 0, true, DCSRD),
	NO("log_active_dci_streams", 0, true, DCSRD),
	NO("connectionless", 0, false,
	   "a connectionless server serves perftest's UD multicast bandwidth tests "
	   "(--mcg --run_infinitely), and UD multicast is not supported"),
	NO("unsolicited_write", 0, false, DCSRD),
	NO("aes_xts", 0, false, CRYPTO),
	NO("encrypt_on_tx", 0, false, CRYPTO),
	NO("sig_before", 0, false, CRYPTO),
	NO("sig_offload", 0, false, CRYPTO),
	NO("aes_block_size", 0, true, CRYPTO),
	NO("kek_path", 0, true, CRYPTO),
	NO("credentials_path", 0, true, CRYPTO),
	NO("data_enc_keys_number", 0, true, CRYPTO),
	NO("data_enc_key_app_path", 0, true, CRYPTO),
	MAP("use_cuda_bus_id", 0, true, RB_O_USE_CUDA, NULL,
	    "--use-cuda BDF: the GPU at that PCI address (any order with --use_cuda_dmabuf)"),
	MAP("use_cuda_dmabuf", 0, false, RB_O_CUDA_REG, "dmabuf",
	    "--cuda-reg dmabuf: dmabuf or fail (rdmabench's default, auto, falls back to "
	    "nvidia-peermem); alone, the GPU nearest the HCA"),
	NO("use_cuda_pcie_mapping", 0, false,
	   "GPU memory is reached by dmabuf or nvidia-peermem (--cuda-reg), not a PCIe BAR "
	   "mapping"),
	NO("cuda_mem_type", 0, true, "--cuda-mem device|managed|host-pinned"),
	NO("use_data_direct", 0, false, ACCEL),
	NO("use_musa", 0, true, ACCEL),
	NO("use_musa_bus_id", 0, true, ACCEL),
	NO("use_musa_dmabuf", 0, false, ACCEL),
	NO("use_musa_pcie_mapping", 0, false, ACCEL),
	NO("use_rocm", 0, true, ACCEL),
	NO("use_rocm_dmabuf", 0, false, ACCEL),
	NO("use_neuron", 0, true, ACCEL),
	NO("use_neuron_dmabuf", 0, false, ACCEL),
	NO("use_hl", 0, true, ACCEL),
	NO("use_mlu", 0, true, ACCEL),
	NO("use_mlu_dmabuf", 0, false, ACCEL),
	NO("use_opencl", 0, true, ACCEL),
	NO("opencl_platform_id", 0, true, ACCEL),
	NO("use_ib_dm_dmabuf", 0, true, ACCEL),
	NO("gpu_touch", 0, true, ACCEL),
	NO("source_mac", 'B', true, RAW),
	NO("dest_mac", 'E', true, RAW),
	NO("dest_ip", 'J', true, RAW),
	NO("source_ip", 'j', true, RAW),
	NO("dest_port", 'K', true, RAW),
	NO("source_port", 'k', true, RAW),
	NO("ethertype", 0, true, RAW),
	NO("mac_fwd", 0, false, RAW " (-v is --verbose here)"),
	NO("use_rss", 0, false, RAW),
	NO("remote_mac", 0, true, RAW),
	NO("local_mac", 0, true, RAW),
	NO("remote_ip", 0, true, RAW),
	NO("local_ip", 0, true, RAW),
	NO("remote_port", 0, true, RAW),
	NO("local_port", 0, true, RAW),
	NO("tcp", 0, false, RAW),
	NO("raw_ipv6", 0, false, RAW),
	NO("promiscuous", 0, false, RAW),
	NO("sniffer", 0, false, RAW),
	NO("raw_mcast", 0, false, RAW),
	NO("flows", 0, true, RAW),
	NO("flows_burst", 0, true, RAW),
	NO("reply_every", 0, true, RAW),
	NO("vlan_en", 0, false, RAW),
	NO("vlan_pcp", 0, true, RAW),
	NO("burst_size", 0, true, "software pacing only (--rate): no burst size"),
	NO("typical_pkt_size", 0, true, "software pacing only (--rate): no packet size"),
};

const size_t rb_npt_flags = sizeof(rb_pt_flags) / sizeof(rb_pt_flags[0]);

const struct rb_pt_flag *rb_pt_find(const char *lname, int ch)
{
	size_t i;

	for (i = 0; i < rb_npt_flags; i++)
		if (lname ? !strcmp(rb_pt_flags[i].lname, lname) : rb_pt_flags[i].sname == ch)
			return &rb_pt_flags[i];
	return NULL;
}

/* "-F/--CPU-freq" or "--cpu_util": how messages name perftest's flag. */
static const char *pt_name(const struct rb_pt_flag *f, char *buf, size_t len)
{
	if (f->sname)
		snprintf(buf, len, "-%c/--%s", f->sname, f->lname);
	else
		snprintf(buf, len, "--%s", f->lname);
	return buf;
}

static int take_row(struct rb_cli *c, enum rb_opt_id to, const char *arg, const char *cmd,
		    unsigned int scope, char *err, size_t len)
{
	return rb_cli_take(c, rb_opt_index_of(to), cmd, scope, arg, err, len);
}

/* A value kept for rb_pt_finish(), which knows the whole command line. */
static int keep(char *dst, size_t size, const struct rb_pt_flag *f, const char *arg, char *err,
		size_t len)
{
	char n[48];

	if (strlen(arg) >= size)
		return fail(err, len, "perftest's %s '%s' is too long", pt_name(f, n, sizeof(n)),
			    arg);
	strcpy(dst, arg);
	return 0;
}

static int take_late(struct rb_cli *c, const struct rb_pt_flag *f, const char *arg, char *err,
		     size_t len)
{
	struct rb_pt_late *pt = &c->pt;

	pt->bits |= f->late;
	if (f->late == RB_PT_RATE_UNIT)
		return keep(pt->rate_unit, sizeof(pt->rate_unit), f, arg, err, len);
	if (f->late == RB_PT_LIMIT_BW)
		return keep(pt->limit_bw, sizeof(pt->limit_bw), f, arg, err, len);
	if (f->late == RB_PT_LIMIT_RATE)
		return keep(pt->limit_rate, sizeof(pt->limit_rate), f, arg, err, len);
	return 0;
}

/* Say a flag taken with no effect in the list --dry-run prints (cut when full). */
static void ignored(struct rb_cli *c, const struct rb_pt_flag *f)
{
	size_t used = strlen(c->pt.ignored);
	char n[48];

	snprintf(c->pt.ignored + used, sizeof(c->pt.ignored) - used, "%s%s", used ? ", " : "",
		 pt_name(f, n, sizeof(n)));
}

int rb_pt_take(struct rb_cli *c, const struct rb_pt_flag *f, const char *arg, const char *cmd,
	       unsigned int scope, char *err, size_t len)
{
	char n[48];
	int ret;

	switch (f->kind) {
	case RB_PT_IGNORED:
		ignored(c, f);
		return 0;
	case RB_PT_REFUSED:
		return fail(err, len, "perftest's %s: %s", pt_name(f, n, sizeof(n)), f->says);
	case RB_PT_MAPPED:
		break;
	}
	if (f->late)
		return take_late(c, f, arg, err, len);
	if (!f->to) /* accepted with one value only */
		return arg && !strcasecmp(arg, f->value)
			       ? 0
			       : fail(err, len, "perftest's %s %s: %s", pt_name(f, n, sizeof(n)),
				      arg, f->says);
	ret = take_row(c, f->to, f->value ? f->value : arg, cmd, scope, err, len);
	if (!ret && f->to2)
		ret = take_row(c, f->to2, f->value2, cmd, scope, err, len);
	return ret;
}

/* --run_infinitely [-D SEC]: -D 0 --interval SEC. */
static int run_infinitely(struct rb_cli *c, const char *cmd, unsigned int scope, char *err,
			  size_t len)
{
	char sec[16];

	if (!(scope & RB_S_BW))
		return fail(err, len,
			    "perftest's --run_infinitely is for bandwidth tests "
			    "(-D 0 runs any test until SIGINT)");
	if (rb_cli_given(c, RB_O_INTERVAL))
		return fail(err, len,
			    "--run_infinitely and --interval exclude each other "
			    "(--run_infinitely is -D 0 --interval SEC)");
	snprintf(sec, sizeof(sec), "%u", rb_cli_given(c, RB_O_DURATION) ? c->p.duration_s : 5);
	if (!strcmp(sec, "0"))
		return fail(err, len, "--run_infinitely -D 0: give -D SEC, the report interval");
	c->p.duration_s = 0;
	c->given[rb_opt_index_of(RB_O_DURATION)] = 1;
	return take_row(c, RB_O_INTERVAL, sec, cmd, scope, err, len);
}

/* --rate_units g|p with --rate_limit N: the unit written after N. */
static int rate_unit(struct rb_cli *c, char *err, size_t len)
{
	const char *u = c->pt.rate_unit, *unit;
	size_t l = strlen(c->rate_arg);

	if (!strcmp(u, "g"))
		unit = "Gbps";
	else if (!strcmp(u, "p"))
		unit = "pps";
	else if (!strcmp(u, "M"))
		return fail(err, len,
			    "--rate_units M (MB/s): --rate takes Gbps, Mbps or pps "
			    "(8 Mbps is 1 MB/s)");
	else
		return fail(err, len, "--rate_units '%s' is not g, p or M", u);
	if (!rb_cli_given(c, RB_O_RATE))
		return fail(err, len, "--rate_units needs --rate_limit (--rate)");
	if (strspn(c->rate_arg, "0123456789.") != l)
		return fail(err, len, "--rate_units with --rate %s, which has a unit", c->rate_arg);
	if (l + strlen(unit) >= sizeof(c->rate_arg))
		return fail(err, len, "--rate %s is too long", c->rate_arg);
	strcat(c->rate_arg, unit);
	return 0;
}

/* -w/-y: perftest's pass/fail limits, as --expect expressions. */
static int limit(struct rb_cli *c, const char *what, const char *v, const char *unit,
		 const char *cmd, unsigned int scope, char *err, size_t len)
{
	char e[RB_LIST_TEXT], *end;

	if (strtod(v, &end) < 0 || end == v || *end)
		return fail(err, len, "perftest's limit '%s' is not a number", v);
	snprintf(e, sizeof(e), "%s>=%s%s", what, v, unit);
	return take_row(c, RB_O_EXPECT, e, cmd, scope, err, len);
}

/* --output=bandwidth|message_rate|latency: that number alone, as perftest's. */
static int output_only(struct rb_cli *c, unsigned int scope, char *err, size_t len)
{
	(void)scope; /* which figure a test has: rb_cli_finish() */
	if (rb_cli_given(c, RB_O_FORMAT))
		return fail(err, len, "--output and --format exclude each other");
	c->l.format = RB_FMT_VALUE;
	return 0;
}

/* perftest's switches that write another row's value as a flag does. */
_Static_assert(RB_UNITS_GBITS == 1, "--report_gbits sets --units to Gb/s as a flag");
_Static_assert(RB_POST_POST == 1, "--use_old_post_send sets --post-api post as a flag");

int rb_pt_finish(struct rb_cli *c, const char *cmd, unsigned int scope, char *err, size_t len)
{
	unsigned int b = c->pt.bits;
	int ret = 0;

	if (rb_cli_given(c, RB_O_UNITS) && rb_cli_given(c, RB_O_REPORT_GBITS))
		return fail(err, len, "--units and --report_gbits exclude each other");
	if (rb_cli_given(c, RB_O_POST_API) && rb_cli_given(c, RB_O_USE_OLD_POST_SEND))
		return fail(err, len, "--post-api and --use_old_post_send exclude each other");
	if (c->l.out_json && !c->l.json_path[0])
		strcpy(c->l.json_path, RB_OUT_JSON_DEFAULT);
	if (rb_cli_given(c, RB_O_OUTPUT)) {
		ret = output_only(c, scope, err, len);
		if (ret)
			return ret;
	}
	if (c->l.unsorted && !c->l.samples_path[0])
		strcpy(c->l.samples_path, RB_SAMPLES_DEFAULT);
	if ((b & RB_PT_SERVER) && c->l.host)
		return fail(err, len, "perftest's -Z/--server with a host ('%s')", c->l.host);
	if ((b & RB_PT_CLIENT) && !c->l.host && (scope & RB_S_TEST))
		return fail(err, len, "perftest's -P/--client needs the server's host");
	if (b & RB_PT_RUN_INF)
		ret = run_infinitely(c, cmd, scope, err, len);
	if (!ret && (b & RB_PT_RATE_UNIT))
		ret = rate_unit(c, err, len);
	if (!ret && (b & RB_PT_LIMIT_BW))
		ret = limit(c, "bw", c->pt.limit_bw,
			    c->l.units == RB_UNITS_GBITS ? "Gbps" : "MiB/s", cmd, scope, err, len);
	if (!ret && (b & RB_PT_LIMIT_RATE))
		ret = limit(c, "rate", c->pt.limit_rate, "Mpps", cmd, scope, err, len);
	/* The table's default is Gb/s; perftest's report keeps its MB/sec. */
	if (!rb_cli_given(c, RB_O_UNITS) && !rb_cli_given(c, RB_O_REPORT_GBITS))
		c->l.units = c->perftest_only || c->l.format == RB_FMT_PERFTEST ? RB_UNITS_MIBS
										: RB_UNITS_GBITS;
	return ret;
}

/*
 * Under perftest's name -n counts each QP: perftest posts iters on every
 * QP (tot_iters = iters * num_of_qps in its run_iter_bw(), and
 * print_report_bw() prints num_of_calculated_iters * num_of_qps), so
 * `ib_write_bw -q 4 -n 5000` posts and prints 20000; its default (5000)
 * too.  rdmabench's own -n is the point's, over all of its QPs, so that
 * the points of a -q sweep move as many messages each.
 */
int rb_pt_iters(struct rb_cli *c, char *err, size_t len)
{
	const uint64_t max = rb_opts[rb_opt_index_of(RB_O_ITERS)].max;
	const struct rb_axis *q = &c->p.qps;

	if (!c->perftest_only || !c->p.iters || q->n == 0 || (q->n == 1 && q->v[0] == 1))
		return 0;
	if (q->n > 1)
		return fail(err, len,
			    "-q with %u counts: under perftest's name -n counts each QP "
			    "(perftest's iters * num_of_qps), so -q takes one count here; "
			    "rdmabench %s sweeps -q with -n the point's, all QPs together",
			    q->n, c->p.test);
	if (c->p.iters > max / q->v[0])
		return fail(err, len,
			    "-n %llu a QP times -q %llu is over %llu iterations (under perftest's "
			    "name -n counts each QP)",
			    (unsigned long long)c->p.iters, (unsigned long long)q->v[0],
			    (unsigned long long)max);
	c->p.iters *= q->v[0];
	return 0;
}

static void man_row(FILE *f, const char *pt, const char *ours, const char *alias, const char *diff)
{
	fputs("T{\n", f);
	rb_man_text(f, pt);
	fputs("\nT}|T{\n", f);
	rb_man_text(f, ours);
	if (alias) {
		fputs(" (also \\-\\-", f);
		rb_man_text(f, alias);
		fputc(')', f);
	}
	fputs("\nT}|T{\n", f);
	rb_man_text(f, diff);
	fputs("\nT}\n", f);
}

static const char *const kind_word[] = {
	[RB_PT_IGNORED] = "accepted, no effect",
	[RB_PT_MAPPED] = "translated",
	[RB_PT_REFUSED] = "refused (exit 2)",
};

/*
 * A tbl(1) table: perftest's flag, ours, and what differs; first the rows
 * of rb_opts[] with a perftest spelling, then every other perftest flag.
 */
void rb_man_perftest(FILE *f)
{
	char n[48];
	size_t i;

	fputs(".na\n.TS\nallbox tab(|);\nlb lb lb\nlw(26n) lw(19n) "
	      "lx.\nperftest|rdmabench|difference\n",
	      f);
	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];

		if (o->perftest)
			man_row(f, o->perftest, rb_opt_name(o, n, sizeof(n)), o->alias,
				o->pt_diff ? o->pt_diff : "none");
	}
	for (i = 0; i < rb_npt_flags; i++) {
		const struct rb_pt_flag *p = &rb_pt_flags[i];

		man_row(f, pt_name(p, n, sizeof(n)), kind_word[p->kind], NULL, p->says);
	}
	fputs(".TE\n.ad\n", f);
}
