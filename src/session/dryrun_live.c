// SPDX-License-Identifier: MIT
/*
 * --dry-run's live part: what this machine says about the plan.  The
 * route is asked as the client asks it (a UDP connect() sends nothing),
 * the device is opened and queried as a run opens it (a PD is all it
 * allocates, and it is closed again), and the placement is decided
 * without binding.  Nothing connects to a peer or measures.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "rdma/addr.h"
#include "session/dryrun.h"
#include "wire/oob.h"
#include "report/output.h"
#include "wire/plan.h"
#include "topo/topo.h"
#include "session/threads.h"
#include "rdma/verbs.h"

/* What rb_err() said last, as a note (it was printed on stderr already). */
static void last_error(char *note, size_t len, const char *what)
{
	snprintf(note, len, "%s%s", what, rb_last_error[0] ? rb_last_error : "unknown error");
}

/* The client: where its connection to the server would leave from. */
static bool route(struct rb_dryrun *d, struct sockaddr_storage *local)
{
	const struct rb_local *l = d->l;

	rb_last_error[0] = '\0';
	if (rb_oob_local(l->host, (uint16_t)l->tcp_port, l->bind, local)) {
		last_error(d->route_note, sizeof(d->route_note), "");
		return false;
	}
	rb_addr_str((const struct sockaddr *)local, d->local_addr, sizeof(d->local_addr));
	return true;
}

static int device_count(void)
{
	struct ibv_device **list;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (list)
		ibv_free_device_list(list);
	return list ? n : 0;
}

static void copy_dev(struct rb_dry_dev *v, const struct rb_dev *d)
{
	v->found = true;
	snprintf(v->name, sizeof(v->name), "%s", d->name);
	v->port = d->port;
	snprintf(v->link_layer, sizeof(v->link_layer), "%s", rb_link_layer_str(d));
	v->active_mtu = rb_mtu_bytes(d->port_attr.active_mtu);
	v->gid_index = d->gid_index;
	snprintf(v->gid_type, sizeof(v->gid_type), "%s", d->gid_type);
	snprintf(v->gid, sizeof(v->gid), "%s", d->gid_addr);
	snprintf(v->why_dev, sizeof(v->why_dev), "%s", d->why_dev);
	snprintf(v->why_gid, sizeof(v->why_gid), "%s", d->why_gid);
	v->max_msg_sz = d->port_attr.max_msg_sz;
	v->max_qp_wr = d->attr.max_qp_wr;
	v->max_cqe = d->attr.max_cqe;
	v->max_qp_rd_atom = d->attr.max_qp_rd_atom;
	v->atomics = d->attr.atomic_cap != IBV_ATOMIC_NONE;
	v->prov = d->prov->id;
}

/*
 * The device, port and GID the run would take.  A server that chose none
 * takes them from the address its client reaches, known only then.
 */
static void resolve_dev(struct rb_dryrun *d, const struct sockaddr *local)
{
	struct rb_dry_dev *v = &d->dev;
	const struct rb_dev_want w = { .name = v->want_name,
				       .port = v->want_port,
				       .gid_index = v->want_gid,
				       .local = local,
				       .peer_family = AF_UNSPEC };
	bool server = d->role == RB_ROLE_SERVER;
	struct rb_dev dev;

	if (!device_count()) {
		snprintf(v->note, sizeof(v->note),
			 "no RDMA device on this host: the device, port and GID are chosen when "
			 "the run starts");
		return;
	}
	if (server && !w.name && w.port <= 0 && w.gid_index < 0) {
		snprintf(v->note, sizeof(v->note),
			 "chosen when a client connects: the device and GID holding the address "
			 "it reaches");
		return;
	}
	rb_last_error[0] = '\0';
	if (rb_dev_open_want(&w, &dev)) {
		last_error(v->note, sizeof(v->note), "");
		return;
	}
	copy_dev(v, &dev);
	if (server && w.gid_index < 0)
		snprintf(v->note, sizeof(v->note),
			 "the GID shown is a guess: a server takes the one holding the address "
			 "its client reaches");
	rb_dev_close(&dev);
}

/* Every thread's CPUs and buffers, on the device the run would take. */
static void resolve_place(struct rb_dryrun *d)
{
	struct rb_dry_place *pl = &d->place;
	/* A device that cannot be opened fails the run: place as without one. */
	const char *dev = d->dev.found ? d->dev.name : NULL;
	uint32_t i, n = d->p && d->p->threads > 1 ? d->p->threads : 1;
	char note[RB_DRY_NOTE];

	pl->place = calloc(n, sizeof(*pl->place));
	if (!pl->place) {
		snprintf(pl->note, sizeof(pl->note), "placement: out of memory for %u threads", n);
		return;
	}
	pl->n = n;
	rb_last_error[0] = '\0';
	for (i = 0; i < n; i++) {
		note[0] = '\0';
		if (rb_place_preview(dev, d->l->cpu, d->l->numa, i, n, &pl->place[i], note,
				     sizeof(note))) {
			last_error(pl->note, sizeof(pl->note), "placement: ");
			return;
		}
		if (!i)
			snprintf(pl->note, sizeof(pl->note), "%s", note);
	}
	pl->known = true;
}

void rb_dry_resolve(struct rb_dryrun *d)
{
	const struct rb_local *l = d->l;
	struct sockaddr_storage local;
	bool have = false;

	d->dev.want_name = l->device[0] ? l->device : NULL;
	d->dev.want_port = l->ib_port;
	d->dev.want_gid = l->gid_index;
	d->dev.gid_index = -1;
	if (d->p) {
		d->mem_budget = rb_mem_budget();
		d->ncpus = rb_threads_ncpus();
	}
	if (d->role == RB_ROLE_CLIENT)
		have = route(d, &local);
	resolve_dev(d, have ? (const struct sockaddr *)&local : NULL);
	resolve_place(d);
}

void rb_dry_release(struct rb_dryrun *d)
{
	free(d->place.place);
	d->place.place = NULL;
	d->place.n = 0;
	d->place.known = false;
}

static int write_json(const char *path, json_t *doc)
{
	if (!strcmp(path, "-"))
		return json_dumpf(doc, stdout, RB_JSON_DUMP) || fputc('\n', stdout) == EOF;
	if (!json_dump_file(doc, path, RB_JSON_DUMP))
		return 0;
	rb_err("%s: cannot write the plan: %s", path, strerror(errno));
	return -1;
}

int rb_dry_main(struct rb_dryrun *d)
{
	const struct rb_local *l = d->l;
	bool json_out = l->format == RB_FMT_JSON;
	json_t *doc = NULL;
	int ret = 0;

	if (json_out || l->json_path[0]) {
		doc = rb_dry_json(d);
		if (!doc) {
			rb_err("--dry-run: out of memory for the JSON plan");
			return RB_EXIT_FAIL;
		}
	}
	if (json_out)
		ret = write_json("-", doc);
	else
		ret = rb_dry_text(d, stdout);
	if (!ret && l->json_path[0] && !(json_out && !strcmp(l->json_path, "-")))
		ret = write_json(l->json_path, doc);
	json_decref(doc);
	return ret ? RB_EXIT_FAIL : RB_EXIT_OK;
}
