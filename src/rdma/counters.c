// SPDX-License-Identifier: MIT
/*
 * Device counters: reading sysfs (the only I/O here), the per-driver
 * defaults, --counters, deltas and what is derived from them.  The wire
 * form is in counters_wire.c.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma/counters.h"
#include "core/csv.h"
#include "core/rdmabench.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- what each counter is ---------------------------------------------- */

static const char *const traffic_names[] = {
	"port_xmit_data",
	"port_rcv_data",
	"port_xmit_packets",
	"port_rcv_packets",
	"unicast_xmit_packets",
	"unicast_rcv_packets",
	"multicast_xmit_packets",
	"multicast_rcv_packets",
	"sent_pkts",
	"rcvd_pkts",
	"rdma_sends",
	"rdma_recvs",
	"rx_write_requests",
	"rx_read_requests",
	"rx_atomic_requests",
	"netdev_tx_bytes",
	"netdev_rx_bytes",
	"netdev_tx_packets",
	"netdev_rx_packets",
	NULL,
};

/*
 * Looked for in names the tables do not know, in this order ("_err", not
 * "err": rxe's ack_deferred is no error).
 */
static const char *const congestion_words[] = { "cnp",	 "ecn",		 "xmit_wait",
						"pause", "slow_restart", NULL };
static const char *const error_words[] = { "_err",    "drop",	   "discard", "timeout",
					   "out_of_", "duplicate", "downed",  "integrity",
					   "overrun", "symbol",	   "retr",    "flush",
					   "invalid", "violation", NULL };

/* The netdev statistics read for RoCE ports (statistics/ has more). */
static const char *const netdev_stats[] = { "tx_bytes",	     "rx_bytes",   "tx_packets",
					    "rx_packets",    "tx_dropped", "rx_dropped",
					    "tx_errors",     "rx_errors",  "rx_missed_errors",
					    "rx_crc_errors", NULL };

static bool in_list(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

static bool has_word(const char *const *words, const char *name)
{
	for (; *words; words++)
		if (strstr(name, *words))
			return true;
	return false;
}

enum rb_ctr_kind rb_counters_kind(const char *name)
{
	if (has_word(congestion_words, name))
		return RB_CTR_CONGESTION;
	if (in_list(traffic_names, name))
		return RB_CTR_TRAFFIC;
	if (has_word(error_words, name))
		return RB_CTR_ERROR;
	return RB_CTR_OTHER;
}

const char *rb_counters_kind_name(enum rb_ctr_kind k)
{
	static const char *const names[] = { "other", "traffic", "error", "congestion" };

	return (unsigned int)k < NELEM(names) ? names[k] : "other";
}

const char *rb_counters_driver_name(enum rb_prov_id d)
{
	return rb_prov_get(d)->name;
}

bool rb_counters_netdev_rdma(enum rb_prov_id d)
{
	/* The provider table's fact: rxe and siw send through the netdev. */
	return rb_prov_get(d)->netdev_carries_rdma;
}

const char *const *rb_counters_defaults(enum rb_prov_id d)
{
	return rb_prov_get(d)->ctr_defaults;
}

const char *const *rb_counters_retrans(enum rb_prov_id d)
{
	return rb_prov_get(d)->ctr_retrans;
}

const struct rb_counter *rb_counters_find(const struct rb_counter_set *s, const char *name)
{
	uint32_t i;

	for (i = 0; i < s->n && i < RB_CTR_MAX; i++)
		if (!strcmp(s->c[i].name, name))
			return &s->c[i];
	return NULL;
}

/* ---- reading sysfs ------------------------------------------------------ */

/* A name, not a path: "-d ../x" must not wander around sysfs. */
static bool plain_name(const char *s)
{
	return s && s[0] && strlen(s) < 64 && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

/* A path into @buf; -ENAMETOOLONG rather than a cut one. */
__attribute__((format(printf, 3, 4))) static int pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* A sysfs counter: decimal digits and a newline, nothing else. */
static int read_u64(const char *path, uint64_t *v)
{
	char buf[32], *end;
	unsigned long long x;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n ? -EIO : -ENODATA;
	buf[n] = '\0';
	if (!isdigit((unsigned char)buf[0]))
		return -EINVAL;
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || (*end && strcmp(end, "\n")))
		return -EINVAL;
	*v = x;
	return 0;
}

static void add(struct rb_counter_set *s, const char *name, uint64_t v, enum rb_ctr_src src)
{
	struct rb_counter *c;
	size_t len = strlen(name);

	if (s->n >= RB_CTR_MAX)
		return;
	c = &s->c[s->n++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->value = v;
	c->src = (uint8_t)src;
	c->kind = (uint8_t)rb_counters_kind(name);
	/* The IB PMA counts data in 4-byte words. */
	c->scale = src == RB_CTR_SRC_PORT && len > 5 && !strcmp(name + len - 5, "_data") ? 4 : 1;
	c->flags = 0;
}

static int not_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/*
 * One counter file.  A hw counter named like a port counter gets "hw_";
 * "lifespan" is a setting (how long the kernel caches hw counters, in
 * ms), no counter.
 */
static void read_one(struct rb_counter_set *s, const char *dir, const char *name,
		     enum rb_ctr_src src)
{
	char path[PATH_MAX], full[RB_CTR_NAME_MAX + 8];
	uint64_t v;

	if (pathf(path, sizeof(path), "%s/%s", dir, name) || read_u64(path, &v))
		return;
	if (src == RB_CTR_SRC_HW && !strcmp(name, "lifespan")) {
		s->lifespan_ms = v > INT_MAX ? INT_MAX : (int)v;
		return;
	}
	snprintf(full, sizeof(full), "%s%s",
		 src == RB_CTR_SRC_HW && rb_counters_find(s, name) ? "hw_" : "", name);
	if (strlen(full) < RB_CTR_NAME_MAX)
		add(s, full, v, src);
}

/* Every counter file of @dir, sorted by name; a missing directory is none. */
static void read_dir(struct rb_counter_set *s, const char *dir, enum rb_ctr_src src)
{
	struct dirent **names;
	int i, n = scandir(dir, &names, not_dot, alphasort);

	for (i = 0; i < n; i++) {
		read_one(s, dir, names[i]->d_name, src);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static void read_netdev(struct rb_counter_set *s, const char *sysroot, const char *netdev)
{
	char dir[PATH_MAX], path[PATH_MAX], name[RB_CTR_NAME_MAX];
	const char *const *st;
	uint64_t v;

	if (pathf(dir, sizeof(dir), "%s/class/net/%s/statistics", sysroot, netdev))
		return;
	for (st = netdev_stats; *st; st++) {
		snprintf(name, sizeof(name), "netdev_%s", *st);
		if (!pathf(path, sizeof(path), "%s/%s", dir, *st) && !read_u64(path, &v))
			add(s, name, v, RB_CTR_SRC_NETDEV);
	}
}

/* The PCI vendor id of the device's parent ("0x15b3\n"); 0 when none. */
static uint32_t read_vendor(const char *ibpath)
{
	char path[PATH_MAX], buf[16];
	ssize_t n;
	int fd;

	if (pathf(path, sizeof(path), "%s/device/vendor", ibpath))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return (uint32_t)strtoul(buf, NULL, 16);
}

/*
 * The provider (core/provider.h): by the device's driver link
 * (mlx5_core), its name (a virtual device such as rxe has no driver
 * link) or its PCI vendor, else by what it counts (an rxe device renamed
 * at "rdma link add").
 */
static enum rb_prov_id detect_driver(const char *ibpath, const char *dev,
				     const struct rb_counter_set *s)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *base = NULL;
	const struct rb_provider *p;
	ssize_t n;

	n = pathf(link, sizeof(link), "%s/device/driver", ibpath)
		    ? -1
		    : readlink(link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
	}
	p = rb_prov_identify(base, dev, read_vendor(ibpath));
	if (p->id != RB_PROV_GENERIC)
		return p->id;
	if (rb_counters_find(s, "sent_pkts") && rb_counters_find(s, "completer_retry_err"))
		return RB_PROV_RXE;
	return RB_PROV_GENERIC;
}

/* The provider's own error counters, whatever their names' words say. */
static void mark_errors(struct rb_counter_set *s)
{
	const struct rb_provider *p = rb_prov_get(s->driver);
	uint32_t i;

	for (i = 0; i < s->n; i++)
		if (rb_prov_counter_kind(p, s->c[i].name) == 1)
			s->c[i].kind = RB_CTR_ERROR;
}

int rb_counters_read(const char *sysroot, const char *dev, int port, const char *netdev,
		     struct rb_counter_set *out)
{
	char ibpath[PATH_MAX], dir[PATH_MAX];

	memset(out, 0, offsetof(struct rb_counter_set, c));
	if (!plain_name(dev) || port < 1 || port > 255 ||
	    (netdev && netdev[0] && !plain_name(netdev)))
		return -EINVAL;
	snprintf(out->device, sizeof(out->device), "%s", dev);
	out->port = port;
	if (pathf(ibpath, sizeof(ibpath), "%s/class/infiniband/%s", sysroot, dev) ||
	    pathf(dir, sizeof(dir), "%s/ports/%d", ibpath, port))
		return -ENAMETOOLONG;
	if (access(ibpath, F_OK) || access(dir, F_OK))
		return -ENOENT;
	if (!pathf(dir, sizeof(dir), "%s/ports/%d/counters", ibpath, port))
		read_dir(out, dir, RB_CTR_SRC_PORT);
	if (!pathf(dir, sizeof(dir), "%s/ports/%d/hw_counters", ibpath, port))
		read_dir(out, dir, RB_CTR_SRC_HW);
	if (netdev && netdev[0])
		read_netdev(out, sysroot, netdev);
	out->driver = (uint8_t)detect_driver(ibpath, dev, out);
	mark_errors(out);
	out->netdev_rdma = rb_counters_netdev_rdma(out->driver);
	return 0;
}

int rb_port_rate_gbps(const char *sysroot, const char *dev, int port, double *gbps)
{
	char path[PATH_MAX], buf[64], *end;
	ssize_t n;
	int fd;

	if (!plain_name(dev) || port < 1 || port > 255)
		return -EINVAL;
	if (pathf(path, sizeof(path), "%s/class/infiniband/%s/ports/%d/rate", sysroot, dev, port))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	/* "100 Gb/sec (2X HDR)", "2.5 Gb/sec (1X SDR)": Gb/s first. */
	*gbps = strtod(buf, &end);
	if (end == buf || strncmp(end, " Gb/sec", 7) || !isfinite(*gbps) || *gbps <= 0)
		return -EINVAL;
	return 0;
}

/* ---- --counters ---------------------------------------------------------- */

#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

static bool name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '-' || ch == '.';
}

static bool spec_has(const struct rb_counter_spec *spec, const char *name)
{
	uint32_t i;

	for (i = 0; i < spec->n; i++)
		if (!strcmp(spec->names[i], name))
			return true;
	return false;
}

/* One item of a list, @n bytes at @at (1-based @pos in the argument). */
static int spec_item(struct rb_counter_spec *spec, const char *at, size_t n, size_t pos,
		     const char *arg, char *err, size_t len)
{
	static const char *const dirs[] = { "counters/", "hw_counters/" };
	char name[RB_CTR_NAME_MAX];
	size_t i, d;

	/* perftest's -W counters/NAME, hw_counters/NAME: the port's sysfs dirs, both read */
	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		size_t l = strlen(dirs[d]);

		if (n > l && !strncmp(at, dirs[d], l)) {
			at += l;
			n -= l;
			pos += l;
			break;
		}
	}
	if (!n)
		return fail(err, len, "--counters '%s': at %zu: empty name", arg, pos);
	if (n >= RB_CTR_NAME_MAX)
		return fail(err, len, "--counters '%s': at %zu: name longer than %d characters",
			    arg, pos, RB_CTR_NAME_MAX - 1);
	for (i = 0; i < n; i++)
		if (!name_char(at[i]))
			return fail(err, len,
				    "--counters '%s': at %zu: '%c' cannot be in a counter name",
				    arg, pos + i, isprint((unsigned char)at[i]) ? at[i] : '?');
	memcpy(name, at, n);
	name[n] = '\0';
	if (!strcmp(name, "all") || !strcmp(name, "none"))
		return fail(err, len, "--counters '%s': at %zu: %s stands alone, not in a list",
			    arg, pos, name);
	if (!strcmp(name, "default")) {
		spec->with_default = true;
		return 0;
	}
	if (spec_has(spec, name))
		return 0;
	if (spec->n >= RB_CTR_LIST_MAX)
		return fail(err, len, "--counters: more than %d names", RB_CTR_LIST_MAX);
	memcpy(spec->names[spec->n++], name, n + 1);
	return 0;
}

int rb_counters_spec_parse(const char *arg, struct rb_counter_spec *spec, char *err, size_t len)
{
	const char *p, *comma;
	int ret;

	memset(spec, 0, sizeof(*spec));
	if (!arg || !arg[0])
		return fail(err, len, "--counters: empty; give none, default, all or names");
	if (strlen(arg) >= RB_CTR_SPEC_MAX)
		return fail(err, len, "--counters: longer than %d characters", RB_CTR_SPEC_MAX - 1);
	if (!strcmp(arg, "none") || !strcmp(arg, "default") || !strcmp(arg, "all")) {
		spec->mode = arg[0] == 'n'   ? RB_CTRS_NONE
			     : arg[0] == 'd' ? RB_CTRS_DEFAULT
					     : RB_CTRS_ALL;
		return 0;
	}
	spec->mode = RB_CTRS_LIST;
	for (p = arg;; p = comma + 1) {
		comma = strchr(p, ',');
		ret = spec_item(spec, p, comma ? (size_t)(comma - p) : strlen(p),
				(size_t)(p - arg) + 1, arg, err, len);
		if (ret || !comma)
			return ret;
	}
}

/* "a, b, c ..." of @s into @buf: what the device does have. */
static void avail_names(const struct rb_counter_set *s, char *buf, size_t len)
{
	size_t off = 0;
	uint32_t i;
	int n;

	buf[0] = '\0';
	for (i = 0; i < s->n; i++) {
		n = snprintf(buf + off, len - off, "%s%s", i ? ", " : "", s->c[i].name);
		if (n < 0 || (size_t)n >= len - off - 4) {
			snprintf(buf + off, len - off, " ...");
			return;
		}
		off += (size_t)n;
	}
}

int rb_counters_spec_check(const struct rb_counter_spec *spec, const struct rb_counter_set *avail,
			   char *err, size_t len)
{
	char have[256];
	uint32_t i;

	if (spec->mode != RB_CTRS_LIST)
		return 0;
	for (i = 0; i < spec->n; i++) {
		if (rb_counters_find(avail, spec->names[i]))
			continue;
		avail_names(avail, have, sizeof(have));
		return fail(err, len, "--counters: %s port %d has no counter \"%s\" (it has: %s)",
			    avail->device[0] ? avail->device : "the device", avail->port,
			    spec->names[i], avail->n ? have : "none");
	}
	return 0;
}

static bool chosen(const struct rb_counter_spec *spec, enum rb_prov_id d, const char *name)
{
	switch (spec->mode) {
	case RB_CTRS_ALL:
		return true;
	case RB_CTRS_DEFAULT:
		return in_list(rb_counters_defaults(d), name);
	case RB_CTRS_LIST:
		return spec_has(spec, name) ||
		       (spec->with_default && in_list(rb_counters_defaults(d), name));
	default:
		return false;
	}
}

void rb_counters_apply(const struct rb_counter_spec *spec, const struct rb_counter_set *in,
		       struct rb_counter_set *out)
{
	uint32_t i;

	memcpy(out, in, offsetof(struct rb_counter_set, c));
	out->n = 0;
	for (i = 0; i < in->n && i < RB_CTR_MAX; i++)
		if (chosen(spec, in->driver, in->c[i].name))
			out->c[out->n++] = in->c[i];
}

/* ---- deltas and what they say -------------------------------------------- */

static void delta_one(const struct rb_counter *b, const struct rb_counter *a, struct rb_counter *d)
{
	*d = *a;
	d->flags = 0;
	if (a->value >= b->value) {
		d->value = a->value - b->value;
	} else if (b->value <= UINT32_MAX) {
		d->value = a->value + ((uint64_t)UINT32_MAX + 1 - b->value);
		d->flags |= RB_CTRF_WRAPPED;
	} else {
		d->value = a->value - b->value; /* modulo 2^64 */
		d->flags |= RB_CTRF_WRAPPED;
	}
	if (a->src == RB_CTR_SRC_PORT && (a->value == UINT32_MAX || b->value == UINT32_MAX))
		d->flags |= RB_CTRF_SATURATED;
}

void rb_counters_delta(const struct rb_counter_set *before, const struct rb_counter_set *after,
		       struct rb_counter_set *delta)
{
	const struct rb_counter *b;
	uint32_t i;

	memcpy(delta, after, offsetof(struct rb_counter_set, c));
	delta->n = 0;
	for (i = 0; i < after->n && i < RB_CTR_MAX; i++) {
		/* Same place in both readings, in practice; else look it up. */
		b = i < before->n && !strcmp(before->c[i].name, after->c[i].name)
			    ? &before->c[i]
			    : rb_counters_find(before, after->c[i].name);
		if (b)
			delta_one(b, &after->c[i], &delta->c[delta->n++]);
	}
}

/* The sum of the counters of @names that @s has; false when it has none. */
static bool sum_of(const struct rb_counter_set *s, const char *const *names, uint64_t *sum)
{
	const struct rb_counter *c;
	bool found = false;

	*sum = 0;
	for (; *names; names++) {
		c = rb_counters_find(s, *names);
		if (c) {
			*sum += c->value;
			found = true;
		}
	}
	return found;
}

static const struct rb_counter *first_of(const struct rb_counter_set *s, const char *a,
					 const char *b)
{
	const struct rb_counter *c = rb_counters_find(s, a);

	return c ? c : rb_counters_find(s, b);
}

/*
 * @a, else @b where the provider's netdev statistics count its RDMA
 * traffic (rxe, siw: the kernel's stack carries it; mlx5 and the other
 * NICs bypass it, and their netdev counts only the rest).
 */
static const struct rb_counter *port_or_netdev(const struct rb_counter_set *s, const char *a,
					       const char *b)
{
	return rb_prov_get(s->driver)->netdev_carries_rdma ? first_of(s, a, b)
							   : rb_counters_find(s, a);
}

static void derive_wire(const struct rb_counter_set *d, uint64_t payload, bool rx,
			struct rb_counter_derived *out)
{
	/* The netdev's bytes are looked at everywhere, so that where they do not
	 * count the RDMA traffic the figure is null with that reason. */
	const struct rb_counter *c = rx ? first_of(d, "port_rcv_data", "netdev_rx_bytes")
					: first_of(d, "port_xmit_data", "netdev_tx_bytes");

	out->payload_bytes = (double)payload;
	if (!c || !c->value || !payload)
		return;
	out->wire_counter = c->name;
	if (c->src == RB_CTR_SRC_NETDEV && !d->netdev_rdma) {
		out->wire_unknown = "the port has no PMA byte counter, and this driver's netdev "
				    "statistics do not count its RDMA traffic (offloaded past "
				    "them): no wire figure";
		return;
	}
	if (c->flags & RB_CTRF_SATURATED) {
		out->wire_unknown = "the PMA byte counter stopped at 2^32-1 (32 bits): its delta "
				    "is a lower bound, no ratio";
		return;
	}
	out->has_wire = true;
	out->wire_bytes = (double)c->value * c->scale;
	out->wire_per_payload = out->wire_bytes / (double)payload;
}

static void derive_retrans(const struct rb_counter_set *d, struct rb_counter_derived *out)
{
	const struct rb_counter *pk;
	uint64_t retrans;

	pk = rb_prov_get(d->driver)->ctr_packets
		     ? rb_counters_find(d, rb_prov_get(d->driver)->ctr_packets)
		     : port_or_netdev(d, "port_xmit_packets", "netdev_tx_packets");
	if (!sum_of(d, rb_counters_retrans(d->driver), &retrans) || !pk || !pk->value)
		return;
	out->has_retrans = true;
	out->retrans = retrans;
	out->packets = pk->value;
	out->retrans_per_mpkt = (double)retrans * 1e6 / (double)pk->value;
}

void rb_counters_derive(const struct rb_counter_set *delta, uint64_t payload_bytes, bool payload_rx,
			struct rb_counter_derived *out)
{
	memset(out, 0, sizeof(*out));
	derive_wire(delta, payload_bytes, payload_rx, out);
	derive_retrans(delta, out);
}

bool rb_counters_payload_rx(const struct rb_bench *b, bool server)
{
	if (b->payload_from_server)
		return !server;
	return b->mode == RB_MODE_BW && server;
}

size_t rb_counters_errors(const struct rb_counter_set *delta, char *buf, size_t len)
{
	size_t off = 0, moved = 0;
	uint32_t i;
	int n;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < delta->n && i < RB_CTR_MAX; i++) {
		if (delta->c[i].kind != RB_CTR_ERROR || !delta->c[i].value)
			continue;
		moved++;
		if (off >= len)
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? "," : "", delta->c[i].name);
		if (n >= 0 && (size_t)n < len - off) {
			off += (size_t)n;
			continue;
		}
		/* Cut: end in "..." where it fits. */
		if (len >= 4)
			snprintf(buf + len - 4, 4, "...");
		off = len;
	}
	return moved;
}

/* ---- CSV ------------------------------------------------------------------ */

void rb_counters_csv_header(FILE *f, const char *prefix, enum rb_prov_id d)
{
	const char *const *n;

	for (n = rb_counters_defaults(d); *n; n++)
		fprintf(f, ",%s%s", prefix, *n);
	fprintf(f, ",%swire_bytes_per_payload_byte,%sretrans_per_mpkt", prefix, prefix);
}

void rb_counters_csv_row(FILE *f, enum rb_prov_id d, const struct rb_counter_set *delta,
			 const struct rb_counter_derived *der)
{
	const struct rb_counter *c;
	const char *const *n;

	for (n = rb_counters_defaults(d); *n; n++) {
		c = delta ? rb_counters_find(delta, *n) : NULL;
		if (c)
			fprintf(f, ",%llu", (unsigned long long)c->value);
		else
			fputc(',', f);
	}
	fputc(',', f);
	if (der && der->has_wire)
		rb_csv_num(f, der->wire_per_payload);
	fputc(',', f);
	if (der && der->has_retrans)
		rb_csv_num(f, der->retrans_per_mpkt);
}

/* A number of @o, or an empty cell: a count as an integer (@count), a figure as csv.c writes it. */
static void csv_jcell(FILE *f, json_t *o, const char *key, bool count)
{
	json_t *v = json_object_get(o, key);

	fputc(',', f);
	if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v) && count)
		fprintf(f, "%.0f", json_real_value(v));
	else if (json_is_real(v))
		rb_csv_num(f, json_real_value(v));
}

void rb_counters_csv_json(FILE *f, enum rb_prov_id d, json_t *counters, json_t *derived)
{
	const char *const *n;

	for (n = rb_counters_defaults(d); *n; n++)
		csv_jcell(f, counters, *n, true);
	csv_jcell(f, derived, "wire_bytes_per_payload_byte", false);
	csv_jcell(f, derived, "retrans_per_mpkt", false);
}

/* ---- JSON ----------------------------------------------------------------- */

json_t *rb_counters_json(const struct rb_counter_set *delta)
{
	json_t *o = json_object();
	int bad = !o;
	uint32_t i;

	for (i = 0; o && i < delta->n && i < RB_CTR_MAX; i++) {
		uint64_t v = delta->c[i].value;

		bad |= json_object_set_new(o, delta->c[i].name,
					   json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v));
	}
	if (bad)
		json_decref(o);
	return bad ? NULL : o;
}

json_t *rb_counters_errors_json(const struct rb_counter_set *delta)
{
	json_t *a = json_array();
	int bad = !a;
	uint32_t i;

	for (i = 0; a && i < delta->n && i < RB_CTR_MAX; i++)
		if (delta->c[i].kind == RB_CTR_ERROR && delta->c[i].value)
			bad |= json_array_append_new(a, json_string(delta->c[i].name));
	if (bad)
		json_decref(a);
	return bad ? NULL : a;
}

json_t *rb_counters_derived_json(const struct rb_counter_derived *d)
{
	json_t *o = json_object();
	int bad = !o;

	if (o && d->wire_unknown) {
		bad |= json_object_set_new(o, "wire_counter", json_string(d->wire_counter));
		bad |= json_object_set_new(o, "payload_bytes", json_real(d->payload_bytes));
		bad |= json_object_set_new(o, "wire_bytes_per_payload_byte", json_null());
		bad |= json_object_set_new(o, "wire_unknown", json_string(d->wire_unknown));
	}
	if (o && d->has_wire) {
		bad |= json_object_set_new(o, "wire_counter", json_string(d->wire_counter));
		bad |= json_object_set_new(o, "wire_bytes", json_real(d->wire_bytes));
		bad |= json_object_set_new(o, "payload_bytes", json_real(d->payload_bytes));
		bad |= json_object_set_new(o, "wire_bytes_per_payload_byte",
					   json_real(d->wire_per_payload));
	}
	if (o && d->has_retrans) {
		bad |= json_object_set_new(o, "retrans", json_integer((json_int_t)d->retrans));
		bad |= json_object_set_new(o, "packets", json_integer((json_int_t)d->packets));
		bad |= json_object_set_new(o, "retrans_per_mpkt", json_real(d->retrans_per_mpkt));
	}
	if (bad)
		json_decref(o);
	return bad ? NULL : o;
}
