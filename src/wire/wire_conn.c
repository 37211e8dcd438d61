// SPDX-License-Identifier: MIT
/*
 * HELLO and CONN as keyed fields (wire v19, wire_keyed.h), and CONN's
 * continuation, CONN_MORE (fixed fields).  A field added to either is a
 * row below with the next free tag of its message, never a version step;
 * one the peer may ignore (a hint, a figure for the report) is .optional.
 * What the rows cannot say (a flag's range, the lists' counts, the DC
 * rules) is checked once all fields are in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wire/wire.h"
#include "wire/wire_keyed.h"

#define HELLO(f) offsetof(struct rb_msg_hello, f), sizeof(((struct rb_msg_hello *)0)->f)
#define CONN(f)	 offsetof(struct rb_msg_conn, f), sizeof(((struct rb_msg_conn *)0)->f)

static const struct rb_wfield hello_rows[] = {
	{ 1, RB_WK_STR, HELLO(tool_version), true, "tool_version", NULL },
	{ 2, RB_WK_STR, HELLO(test), false, "test", NULL },
	{ 3, RB_WK_STR, HELLO(host), true, "host", NULL },
	{ 4, RB_WK_STR, HELLO(boot_id), true, "boot_id", NULL },
	{ 5, RB_WK_STR, HELLO(cpus), true, "cpus", NULL },
	{ 6, RB_WK_U8, HELLO(auth), false, "auth", NULL },
	{ 7, RB_WK_BYTES, HELLO(nonce), false, "nonce", NULL },
};

static const struct rb_wset hello_set = { "HELLO", NULL, hello_rows,
					  sizeof(hello_rows) / sizeof(hello_rows[0]) };

int rb_pack_hello(const struct rb_msg_hello *m, uint8_t *buf, size_t cap)
{
	if (m->auth > 1)
		return -EMSGSIZE;
	return rb_wkeyed_pack(&hello_set, m, buf, cap);
}

int rb_unpack_hello_why(const uint8_t *buf, size_t len, struct rb_msg_hello *m, char *err,
			size_t errlen)
{
	int ret;

	memset(m, 0, sizeof(*m));
	ret = rb_wkeyed_unpack(&hello_set, buf, len, m, err, errlen);
	if (!ret && m->auth > 1)
		return rb_set_err(err, errlen, -EBADMSG, "HELLO's auth flag is %u, not 0 or 1",
				  m->auth);
	return ret;
}

int rb_unpack_hello(const uint8_t *buf, size_t len, struct rb_msg_hello *m)
{
	return rb_unpack_hello_why(buf, len, m, NULL, 0);
}

/* One QP's address: QPN, PSN, LID, GID (26 bytes). */
#define QP_LEN 26
#define MR_LEN 12

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

/* A list field: its whole count (u32), then its first RB_CONN_CHUNK entries. */
static bool qps_sent(const void *m)
{
	(void)m;
	return true;
}

static void qps_put(struct cur *c, const void *m)
{
	const struct rb_msg_conn *cn = m;
	uint32_t i;

	put_be(c, cn->nqp, 4);
	for (i = 0; i < first_chunk(cn->nqp); i++)
		put_qp(c, &cn->qp[i]);
}

/* A list's count from a value of @n bytes of entries of @size: 0 when it does not fit. */
static uint32_t list_count(struct cur *c, size_t n, size_t size)
{
	uint32_t k = (uint32_t)get_be(c, 4);

	if (c->err || k < 1 || k > RB_MAX_QPS || n != 4 + (size_t)first_chunk(k) * size)
		return 0;
	return k;
}

static int qps_get(struct cur *c, size_t n, void *m)
{
	struct rb_msg_conn *cn = m;
	uint32_t i;

	cn->nqp = list_count(c, n, QP_LEN);
	if (!cn->nqp)
		return -EBADMSG;
	cn->qp = calloc(cn->nqp, sizeof(*cn->qp));
	if (!cn->qp)
		return -ENOMEM;
	for (i = 0; i < first_chunk(cn->nqp); i++)
		get_qp(c, &cn->qp[i]);
	return 0;
}

static void mrs_put(struct cur *c, const void *m)
{
	const struct rb_msg_conn *cn = m;
	uint32_t i;

	put_be(c, cn->nmr, 4);
	for (i = 0; i < first_chunk(cn->nmr); i++)
		put_mr(c, &cn->mr[i]);
}

static int mrs_get(struct cur *c, size_t n, void *m)
{
	struct rb_msg_conn *cn = m;
	uint32_t i;

	cn->nmr = list_count(c, n, MR_LEN);
	if (!cn->nmr)
		return -EBADMSG;
	cn->mr = calloc(cn->nmr, sizeof(*cn->mr));
	if (!cn->mr)
		return -ENOMEM;
	for (i = 0; i < first_chunk(cn->nmr); i++)
		get_mr(c, &cn->mr[i]);
	return 0;
}

/* --probe's QP, sent when the sender has one. */
static bool probe_sent(const void *m)
{
	return ((const struct rb_msg_conn *)m)->has_probe;
}

static void probe_put(struct cur *c, const void *m)
{
	put_qp(c, &((const struct rb_msg_conn *)m)->probe_qp);
}

static int probe_get(struct cur *c, size_t n, void *m)
{
	struct rb_msg_conn *cn = m;

	if (n != QP_LEN)
		return -EBADMSG;
	cn->has_probe = 1;
	get_qp(c, &cn->probe_qp);
	return 0;
}

static const struct rb_wops qps = { "qps", qps_sent, qps_put, qps_get };
static const struct rb_wops mrs = { "mrs", qps_sent, mrs_put, mrs_get };
static const struct rb_wops probe = { "qp", probe_sent, probe_put, probe_get };

static const struct rb_wfield conn_rows[] = {
	{ 1, RB_WK_U32, CONN(mtu), false, "mtu", NULL },
	{ 2, RB_WK_U32, CONN(max_rd_atom), false, "max_rd_atom", NULL },
	{ 3, RB_WK_U32, CONN(rkey), false, "rkey", NULL },
	{ 4, RB_WK_U64, CONN(addr), false, "addr", NULL },
	{ 5, RB_WK_U64, CONN(len), false, "len", NULL },
	{ 6, RB_WK_CUSTOM, 0, 0, false, "qp", &qps },
	{ 7, RB_WK_CUSTOM, 0, 0, false, "mr", &mrs },
	{ 8, RB_WK_STR, CONN(device), true, "device", NULL },
	{ 9, RB_WK_U8, CONN(link_layer), false, "link_layer", NULL },
	{ 10, RB_WK_CUSTOM, 0, 0, false, "probe_qp", &probe },
	{ 11, RB_WK_U8, CONN(transport), false, "transport", NULL },
	{ 12, RB_WK_U8, CONN(dc_role), false, "dc_role", NULL },
	{ 13, RB_WK_U64, CONN(dc_key), false, "dc_key", NULL },
	/* Where the sender runs, for the report and the checks of its CPUs. */
	{ 16, RB_WK_U32, CONN(place.device_numa_node), true, "place.device_numa_node", NULL },
	{ 17, RB_WK_STR, CONN(place.cpus), true, "place.cpus", NULL },
	{ 18, RB_WK_U32, CONN(place.mem_node), true, "place.mem_node", NULL },
	{ 19, RB_WK_U32, CONN(place.local), true, "place.local", NULL },
	{ 20, RB_WK_U32, CONN(place.freq_cpu), true, "place.freq_cpu", NULL },
	{ 21, RB_WK_STR, CONN(place.governor), true, "place.governor", NULL },
	{ 22, RB_WK_U32, CONN(place.cpu_mhz), true, "place.cpu_mhz", NULL },
	/* What the sender runs (kernel, rdma-core, firmware, board, PCIe link). */
	{ 24, RB_WK_STR, CONN(fp.kernel), true, "fp.kernel", NULL },
	{ 25, RB_WK_STR, CONN(fp.rdma_core), true, "fp.rdma_core", NULL },
	{ 26, RB_WK_STR, CONN(fp.fw_ver), true, "fp.fw_ver", NULL },
	{ 27, RB_WK_STR, CONN(fp.board_id), true, "fp.board_id", NULL },
	{ 28, RB_WK_U32, CONN(fp.vendor_id), true, "fp.vendor_id", NULL },
	{ 29, RB_WK_U32, CONN(fp.vendor_part_id), true, "fp.vendor_part_id", NULL },
	{ 30, RB_WK_U32, CONN(fp.hw_ver), true, "fp.hw_ver", NULL },
	{ 31, RB_WK_STR, CONN(fp.pci), true, "fp.pci", NULL },
	{ 32, RB_WK_F64, CONN(fp.pcie.cur_gts), true, "fp.pcie.cur_gts", NULL },
	{ 33, RB_WK_F64, CONN(fp.pcie.max_gts), true, "fp.pcie.max_gts", NULL },
	{ 34, RB_WK_U32, CONN(fp.pcie.cur_width), true, "fp.pcie.cur_width", NULL },
	{ 35, RB_WK_U32, CONN(fp.pcie.max_width), true, "fp.pcie.max_width", NULL },
};

static const struct rb_wset conn_set = { "CONN", NULL, conn_rows,
					 sizeof(conn_rows) / sizeof(conn_rows[0]) };

/* What no row says: a flag's range, the DC rules. */
static bool conn_ok(const struct rb_msg_conn *m)
{
	return m->has_probe <= 1 && m->dc_role <= RB_DC_TARGET &&
	       (!m->dc_key || m->dc_role == RB_DC_TARGET);
}

int rb_pack_conn(const struct rb_msg_conn *m, uint8_t *buf, size_t cap)
{
	if (!counts_ok(m->nqp, m->nmr) || !m->qp || !m->mr || !conn_ok(m))
		return -EMSGSIZE;
	return rb_wkeyed_pack(&conn_set, m, buf, cap);
}

int rb_unpack_conn_why(const uint8_t *buf, size_t len, struct rb_msg_conn *m, char *err,
		       size_t errlen)
{
	int ret;

	memset(m, 0, sizeof(*m));
	ret = rb_wkeyed_unpack(&conn_set, buf, len, m, err, errlen);
	if (!ret && (!m->qp || !m->mr))
		ret = rb_set_err(err, errlen, -EBADMSG, "CONN without its %s list",
				 m->qp ? "MR" : "QP");
	else if (!ret && !counts_ok(m->nqp, m->nmr))
		ret = rb_set_err(err, errlen, -EBADMSG, "CONN of %u MRs for %u QPs", m->nmr,
				 m->nqp);
	else if (!ret && (m->mr[0].addr != m->addr || m->mr[0].rkey != m->rkey))
		ret = rb_set_err(err, errlen, -EBADMSG,
				 "CONN's first MR is not the one its rkey and addr name");
	else if (!ret && !conn_ok(m))
		ret = rb_set_err(err, errlen, -EBADMSG, "CONN's DC role %u with key %s", m->dc_role,
				 m->dc_key ? "set" : "none");
	if (ret)
		rb_conn_free(m);
	return ret;
}

int rb_unpack_conn(const uint8_t *buf, size_t len, struct rb_msg_conn *m)
{
	return rb_unpack_conn_why(buf, len, m, NULL, 0);
}

void rb_wire_list(FILE *f)
{
	rb_wire_plan_list_as(f, "PARAMS");
	rb_wkeyed_list(&hello_set, f, "HELLO");
	rb_wkeyed_list(&conn_set, f, "CONN");
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
