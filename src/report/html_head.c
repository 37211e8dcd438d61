// SPDX-License-Identifier: MIT
/*
 * `rdmabench report`: a run's header (what ran, when, where: both sides'
 * host, device, placement, system; the command line) and its warnings in
 * words, read from the file; and why a point is flagged.
 */
#include <string.h>

#include "report/html_int.h"
#include "report/html_pt.h"

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A member as text: a string, a number, true/false; NULL when absent or null. */
static const char *val(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(o, key);

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%.4g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
	else
		return NULL;
	return buf;
}

static void row(struct h_page *p, const char *what, const char *mine, const char *peer)
{
	fputs("<tr><th>", p->f);
	h_esc(p->f, what);
	fputs("</th><td>", p->f);
	h_esc(p->f, mine);
	fputs("</td><td>", p->f);
	h_esc(p->f, peer);
	fputs("</td></tr>\n", p->f);
}

/* "node 0, CPUs 0-3, memory node 1, local" */
static void placement(json_t *pl, char *buf, size_t len)
{
	char a[32], b[32], c[32];
	const char *cpus = str(pl, "cpus");

	if (!json_is_object(pl)) {
		snprintf(buf, len, "not in this file");
		return;
	}
	snprintf(buf, len, "device NUMA node %s, CPUs %s, memory node %s%s",
		 val(pl, "device_numa_node", a, sizeof(a)) ?: "?", cpus ? cpus : "any",
		 val(pl, "mem_node", b, sizeof(b)) ?: "?",
		 json_is_false(json_object_get(pl, "local"))  ? ", not local to the device"
		 : json_is_true(json_object_get(pl, "local")) ? ", local to the device"
							      : "");
	if (str(pl, "cpu_governor"))
		snprintf(buf + strlen(buf), len - strlen(buf), ", governor %s",
			 val(pl, "cpu_governor", c, sizeof(c)));
}

static void device(json_t *d, json_t *doc, char *buf, size_t len)
{
	char a[32], b[32];
	const char *fw = str(d, "fw_ver");

	snprintf(buf, len, "%s port %s, %s, firmware %s, MTU %s", str(d, "name") ?: "?",
		 val(d, "port", a, sizeof(a)) ?: "?", str(d, "link_layer") ?: "link layer unknown",
		 fw ? fw : "unknown", val(d, "active_mtu", b, sizeof(b)) ?: "?");
	if (json_is_number(json_object_get(doc, "link_gbps")))
		snprintf(buf + strlen(buf), len - strlen(buf), ", line rate %.4g Gb/s",
			 json_number_value(json_object_get(doc, "link_gbps")));
}

/* What the peer's CONN said of its device (peer_fingerprint). */
static void peer_device(json_t *fp, char *buf, size_t len)
{
	const char *fw = str(fp, "fw_ver"), *board = str(fp, "board_id");

	if (!json_is_object(fp)) {
		snprintf(buf, len, "not in this file");
		return;
	}
	snprintf(buf, len, "firmware %s, board %s, vendor 0x%llx part %lld", fw ? fw : "unknown",
		 board ? board : "unknown",
		 (unsigned long long)json_integer_value(json_object_get(fp, "vendor_id")),
		 (long long)json_integer_value(json_object_get(fp, "vendor_part_id")));
}

/* A side's PCIe link, from the object holding "pcie" and "why_pcie"
 * (device, peer_fingerprint): "8 GT/s x8 (max 8 GT/s x16), ceiling
 * 63.02 Gb/s, 0000:81:00.0"; why it is none; or not in this file. */
static void pcie(json_t *o, char *buf, size_t len)
{
	json_t *k = json_object_get(o, "pcie");
	char a[32], b[32], c[32], d[32], e[32];

	if (json_is_object(k)) {
		snprintf(buf, len, "%s GT/s x%s (max %s GT/s x%s), ceiling %s Gb/s, %s",
			 val(k, "cur_gts", a, sizeof(a)) ?: "?",
			 val(k, "cur_width", b, sizeof(b)) ?: "?",
			 val(k, "max_gts", c, sizeof(c)) ?: "?",
			 val(k, "max_width", d, sizeof(d)) ?: "?",
			 val(k, "ceiling_gbps", e, sizeof(e)) ?: "?", str(k, "pci") ?: "?");
		return;
	}
	if (json_is_null(k) && str(o, "why_pcie"))
		snprintf(buf, len, "none: %s", str(o, "why_pcie"));
	else
		snprintf(buf, len, "not in this file");
}

static void command_line(json_t *cl, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < json_array_size(cl) && n + 1 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "",
				      json_string_value(json_array_get(cl, i)) ?: "");
	if (!i)
		snprintf(buf, len, "not in this file");
}

static void warn(struct h_page *p, int *n, const char *text, const char *more)
{
	if (!(*n)++)
		fputs("<ul class=\"warnings\">\n", p->f);
	fputs("<li>", p->f);
	h_esc(p->f, text);
	if (more)
		h_esc(p->f, more);
	fputs("</li>\n", p->f);
}

/* What the file says went wrong or may spoil its figures, in words. */
static void warnings(struct h_page *p, json_t *doc)
{
	json_t *res = json_object_get(doc, "results"), *pt;
	json_t *pl = json_object_get(doc, "placement");
	char flags[512];
	size_t i, nflag = 0;
	int n = 0;

	if (json_is_false(json_object_get(doc, "complete")))
		warn(p, &n, "The run did not finish: ", str(doc, "reason") ?: "no reason given");
	if (json_is_false(json_object_get(pl, "local")))
		warn(p, &n,
		     "This side measured on CPUs or memory of another NUMA node than the "
		     "device's: figures may be lower than the device can do.",
		     NULL);
	if (str(pl, "cpu_governor") && strcmp(str(pl, "cpu_governor"), "performance"))
		warn(p, &n,
		     "The CPU frequency governor was not 'performance': latencies may "
		     "include frequency changes; it was ",
		     str(pl, "cpu_governor"));
	if (json_is_true(json_object_get(json_object_get(doc, "probe_placement"), "shared_with_"
										  "stream")))
		warn(p, &n,
		     "The --probe thread shared the stream's CPU: the loaded latency "
		     "includes waiting for it.",
		     NULL);
	for (i = 0; i < json_array_size(res); i++) {
		pt = json_array_get(res, i);
		h_point_flags(pt, flags, sizeof(flags));
		nflag += flags[0] != '\0';
	}
	if (nflag) {
		snprintf(flags, sizeof(flags),
			 "%zu point(s) flagged: each is marked on the plots "
			 "and its reason given in the tables.",
			 nflag);
		warn(p, &n, flags, NULL);
	}
	if (json_array_size(res) == 0)
		warn(p, &n, "No point was measured.", NULL);
	if (n)
		fputs("</ul>\n", p->f);
	else
		fputs("<p class=\"ok\">No warnings.</p>\n", p->f);
}

void h_header(struct h_page *p, struct h_doc *d)
{
	json_t *doc = d->doc, *sys = json_object_get(doc, "system");
	json_t *fp = json_object_get(doc, "peer_fingerprint");
	char a[512], b[512], t[128];
	const char *op = str(doc, "op");

	if (d->perftest) {
		h_pt_header(p, d);
		return;
	}
	snprintf(t, sizeof(t), "%s%s%s, %s side", str(doc, "test") ?: "?", op ? " " : "",
		 op ? op : "", str(doc, "role") ?: "?");
	fprintf(p->f, "<p class=\"what\">");
	h_esc(p->f, t);
	fputs(", started ", p->f);
	h_esc(p->f, str(doc, "timestamp"));
	fputs(", rdmabench ", p->f);
	h_esc(p->f, str(doc, "version"));
	fputs("</p>\n<table class=\"head\">\n<tr><th></th><th>this side</th><th>peer</th></tr>\n",
	      p->f);
	row(p, "host", str(doc, "host") ?: "unknown", str(doc, "peer") ?: "unknown");
	device(json_object_get(doc, "device"), doc, a, sizeof(a));
	peer_device(fp, b, sizeof(b));
	row(p, "device", a, b);
	pcie(json_object_get(doc, "device"), a, sizeof(a));
	pcie(fp, b, sizeof(b));
	row(p, "PCIe link", a, b);
	row(p, "provider", str(doc, "driver") ?: "unknown", str(doc, "peer_driver") ?: "unknown");
	placement(json_object_get(doc, "placement"), a, sizeof(a));
	placement(json_object_get(doc, "peer_placement"), b, sizeof(b));
	row(p, "placement (NUMA, CPUs)", a, b);
	row(p, "kernel", str(sys, "kernel") ?: "unknown",
	    fp ? str(fp, "kernel") ?: "unknown" : "not in this file");
	row(p, "rdma-core", str(sys, "rdma_core") ?: "unknown",
	    fp ? str(fp, "rdma_core") ?: "unknown" : "not in this file");
	fputs("</table>\n<p class=\"cmd\">Command line: <code>", p->f);
	command_line(json_object_get(doc, "command_line"), a, sizeof(a));
	h_esc(p->f, a);
	fputs("</code></p>\n", p->f);
	warnings(p, doc);
}

static void add(char *buf, size_t len, const char *text, const char *more)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s%s", n ? "; " : "", text, more ? more : "");
}

/* The strings of array @a, comma-separated, into @buf. */
static const char *names(json_t *a, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < json_array_size(a) && n + 1 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      json_string_value(json_array_get(a, i)) ?: "?");
	return buf;
}

void h_point_flags(json_t *pt, char *buf, size_t len)
{
	json_t *ex = json_object_get(pt, "expect"), *e;
	json_t *der = json_object_get(pt, "counters_derived");
	char tmp[256];
	size_t i;

	buf[0] = '\0';
	if (json_is_true(json_object_get(pt, "interrupted")))
		add(buf, len, "interrupted", NULL);
	if (json_is_true(json_object_get(pt, "nothing_measured")))
		add(buf, len, "nothing measured", NULL);
	if (json_array_size(json_object_get(pt, "counter_errors")))
		add(buf, len, "error counters moved: ",
		    names(json_object_get(pt, "counter_errors"), tmp, sizeof(tmp)));
	if (json_array_size(json_object_get(pt, "peer_counter_errors")))
		add(buf, len, "peer's error counters moved: ",
		    names(json_object_get(pt, "peer_counter_errors"), tmp, sizeof(tmp)));
	if (json_integer_value(json_object_get(der, "retrans")) > 0) {
		snprintf(tmp, sizeof(tmp), "%lld",
			 (long long)json_integer_value(json_object_get(der, "retrans")));
		add(buf, len, "retransmissions: ", tmp);
	}
	if (json_array_size(json_object_get(pt, "peer_result_rejected")))
		add(buf, len, "peer's figures rejected: ",
		    names(json_object_get(pt, "peer_result_rejected"), tmp, sizeof(tmp)));
	if (json_is_integer(json_object_get(pt, "signal_ran"))) {
		snprintf(tmp, sizeof(tmp), "%lld",
			 (long long)json_integer_value(json_object_get(pt, "signal_ran")));
		add(buf, len, "signaled every WRs below -Q: ", tmp);
	}
	for (i = 0; i < json_array_size(ex); i++) {
		e = json_array_get(ex, i);
		if (str(e, "result") && !strcmp(str(e, "result"), "fail"))
			add(buf, len, "failed --expect ", str(e, "expr"));
	}
}
