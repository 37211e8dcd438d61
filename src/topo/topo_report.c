// SPDX-License-Identifier: MIT
/*
 * rdmabench topo: each device's link, ports, GIDs and NUMA locality with
 * topo.c's warnings, as a table and as JSON.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "topo/topo.h"

#include "core/atomic_file.h"
#include "topo/topo_int.h"

/* ---- the report ------------------------------------------------------- */

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

static void print_link(FILE *out, const struct rb_dev_info *d)
{
	const struct rb_pcie_link *k = &d->link;

	if (k->cur_gts <= 0 && k->cur_width <= 0) {
		fprintf(out, "  PCIe link: unknown\n");
		return;
	}
	fprintf(out, "  PCIe link: %.1f GT/s x%d (max %.1f GT/s x%d), payload ceiling %.1f Gb/s\n",
		k->cur_gts, k->cur_width, k->max_gts, k->max_width,
		rb_pcie_ceiling_gbps(k->cur_gts, k->cur_width));
}

static void print_ports(FILE *out, const struct rb_dev_info *d)
{
	double ceil = rb_pcie_ceiling_gbps(d->link.cur_gts, d->link.cur_width);
	const struct rb_port_info *p;
	char mtu[16];
	int i;

	fprintf(out, "  %-4s %-8s %-10s %-10s %9s %9s %5s  %s\n", "PORT", "STATE", "PHYS", "LINK",
		"RATE_Gbps", "PCIE_Gbps", "MTU", "NETDEV");
	for (i = 0; i < d->n_ports; i++) {
		p = &d->ports[i];
		snprintf(mtu, sizeof(mtu), "%d", p->active_mtu);
		fprintf(out, "  %-4d %-8s %-10s %-10s %9.1f %9.1f %5s  %s\n", p->num,
			or_dash(p->state), or_dash(p->phys_state), or_dash(p->link_layer),
			p->rate_gbps, ceil, p->active_mtu ? mtu : "-", or_dash(p->netdev));
	}
}

static void print_gids(FILE *out, const struct rb_dev_info *d)
{
	const struct rb_gid *g;
	int i, k;

	fprintf(out, "  %-4s %-5s %-8s %-40s %s\n", "PORT", "GID", "TYPE", "ADDRESS", "NETDEV");
	for (i = 0; i < d->n_ports; i++)
		for (k = 0; k < d->ports[i].n_gids; k++) {
			g = &d->ports[i].gids[k];
			fprintf(out, "  %-4d %-5d %-8s %-40s %s\n", d->ports[i].num, g->index,
				g->type, g->addr, or_dash(g->netdev));
		}
}

/* A device's IRQs and its CPUs' governors, read once for the table and the JSON. */
struct dev_extra {
	bool has_irqs;
	struct rb_irqs irqs;
	struct rb_govs govs;
};

static void read_extra(const struct rb_topo_env *env, const struct rb_dev_info *d,
		       struct dev_extra *x)
{
	hwloc_bitmap_t cpus = hwloc_bitmap_alloc();

	x->has_irqs = d->pci[0] && !rb_dev_irqs(env->sysroot, env->procroot ? env->procroot : "",
						d->pci, &x->irqs);
	memset(&x->govs, 0, sizeof(x->govs));
	if (cpus && d->local_cpus[0] && !rb_cpus_parse(d->local_cpus, cpus))
		rb_cpus_governors(env->sysroot, cpus, &x->govs);
	hwloc_bitmap_free(cpus);
}

static void print_extra(FILE *out, const struct dev_extra *x)
{
	char govs[128];
	int i;

	if (x->has_irqs) {
		fprintf(out, "  IRQs: %d MSI%s", x->irqs.n, x->irqs.n ? " (IRQ -> CPUs:" : "");
		for (i = 0; i < x->irqs.n; i++)
			fprintf(out, " %d -> %s", x->irqs.irq[i].num, or_dash(x->irqs.irq[i].cpus));
		fprintf(out, "%s\n", x->irqs.n ? ")" : "");
	}
	rb_govs_str(&x->govs, govs, sizeof(govs));
	fprintf(out, "  CPU governor of the local CPUs: %s\n",
		govs[0] ? govs : "none (no cpufreq, or a VM)");
}

/* What the provider's row says: transport, QP types, atomics, inline, its quirk. */
static void print_provider(FILE *out, const struct rb_provider *p)
{
	char offers[64];

	if (!p)
		return;
	fprintf(out, "  provider %s (%s): %s, QPs %s, %s", p->name, p->family,
		rb_prov_transport_str(p->xport),
		rb_prov_offers_str(p->offers, offers, sizeof(offers)),
		p->atomics ? "atomics" : "no atomics");
	if (p->max_inline)
		fprintf(out, ", inline %u bytes", p->max_inline);
	fprintf(out, "%s%s\n", p->quirk ? "; " : "", p->quirk ? p->quirk : "");
}

static void print_dev(FILE *out, const struct rb_dev_info *d, int dev_node)
{
	char node[16] = "unknown";

	if (dev_node >= 0)
		snprintf(node, sizeof(node), "%d", dev_node);
	fprintf(out, "%s: driver %s, transport %s, node GUID %s, firmware %s\n", d->name,
		or_dash(d->driver), or_dash(rb_dev_transport(d)), or_dash(d->node_guid),
		or_dash(d->fw_ver));
	fprintf(out, "  netdev %s, PCI %s, NUMA node %s, local CPUs %s\n", or_dash(d->netdev),
		or_dash(d->pci), node, or_dash(d->local_cpus));
	print_provider(out, d->prov);
	print_link(out, d);
	print_ports(out, d);
	print_gids(out, d);
}

/* The provider's row as topo's JSON shows it; null without one. */
static json_t *provider_json(const struct rb_provider *p)
{
	static const char *const qpt[] = { "RC", "UC", "UD", "SRD", "DC", "XRC" };
	json_t *types;
	size_t i;

	if (!p)
		return json_null();
	types = json_array();
	for (i = 0; types && i < sizeof(qpt) / sizeof(qpt[0]); i++)
		if (p->offers & (1u << i))
			json_array_append_new(types, json_string(qpt[i]));
	return json_pack("{s:s, s:s, s:s, s:o, s:b, s:o, s:o}", "name", p->name, "family",
			 p->family, "transport", rb_prov_transport_str(p->xport), "qp_types",
			 types ? types : json_null(), "atomics", p->atomics, "max_inline",
			 p->max_inline ? json_integer(p->max_inline) : json_null(), "quirk",
			 p->quirk ? json_string(p->quirk) : json_null());
}

/* A JSON string, or null for an unknown ("") fact. */
static json_t *jstr(const char *s)
{
	json_t *j = s && s[0] ? json_string(s) : NULL;

	return j ? j : json_null();
}

/* A JSON number, or null for 0 (unknown). */
static json_t *jnum(double v)
{
	return v > 0 ? json_real(v) : json_null();
}

/* A JSON integer, or null below @min (unknown). */
static json_t *jint(int v, int min)
{
	return v >= min ? json_integer(v) : json_null();
}

static json_t *gids_json(const struct rb_port_info *p)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a && i < p->n_gids; i++)
		json_array_append_new(a,
				      json_pack("{s:i, s:s, s:s, s:o}", "index", p->gids[i].index,
						"type", p->gids[i].type, "address", p->gids[i].addr,
						"netdev", jstr(p->gids[i].netdev)));
	return a;
}

static json_t *port_json(const struct rb_dev_info *d, const struct rb_port_info *p)
{
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "port", p->num,
			 "state", jstr(p->state), "phys_state", jstr(p->phys_state), "link_layer",
			 jstr(p->link_layer), "rate", jstr(p->rate), "rate_gbps",
			 jnum(p->rate_gbps), "pcie_ceiling_gbps",
			 jnum(rb_pcie_ceiling_gbps(d->link.cur_gts, d->link.cur_width)),
			 "active_mtu", jint(p->active_mtu, 1), "netdev", jstr(p->netdev), "gids",
			 gids_json(p));
}

static json_t *warnings_json(const struct rb_topo_warning *w, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a && i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:s}", "code",
						   rb_topo_wcode_name(w[i].code), "port",
						   jint(w[i].port, 1), "message", w[i].msg));
	return a;
}

/*
 * The same facts as the table.  Speeds in GT/s and rates in Gb/s as
 * numbers; unknown facts are null.
 */
/* [{irq, cpus}], or null when the function has no msi_irqs. */
static json_t *irqs_json(const struct dev_extra *x)
{
	json_t *a;
	int i;

	if (!x->has_irqs)
		return json_null();
	a = json_array();
	for (i = 0; a && i < x->irqs.n; i++)
		json_array_append_new(a, json_pack("{s:i, s:o}", "irq", x->irqs.irq[i].num, "cpus",
						   jstr(x->irqs.irq[i].cpus)));
	return a ? a : json_null();
}

/* {governor: CPUs}, or null when no local CPU has cpufreq. */
static json_t *govs_json(const struct dev_extra *x)
{
	json_t *o;
	int i;

	if (!x->govs.n)
		return json_null();
	o = json_object();
	for (i = 0; o && i < x->govs.kinds; i++)
		json_object_set_new(o, x->govs.name[i], json_integer(x->govs.count[i]));
	return o ? o : json_null();
}

static json_t *dev_json(const struct rb_dev_info *d, int dev_node, const struct rb_topo_warning *w,
			int nw, const struct dev_extra *x)
{
	const struct rb_pcie_link *k = &d->link;
	json_t *ports = json_array();
	int i;

	for (i = 0; ports && i < d->n_ports; i++)
		json_array_append_new(ports, port_json(d, &d->ports[i]));
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:{s:o, s:o, s:o, s:o, s:o}, s:o, s:o, s:o, s:o}",
			 "name", d->name, "driver", jstr(d->driver), "provider",
			 provider_json(d->prov), "transport", jstr(rb_dev_transport(d)),
			 "node_guid", jstr(d->node_guid), "fw_ver", jstr(d->fw_ver), "netdev",
			 jstr(d->netdev), "pci", jstr(d->pci), "numa_node", jint(dev_node, 0),
			 "local_cpus", jstr(d->local_cpus), "pcie", "current_link_speed",
			 jnum(k->cur_gts), "max_link_speed", jnum(k->max_gts), "current_link_width",
			 jint(k->cur_width, 1), "max_link_width", jint(k->max_width, 1),
			 "ceiling_gbps", jnum(rb_pcie_ceiling_gbps(k->cur_gts, k->cur_width)),
			 "ports", ports, "warnings", warnings_json(w, nw), "irqs", irqs_json(x),
			 "governors", govs_json(x));
}

/* Read, check, print and collect one device, and note it in @nic for the
 * GPU table.  0 or -errno (logged). */
static int report_one(const struct rb_topo_env *env, const char *name, FILE *out, json_t *devs,
		      struct rb_nic_ref *nic)
{
	struct rb_topo_warning w[RB_TOPO_MAX_WARN];
	struct dev_extra *x = calloc(1, sizeof(*x));
	struct rb_dev_info d;
	int node, nw, i, ret;

	if (!x)
		return -ENOMEM;

	ret = rb_dev_read(env->sysroot, name, &d);
	if (ret) {
		free(x);
		return ret;
	}
	if (env->enrich)
		env->enrich(&d);
	node = rb_topo_dev_node(env->topo, &d);
	nw = rb_topo_check(env->topo, env->sysroot, &d, node, env->bound, w, RB_TOPO_MAX_WARN);
	read_extra(env, &d, x);
	snprintf(nic->name, sizeof(nic->name), "%s", d.name);
	snprintf(nic->pci, sizeof(nic->pci), "%s", d.pci);
	nic->numa_node = node;
	if (out) {
		print_dev(out, &d, node);
		print_extra(out, x);
	}
	for (i = 0; i < nw; i++)
		rb_warn("%s", w[i].msg);
	ret = json_array_append_new(devs, dev_json(&d, node, w, nw, x)) ? -ENOMEM : 0;
	if (ret)
		rb_err("%s: cannot build JSON: %s", name, strerror(-ret));
	rb_dev_info_free(&d);
	free(x);
	return ret;
}

/* ---- GPUs against the RDMA devices ----------------------------------- */

/* Each column as wide as its device's name, at least as "NODE". */
static int col_width(const struct rb_nic_ref *nic)
{
	int w = (int)strlen(nic->name);

	return w > 4 ? w : 4;
}

static void print_gpu_head(FILE *out, const struct rb_nic_ref *nics, int n)
{
	int i;

	fprintf(out, "GPUs and RDMA devices, by the PCIe path between them:\n");
	fprintf(out, "%-6s %-12s  %-6s  %-4s ", "", "PCI", "VENDOR", "NODE");
	for (i = 0; i < n; i++)
		fprintf(out, " %-*s", col_width(&nics[i]), nics[i].name);
	fprintf(out, "  NEAREST\n");
}

static void print_gpu_row(FILE *out, int index, const struct rb_gpu *g,
			  const struct rb_nic_ref *nics, int n, const struct rb_gpu_row *r)
{
	char label[16], node[16] = "-";
	const char *sep = "";
	int i;

	snprintf(label, sizeof(label), "GPU%d", index);
	if (g->numa_node >= 0)
		snprintf(node, sizeof(node), "%d", g->numa_node);
	fprintf(out, "%-6s %-12s  %-6s  %-4s ", label, g->pci, g->vendor, node);
	for (i = 0; i < n; i++)
		fprintf(out, " %-*s", col_width(&nics[i]), rb_pcie_rel_name(r->rel[i]));
	fprintf(out, "  ");
	for (i = 0; i < n && r->best != RB_REL_UNKNOWN; i++)
		if (r->rel[i] == r->best) {
			fprintf(out, "%s%s", sep, nics[i].name);
			sep = ",";
		}
	fprintf(out, "%s\n", *sep ? "" : "-");
}

static void print_gpu_legend(FILE *out)
{
	int r;

	fprintf(out, "Legend (nvidia-smi topo -m's words):\n");
	for (r = RB_REL_PIX; r < RB_REL_COUNT; r++)
		fprintf(out, "  %-4s  %s\n", rb_pcie_rel_name(r), rb_pcie_rel_desc(r));
	fprintf(out, "GPUs are numbered in PCI bus order, as nvidia-smi does; CUDA numbers them "
		     "so with CUDA_DEVICE_ORDER=PCI_BUS_ID.\n");
}

static json_t *gpu_json(int index, const struct rb_gpu *g, const struct rb_nic_ref *nics, int n,
			const struct rb_gpu_row *r)
{
	json_t *rel = json_object(), *near = json_array(), *warn = json_array();
	char ids[3][12];
	int i;

	for (i = 0; rel && near && i < n; i++) {
		json_object_set_new(rel, nics[i].name, json_string(rb_pcie_rel_name(r->rel[i])));
		if (r->best != RB_REL_UNKNOWN && r->rel[i] == r->best)
			json_array_append_new(near, json_string(nics[i].name));
	}
	if (warn && r->warn)
		json_array_append_new(warn, json_pack("{s:s, s:s}", "code", "gpu_nic_sys",
						      "message", r->warning));
	snprintf(ids[0], sizeof(ids[0]), "%04x", g->vendor_id);
	snprintf(ids[1], sizeof(ids[1]), "%04x", g->device_id);
	snprintf(ids[2], sizeof(ids[2]), "%04x", g->class_id);
	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:s, s:o, s:o}", "gpu", index,
			 "pci", g->pci, "vendor", g->vendor, "vendor_id", ids[0], "device_id",
			 ids[1], "class_id", ids[2], "numa_node", jint(g->numa_node, 0), "nearest",
			 near, "nearest_relation", rb_pcie_rel_name(r->best), "relation", rel,
			 "warnings", warn);
}

/*
 * The GPU x RDMA device table on @out (NULL: none) and as "gpu_nic" in
 * @root; a warning for each GPU whose nearest device is across the socket.
 * Without a GPU: one line on @out, and an empty array.
 */
static void report_gpus(const struct rb_topo_env *env, const struct rb_nic_ref *nics, int n,
			FILE *out, json_t *root)
{
	struct rb_gpu *gpus = calloc(RB_MAX_GPUS, sizeof(*gpus));
	json_t *arr = json_array();
	struct rb_gpu_row row;
	int ng, i;

	ng = gpus ? rb_gpu_list(env->topo, env->sysroot, gpus, RB_MAX_GPUS) : 0;
	if (out && ng)
		print_gpu_head(out, nics, n);
	for (i = 0; i < ng; i++) {
		rb_gpu_nics(env->topo, env->sysroot, i, &gpus[i], nics, n, &row);
		if (out)
			print_gpu_row(out, i, &gpus[i], nics, n, &row);
		if (row.warn)
			rb_warn("%s", row.warning);
		if (arr)
			json_array_append_new(arr, gpu_json(i, &gpus[i], nics, n, &row));
	}
	if (out && ng)
		print_gpu_legend(out);
	else if (out)
		fprintf(out, "GPUs: none (no NVIDIA or AMD display, 3D or accelerator PCI "
			     "function)\n");
	json_object_set_new(root, "gpu_nic", arr ? arr : json_null());
	free(gpus);
}

/* "-": stdout; a file is written whole (atomic_file.h), as --json's. */
static int write_json(json_t *root, const char *path)
{
	bool to_stdout = !strcmp(path, "-");
	struct rb_afile af;
	FILE *f = stdout;
	int ret = to_stdout ? 0 : rb_afile_open(&af, path, &f);

	if (!ret)
		ret = json_dumpf(root, f, RB_JSON_DUMP) || fputc('\n', f) == EOF ? -EIO : 0;
	if (to_stdout)
		ret = fflush(f) ? -EIO : ret;
	else
		ret = rb_afile_close(&af, f, ret);
	if (ret)
		rb_err("%s: cannot write JSON: %s", path, strerror(-ret));
	return ret;
}

int rb_topo_show_env(const struct rb_topo_env *env, const char *ibdev, const char *json_path,
		     FILE *out)
{
	char **names = NULL, *one[1] = { (char *)ibdev };
	struct rb_nic_ref *nics;
	int n = 1, i, shown = 0;
	json_t *root, *devs;

	if (!ibdev && rb_dev_list(env->sysroot, &names, &n))
		return RB_EXIT_FAIL;
	if (!ibdev && !n) {
		rb_err("no RDMA device found (%s/class/infiniband is empty or missing)",
		       env->sysroot);
		return RB_EXIT_FAIL;
	}
	devs = json_array();
	root = json_pack("{s:s, s:i, s:o}", "tool", RB_TOOL, "schema_version", RB_SCHEMA_VERSION,
			 "devices", devs);
	/* The table and JSON on stdout would mix: "-" means JSON only. */
	if (json_path && !strcmp(json_path, "-"))
		out = NULL;
	nics = calloc(n, sizeof(*nics));
	if (!nics)
		rb_err("topo: cannot allocate the device list: %s", strerror(ENOMEM));
	for (i = 0; root && nics && i < n; i++) {
		if (out && shown)
			fputc('\n', out);
		if (!report_one(env, ibdev ? one[0] : names[i], out, devs, &nics[shown]))
			shown++;
	}
	rb_dev_list_free(names, ibdev ? 0 : n);
	if (root && shown) {
		if (out)
			fputc('\n', out);
		report_gpus(env, nics, shown < RB_MAX_NICS ? shown : RB_MAX_NICS, out, root);
	}
	free(nics);
	if (root && shown && json_path && write_json(root, json_path))
		shown = 0;
	json_decref(root);
	return shown ? RB_EXIT_OK : RB_EXIT_FAIL;
}
