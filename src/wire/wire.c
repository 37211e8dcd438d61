// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "wire/matrix_wire.h"
#include "wire/wire.h"

void rb_hdr_pack(uint8_t buf[RB_WIRE_HDR_LEN], uint16_t type, uint32_t len)
{
	struct cur c = wcur(buf, RB_WIRE_HDR_LEN);

	put_be(&c, RB_WIRE_MAGIC, 4);
	put_be(&c, RB_WIRE_VERSION, 2);
	put_be(&c, type, 2);
	put_be(&c, len, 4);
}

int rb_hdr_unpack(const uint8_t buf[RB_WIRE_HDR_LEN], struct rb_hdr *h, char *err, size_t errlen)
{
	struct cur c = rcur(buf, RB_WIRE_HDR_LEN);

	h->magic = (uint32_t)get_be(&c, 4);
	h->version = (uint16_t)get_be(&c, 2);
	h->type = (uint16_t)get_be(&c, 2);
	h->len = (uint32_t)get_be(&c, 4);
	if (h->magic != RB_WIRE_MAGIC) {
		snprintf(err, errlen, "peer is not rdmabench (bad magic 0x%08x)", h->magic);
		return -EBADMSG;
	}
	if (h->version != RB_WIRE_VERSION) {
		snprintf(err, errlen,
			 "peer speaks rdmabench wire protocol v%u, this rdmabench speaks v%u",
			 h->version, RB_WIRE_VERSION);
		return -EPROTO;
	}
	if (h->len > RB_WIRE_MAX_BODY) {
		snprintf(err, errlen, "%s message of %u bytes exceeds the %u-byte cap",
			 rb_msg_name(h->type), h->len, RB_WIRE_MAX_BODY);
		return -EMSGSIZE;
	}
	return 0;
}

int rb_pack_hello(const struct rb_msg_hello *m, uint8_t *buf, size_t cap)
{
	struct cur c = wcur(buf, cap);

	PUT_STR(&c, m->tool_version);
	PUT_STR(&c, m->test);
	PUT_STR(&c, m->host);
	PUT_STR(&c, m->boot_id);
	PUT_STR(&c, m->cpus);
	put_be(&c, m->auth, 1);
	put_bytes(&c, m->nonce, sizeof(m->nonce));
	return wdone(&c);
}

int rb_unpack_hello(const uint8_t *buf, size_t len, struct rb_msg_hello *m)
{
	struct cur c = rcur(buf, len);

	GET_STR(&c, m->tool_version);
	GET_STR(&c, m->test);
	GET_STR(&c, m->host);
	GET_STR(&c, m->boot_id);
	GET_STR(&c, m->cpus);
	m->auth = (uint8_t)get_be(&c, 1);
	get_bytes(&c, m->nonce, sizeof(m->nonce));
	if (m->auth > 1)
		return -EBADMSG;
	return rdone(&c);
}

/* One QP's address: QPN, PSN, LID, GID. */
static void put_qp(struct cur *c, const struct rb_qp_info *q)
{
	put_be(c, q->qpn, 4);
	put_be(c, q->psn, 4);
	put_be(c, q->lid, 2);
	put_bytes(c, q->gid, 16);
}

static void get_qp(struct cur *c, struct rb_qp_info *q)
{
	q->qpn = (uint32_t)get_be(c, 4);
	q->psn = (uint32_t)get_be(c, 4);
	q->lid = (uint16_t)get_be(c, 2);
	get_bytes(c, q->gid, 16);
}

static void put_mr(struct cur *c, const struct rb_mr_info *mr)
{
	put_be(c, mr->addr, 8);
	put_be(c, mr->rkey, 4);
}

static void get_mr(struct cur *c, struct rb_mr_info *mr)
{
	mr->addr = get_be(c, 8);
	mr->rkey = (uint32_t)get_be(c, 4);
}

static uint32_t first_chunk(uint32_t n)
{
	return n < RB_CONN_CHUNK ? n : RB_CONN_CHUNK;
}

/* Lists of 1..RB_MAX_QPS QPs, and 1 MR or one per QP at most. */
static bool counts_ok(uint32_t nqp, uint32_t nmr)
{
	return nqp >= 1 && nqp <= RB_MAX_QPS && nmr >= 1 && nmr <= nqp;
}

int rb_conn_alloc(struct rb_msg_conn *m, uint32_t nqp, uint32_t nmr)
{
	if (!counts_ok(nqp, nmr))
		return -EINVAL;
	m->qp = calloc(nqp, sizeof(*m->qp));
	m->mr = calloc(nmr, sizeof(*m->mr));
	if (!m->qp || !m->mr) {
		rb_conn_free(m);
		return -ENOMEM;
	}
	m->nqp = nqp;
	m->nmr = nmr;
	return 0;
}

void rb_conn_free(struct rb_msg_conn *m)
{
	free(m->qp);
	free(m->mr);
	m->qp = NULL;
	m->mr = NULL;
}

/* v18: the sender's fingerprint, one block at CONN's end. */
static void put_fp(struct cur *c, const struct rb_fingerprint *f)
{
	PUT_STR(c, f->kernel);
	PUT_STR(c, f->rdma_core);
	PUT_STR(c, f->fw_ver);
	PUT_STR(c, f->board_id);
	put_be(c, f->vendor_id, 4);
	put_be(c, f->vendor_part_id, 4);
	put_be(c, f->hw_ver, 4);
	/* Its device's PCIe link: GT/s as MT/s (2.5 GT/s: 2500), lanes. */
	PUT_STR(c, f->pci);
	put_be(c, (uint64_t)(f->pcie.cur_gts * 1000 + 0.5), 4);
	put_be(c, (uint64_t)(f->pcie.max_gts * 1000 + 0.5), 4);
	put_be(c, (uint64_t)f->pcie.cur_width, 2);
	put_be(c, (uint64_t)f->pcie.max_width, 2);
}

static void get_fp(struct cur *c, struct rb_fingerprint *f)
{
	GET_STR(c, f->kernel);
	GET_STR(c, f->rdma_core);
	GET_STR(c, f->fw_ver);
	GET_STR(c, f->board_id);
	f->vendor_id = (uint32_t)get_be(c, 4);
	f->vendor_part_id = (uint32_t)get_be(c, 4);
	f->hw_ver = (uint32_t)get_be(c, 4);
	GET_STR(c, f->pci);
	f->pcie.cur_gts = (double)get_be(c, 4) / 1000;
	f->pcie.max_gts = (double)get_be(c, 4) / 1000;
	f->pcie.cur_width = (int)get_be(c, 2);
	f->pcie.max_width = (int)get_be(c, 2);
}

int rb_pack_conn(const struct rb_msg_conn *m, uint8_t *buf, size_t cap)
{
	struct cur c = wcur(buf, cap);
	uint32_t i;

	if (!counts_ok(m->nqp, m->nmr) || !m->qp || !m->mr)
		return -EMSGSIZE;
	put_be(&c, m->mtu, 4);
	put_be(&c, m->max_rd_atom, 4);
	put_be(&c, m->rkey, 4);
	put_be(&c, m->addr, 8);
	put_be(&c, m->len, 8);
	put_be(&c, m->nqp, 4);
	for (i = 0; i < first_chunk(m->nqp); i++)
		put_qp(&c, &m->qp[i]);
	put_place(&c, &m->place);
	PUT_STR(&c, m->device);
	put_be(&c, m->link_layer, 1);
	/* v4: 1 to nqp MRs; the first is the one rkey and addr name. */
	put_be(&c, m->nmr, 4);
	for (i = 0; i < first_chunk(m->nmr); i++)
		put_mr(&c, &m->mr[i]);
	/* v11: a flag, then --probe's QP when it is set. */
	if (m->has_probe > 1)
		return -EMSGSIZE;
	put_be(&c, m->has_probe, 1);
	if (m->has_probe)
		put_qp(&c, &m->probe_qp);
	/* v15: the sender's transport. */
	put_be(&c, m->transport, 1);
	/* v18: the DC block: role, then the targets' key. */
	if (m->dc_role > RB_DC_TARGET || (m->dc_key && m->dc_role != RB_DC_TARGET))
		return -EMSGSIZE;
	put_be(&c, m->dc_role, 1);
	put_be(&c, m->dc_key, 8);
	/* v18: the sender's fingerprint. */
	put_fp(&c, &m->fp);
	return wdone(&c);
}

/* The MR list: its count bounded (1..nqp) before it is allocated. */
static int get_mrs(struct cur *c, struct rb_msg_conn *m)
{
	uint32_t i;

	m->nmr = (uint32_t)get_be(c, 4);
	if (c->err || !counts_ok(m->nqp, m->nmr))
		return -EBADMSG;
	m->mr = calloc(m->nmr, sizeof(*m->mr));
	if (!m->mr)
		return -ENOMEM;
	for (i = 0; i < first_chunk(m->nmr); i++)
		get_mr(c, &m->mr[i]);
	return m->mr[0].addr != m->addr || m->mr[0].rkey != m->rkey ? -EBADMSG : 0;
}

int rb_unpack_conn(const uint8_t *buf, size_t len, struct rb_msg_conn *m)
{
	struct cur c = rcur(buf, len);
	uint32_t i;

	memset(m, 0, sizeof(*m));
	m->mtu = (uint32_t)get_be(&c, 4);
	m->max_rd_atom = (uint32_t)get_be(&c, 4);
	m->rkey = (uint32_t)get_be(&c, 4);
	m->addr = get_be(&c, 8);
	m->len = get_be(&c, 8);
	m->nqp = (uint32_t)get_be(&c, 4);
	if (c.err || !counts_ok(m->nqp, 1))
		return -EBADMSG;
	m->qp = calloc(m->nqp, sizeof(*m->qp));
	if (!m->qp)
		return -ENOMEM;
	for (i = 0; i < first_chunk(m->nqp); i++)
		get_qp(&c, &m->qp[i]);
	get_place(&c, &m->place);
	GET_STR(&c, m->device);
	m->link_layer = (uint8_t)get_be(&c, 1);
	if (get_mrs(&c, m))
		goto fail;
	m->has_probe = (uint8_t)get_be(&c, 1);
	if (m->has_probe > 1)
		goto fail;
	if (m->has_probe)
		get_qp(&c, &m->probe_qp);
	m->transport = (uint8_t)get_be(&c, 1);
	m->dc_role = (uint8_t)get_be(&c, 1);
	m->dc_key = get_be(&c, 8);
	if (m->dc_role > RB_DC_TARGET || (m->dc_key && m->dc_role != RB_DC_TARGET))
		goto fail;
	get_fp(&c, &m->fp);
	if (!rdone(&c))
		return 0;
fail:
	rb_conn_free(m);
	return -EBADMSG;
}

/* The entries past each list's first chunk, in RB_CONN_CHUNK steps. */
static uint32_t more_of(uint32_t n)
{
	return n > RB_CONN_CHUNK ? (n - 1) / RB_CONN_CHUNK : 0;
}

uint32_t rb_conn_chunks(const struct rb_msg_conn *m)
{
	return more_of(m->nqp) + more_of(m->nmr);
}

enum { RB_LIST_QP = 1, RB_LIST_MR = 2 };

/* Chunk @k of @m: which list, its first entry, how many. */
static int chunk_of(const struct rb_msg_conn *m, uint32_t k, uint8_t *list, uint32_t *first,
		    uint32_t *n)
{
	uint32_t total = m->nmr;

	*list = RB_LIST_MR;
	if (k < more_of(m->nqp)) {
		*list = RB_LIST_QP;
		total = m->nqp;
	} else {
		k -= more_of(m->nqp);
		if (k >= more_of(m->nmr))
			return -EINVAL;
	}
	*first = (k + 1) * RB_CONN_CHUNK;
	*n = first_chunk(total - *first);
	return 0;
}

int rb_pack_conn_more(const struct rb_msg_conn *m, uint32_t k, uint8_t *buf, size_t cap)
{
	struct cur c = wcur(buf, cap);
	uint32_t i, first, n;
	uint8_t list;

	if (chunk_of(m, k, &list, &first, &n))
		return -EMSGSIZE;
	put_be(&c, list, 1);
	put_be(&c, first, 4);
	put_be(&c, n, 4);
	for (i = first; i < first + n; i++)
		if (list == RB_LIST_QP)
			put_qp(&c, &m->qp[i]);
		else
			put_mr(&c, &m->mr[i]);
	return wdone(&c);
}

int rb_unpack_conn_more(const uint8_t *buf, size_t len, struct rb_msg_conn *m, uint32_t k)
{
	struct cur c = rcur(buf, len);
	uint32_t i, first, n;
	uint8_t list;

	if (!m->qp || !m->mr || chunk_of(m, k, &list, &first, &n))
		return -EBADMSG;
	if (get_be(&c, 1) != list || get_be(&c, 4) != first || get_be(&c, 4) != n || c.err)
		return -EBADMSG;
	for (i = first; i < first + n; i++)
		if (list == RB_LIST_QP)
			get_qp(&c, &m->qp[i]);
		else
			get_mr(&c, &m->mr[i]);
	return rdone(&c);
}

int rb_pack_data(const struct rb_msg_data *m, uint8_t *buf, size_t cap)
{
	struct cur c = wcur(buf, cap);

	put_be(&c, m->port, 2);
	put_be(&c, m->sndbuf, 4);
	put_be(&c, m->rcvbuf, 4);
	put_be(&c, m->mss, 4);
	put_be(&c, m->nodelay, 1);
	PUT_STR(&c, m->ifname);
	put_place(&c, &m->place);
	return wdone(&c);
}

int rb_unpack_data(const uint8_t *buf, size_t len, struct rb_msg_data *m)
{
	struct cur c = rcur(buf, len);

	memset(m, 0, sizeof(*m));
	m->port = (uint16_t)get_be(&c, 2);
	m->sndbuf = (uint32_t)get_be(&c, 4);
	m->rcvbuf = (uint32_t)get_be(&c, 4);
	m->mss = (uint32_t)get_be(&c, 4);
	m->nodelay = (uint8_t)get_be(&c, 1);
	GET_STR(&c, m->ifname);
	get_place(&c, &m->place);
	return m->nodelay > 1 ? -EBADMSG : rdone(&c);
}

int rb_pack_sync(const struct rb_msg_sync *m, uint8_t *buf, size_t cap)
{
	struct cur c = wcur(buf, cap);

	put_be(&c, m->point, 4);
	put_be(&c, m->what, 4);
	put_be(&c, m->count, 8);
	return wdone(&c);
}

int rb_unpack_sync(const uint8_t *buf, size_t len, struct rb_msg_sync *m)
{
	struct cur c = rcur(buf, len);

	m->point = (uint32_t)get_be(&c, 4);
	m->what = (uint32_t)get_be(&c, 4);
	m->count = get_be(&c, 8);
	return rdone(&c);
}

int rb_pack_result(const struct rb_msg_result *m, uint8_t *buf, size_t cap)
{
	struct cur c = wcur(buf, cap);

	put_be(&c, m->point, 4);
	put_be(&c, (uint32_t)m->status, 4);
	put_be(&c, m->iters, 8);
	put_double(&c, m->bw_avg_gbps);
	put_double(&c, m->cpu_util_pct);
	put_double(&c, m->bw_peak_gbps);
	put_double(&c, m->msg_rate_mpps);
	put_double(&c, m->duration_s);
	put_be(&c,
	       (uint64_t)m->has_lat | (uint64_t)m->lat.bucketed << 1 |
		       (uint64_t)m->has_wr_lat << 2 |
		       (uint64_t)(m->has_wr_lat && m->wr_lat.bucketed) << 3 |
		       (uint64_t)m->has_setup << 4 | (uint64_t)m->has_wakeups << 5,
	       1);
	put_lat(&c, &m->lat);
	/* v12: the server's --wr-lat summary, when it streamed (--reversed). */
	if (m->has_wr_lat) {
		put_be(&c, m->wr_lat_n, 8);
		put_lat(&c, &m->wr_lat);
	}
	/* v14: the server's setup figures. */
	if (m->has_setup) {
		put_be(&c, m->setup_qps, 4);
		put_double(&c, m->setup_create_ms);
		put_double(&c, m->setup_connect_ms);
	}
	/* v15: the server's wake-ups (--poll event). */
	if (m->has_wakeups)
		put_be(&c, m->wakeups, 8);
	return wdone(&c);
}

int rb_unpack_result(const uint8_t *buf, size_t len, struct rb_msg_result *m)
{
	struct cur c = rcur(buf, len);
	uint32_t flags;

	m->point = (uint32_t)get_be(&c, 4);
	m->status = (int32_t)get_be(&c, 4);
	m->iters = get_be(&c, 8);
	m->bw_avg_gbps = get_double(&c);
	m->cpu_util_pct = get_double(&c);
	m->bw_peak_gbps = get_double(&c);
	m->msg_rate_mpps = get_double(&c);
	m->duration_s = get_double(&c);
	flags = (uint32_t)get_be(&c, 1);
	m->has_lat = flags & 1;
	get_lat(&c, &m->lat);
	m->lat.bucketed = flags & 2;
	m->has_wr_lat = flags & 4;
	m->wr_lat_n = 0;
	memset(&m->wr_lat, 0, sizeof(m->wr_lat));
	if (m->has_wr_lat) {
		m->wr_lat_n = get_be(&c, 8);
		get_lat(&c, &m->wr_lat);
		m->wr_lat.bucketed = flags & 8;
	}
	m->has_setup = flags & 16;
	m->setup_qps = 0;
	m->setup_create_ms = m->setup_connect_ms = 0;
	if (m->has_setup) {
		m->setup_qps = (uint32_t)get_be(&c, 4);
		m->setup_create_ms = get_double(&c);
		m->setup_connect_ms = get_double(&c);
	}
	m->has_wakeups = flags & 32;
	m->wakeups = m->has_wakeups ? get_be(&c, 8) : 0;
	/* Unknown flag bits are a newer peer's meaning, and a summary's
	 * bucketed bit without it is meaningless: refused, not guessed. */
	return flags > 63 || (flags & 12) == 8 ? -EBADMSG : rdone(&c);
}

int rb_pack_text(const struct rb_msg_text *m, uint8_t *buf, size_t cap)
{
	struct cur c = wcur(buf, cap);

	PUT_STR(&c, m->text);
	return wdone(&c);
}

int rb_unpack_text(const uint8_t *buf, size_t len, struct rb_msg_text *m)
{
	struct cur c = rcur(buf, len);

	GET_STR(&c, m->text);
	return rdone(&c);
}

int rb_pack_blob(const char *s, size_t n, uint8_t *buf, size_t cap)
{
	struct cur c = wcur(buf, cap);

	if (n > RB_WIRE_MAX_BODY - 4 || memchr(s, '\0', n))
		return -EMSGSIZE;
	put_be(&c, n, 4);
	put_bytes(&c, s, n);
	return wdone(&c);
}

int rb_unpack_blob(const uint8_t *buf, size_t len, const char **p, size_t *n)
{
	struct cur c = rcur(buf, len);
	size_t k = (size_t)get_be(&c, 4);

	*p = NULL;
	*n = 0;
	if (c.err || !room(&c, k) || memchr(buf + 4, '\0', k))
		return -EBADMSG;
	*p = (const char *)buf + 4;
	*n = k;
	c.off += k;
	return rdone(&c);
}

const char *rb_msg_name(uint16_t type)
{
	static const char *const names[] = { "?",      "HELLO",	 "PARAMS",    "CONN", "SYNC",
					     "RESULT", "ERROR",	 "BYE",	      "OK",   "COUNTERS",
					     "DATA",   "DOCTOR", "CONN_MORE", "AUTH" };

	if (type < sizeof(names) / sizeof(names[0]))
		return names[type];
	return rb_mx_msg_name(type) ? rb_mx_msg_name(type) : "unknown";
}

const char *rb_msg_type_str(uint16_t type, char *buf, size_t len)
{
	const char *name = rb_msg_name(type);

	if (type && strcmp(name, "unknown"))
		return name;
	snprintf(buf, len, "message type %u", type);
	return buf;
}
