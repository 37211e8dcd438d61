// SPDX-License-Identifier: MIT
/* The wire tests' fixture (test_wire_*.c); wire_fx.h says what it holds. */
#include "wire_fx.h"

void wb_be(struct wb *w, uint64_t v, size_t n)
{
	size_t i;

	assert_true(w->n + n <= sizeof(w->b));
	for (i = 0; i < n; i++)
		w->b[w->n + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	w->n += n;
}

void wb_bytes(struct wb *w, const void *p, size_t n)
{
	assert_true(w->n + n <= sizeof(w->b));
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

void wb_str(struct wb *w, const char *s)
{
	wb_be(w, strlen(s), 2);
	wb_bytes(w, s, strlen(s));
}

void wb_key(struct wb *w, uint16_t tag, bool optional, size_t len)
{
	wb_be(w, tag | (optional ? 0 : 0x8000), 2);
	wb_be(w, len, 2);
}

const uint8_t *kfield(const uint8_t *b, size_t len, uint16_t tag, size_t *n)
{
	size_t at = 2, count = len >= 2 ? (size_t)(b[0] << 8 | b[1]) : 0;

	for (; count && at + 4 <= len; count--) {
		*n = (size_t)(b[at + 2] << 8 | b[at + 3]);
		if ((b[at] << 8 | b[at + 1]) == tag && at + 4 + *n <= len)
			return b + at + 4;
		at += 4 + *n;
	}
	return NULL;
}

uint8_t *dup_exact(const uint8_t *p, size_t len)
{
	uint8_t *q = malloc(len ? len : 1);

	assert_non_null(q);
	if (len)
		memcpy(q, p, len);
	return q;
}

int up_hello(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_hello(b, l, m);
}

int up_params(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_params(b, l, m);
}

int up_conn(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_conn(b, l, m);
}

int up_sync(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_sync(b, l, m);
}

int up_result(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_result(b, l, m);
}

int up_text(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_text(b, l, m);
}

int unpack_exact(unpack_fn fn, const uint8_t *p, size_t len)
{
	union any_msg m;
	uint8_t *q = dup_exact(p, len);
	int ret;

	memset(&m, 0xa5, sizeof(m));
	ret = fn(q, len, &m);
	if (!ret && fn == up_conn)
		rb_conn_free(&m.conn);
	free(q);
	return ret;
}

void check_truncations(unpack_fn fn, const uint8_t *body, size_t len, const char *what)
{
	size_t k;

	assert_int_equal(unpack_exact(fn, body, len), 0);
	for (k = 0; k < len; k++) {
		int ret = unpack_exact(fn, body, k);

		if (ret != -EBADMSG)
			print_error("%s truncated to %zu of %zu bytes returned %d\n", what, k, len,
				    ret);
		assert_int_equal(ret, -EBADMSG);
	}
}

void check_trailing(unpack_fn fn, const uint8_t *body, size_t len)
{
	uint8_t buf[BUFSZ];

	assert_true(len + 4 <= sizeof(buf));
	memcpy(buf, body, len);
	buf[len] = 0;
	assert_int_equal(unpack_exact(fn, buf, len + 1), -EBADMSG);
	memcpy(buf + len, "\x01\x02\x03\x04", 4);
	assert_int_equal(unpack_exact(fn, buf, len + 4), -EBADMSG);
}

void fill_axis(struct rb_axis *a, uint32_t n, uint64_t first, uint64_t step)
{
	uint32_t i;

	a->n = n;
	for (i = 0; i < n; i++)
		a->v[i] = first + step * i;
}

void sample_params(struct rb_params *p)
{
	memset(p, 0, sizeof(*p));
	strcpy(p->test, "write_bw");
	fill_axis(&p->size, 3, 0, 0);
	p->size.v[0] = 64;
	p->size.v[1] = 4096;
	p->size.v[2] = (1ULL << 40) + 3; /* needs all 64 bits of the field */
	fill_axis(&p->batch, 2, 1, 7);
	fill_axis(&p->signal, 4, 1, 16);
	fill_axis(&p->qps, 1, 8, 0);
	fill_axis(&p->tx_depth, 5, 128, 128);
	p->iters = 0x0123456789abcdefULL;
	p->duration_s = 3600;
	p->warmup = 5000000000ULL;
	p->rx_depth = 512;
	p->inline_size = 220;
	p->outstanding = 16;
	p->mtu = 4096;
	p->atomic_op = RB_OP_CSWAP;
	p->verify = 1;
	p->use_cm = 1;
	p->transport = RB_TR_UD;
	p->sl = 15;
	p->tclass = 0xb8;
	p->flow_label[0] = 0xfffff;
	p->nflow = 1;
	p->hugepages = 1;
	p->odp = 1;
	p->mr_per_qp = 1;
	p->srq = 1;
	p->threads = 4;
	p->thread = 3;
	p->bidir = 1;
	p->interval_ms = 86400000;
	p->forever = 1;
	p->rate_unit = RB_RATE_PPS;
	p->rate = 0xfedcba9876543210ULL; /* all 64 bits */
	p->run_id = 0x0123456789abcdefULL;
	p->recv_post_list = 64;
	p->reversed = 1;
	p->imm = 1;
	fill_axis(&p->poll, 2, RB_POLL_BUSY, 1);
	fill_axis(&p->cqe_poll, 3, 1, 15);
	p->probe = 1;
	p->probe_rate = 100000;
	p->wr_lat = 1;
	p->cq_per_qp = 1;
}

size_t params_len(const struct rb_params *p)
{
	const struct rb_axis *ax[] = { &p->size,     &p->batch, &p->signal,  &p->qps,
				       &p->tx_depth, &p->poll,	&p->cqe_poll };
	const uint64_t u64[] = { p->iters, p->warmup, p->rate, p->run_id };
	const uint32_t u32[] = { p->duration_s, p->rx_depth,	p->inline_size,	   p->outstanding,
				 p->mtu,	p->sl,		p->tclass,	   p->threads,
				 p->thread,	p->interval_ms, p->recv_post_list, p->probe_rate };
	const uint8_t u8[] = { p->atomic_op, p->verify,	 p->use_cm,    p->transport,
			       p->hugepages, p->odp,	 p->mr_per_qp, p->srq,
			       p->bidir,     p->forever, p->rate_unit, p->reversed,
			       p->imm,	     p->probe,	 p->wr_lat,    p->cq_per_qp };
	size_t n = 2, i;

	for (i = 0; i < 7; i++)
		n += ax[i]->n ? 4 + 8 * (size_t)ax[i]->n : 0;
	n += p->test[0] ? 4 + strlen(p->test) : 0;
	n += p->nflow ? 4 + 4 * (size_t)p->nflow : 0;
	for (i = 0; i < sizeof(u64) / sizeof(u64[0]); i++)
		n += u64[i] ? 4 + 8 : 0;
	for (i = 0; i < sizeof(u32) / sizeof(u32[0]); i++)
		n += u32[i] ? 4 + 4 : 0;
	for (i = 0; i < sizeof(u8); i++)
		n += u8[i] ? 4 + 1 : 0;
	return n;
}

void assert_axis_equal(const struct rb_axis *a, const struct rb_axis *b)
{
	uint32_t i;

	assert_int_equal(a->n, b->n);
	for (i = 0; i < a->n; i++)
		assert_int_equal(a->v[i], b->v[i]);
}

void assert_params_equal(const struct rb_params *a, const struct rb_params *b)
{
	assert_string_equal(a->test, b->test);
	assert_axis_equal(&a->size, &b->size);
	assert_axis_equal(&a->batch, &b->batch);
	assert_axis_equal(&a->signal, &b->signal);
	assert_axis_equal(&a->qps, &b->qps);
	assert_axis_equal(&a->tx_depth, &b->tx_depth);
	assert_int_equal(a->iters, b->iters);
	assert_int_equal(a->duration_s, b->duration_s);
	assert_int_equal(a->warmup, b->warmup);
	assert_int_equal(a->rx_depth, b->rx_depth);
	assert_int_equal(a->inline_size, b->inline_size);
	assert_int_equal(a->outstanding, b->outstanding);
	assert_int_equal(a->mtu, b->mtu);
	assert_int_equal(a->atomic_op, b->atomic_op);
	assert_int_equal(a->verify, b->verify);
	assert_int_equal(a->use_cm, b->use_cm);
	assert_int_equal(a->transport, b->transport);
	assert_int_equal(a->sl, b->sl);
	assert_int_equal(a->tclass, b->tclass);
	assert_int_equal(a->nflow, b->nflow);
	assert_memory_equal(a->flow_label, b->flow_label, a->nflow * sizeof(a->flow_label[0]));
	assert_int_equal(a->hugepages, b->hugepages);
	assert_int_equal(a->odp, b->odp);
	assert_int_equal(a->mr_per_qp, b->mr_per_qp);
	assert_int_equal(a->srq, b->srq);
	assert_int_equal(a->threads, b->threads);
	assert_int_equal(a->thread, b->thread);
	assert_int_equal(a->bidir, b->bidir);
	assert_int_equal(a->interval_ms, b->interval_ms);
	assert_int_equal(a->forever, b->forever);
	assert_int_equal(a->rate_unit, b->rate_unit);
	assert_int_equal(a->rate, b->rate);
	assert_int_equal(a->run_id, b->run_id);
	assert_int_equal(a->recv_post_list, b->recv_post_list);
	assert_int_equal(a->reversed, b->reversed);
	assert_int_equal(a->imm, b->imm);
	assert_axis_equal(&a->poll, &b->poll);
	assert_axis_equal(&a->cqe_poll, &b->cqe_poll);
	assert_int_equal(a->probe, b->probe);
	assert_int_equal(a->probe_rate, b->probe_rate);
	assert_int_equal(a->wr_lat, b->wr_lat);
	assert_int_equal(a->cq_per_qp, b->cq_per_qp);
}

void sample_conn(struct rb_msg_conn *c, uint32_t nqp)
{
	uint32_t i, j;

	memset(c, 0, sizeof(*c));
	assert_int_equal(rb_conn_alloc(c, nqp, nqp), 0);
	c->mtu = 4096;
	c->max_rd_atom = 16;
	c->rkey = 0xdeadbeef;
	c->addr = 0x00007f1234567000ULL;
	c->len = 3ULL << 30;
	c->nqp = nqp;
	for (i = 0; i < nqp; i++) {
		c->qp[i].qpn = 0x000100 + i * 0x11;
		c->qp[i].psn = 0xabcdef - i * 3;
		c->qp[i].lid = (uint16_t)(0x1000 + i);
		/* A RoCE v2 IPv4-mapped GID, distinct per QP in every byte run. */
		for (j = 0; j < 16; j++)
			c->qp[i].gid[j] = (uint8_t)(j * 17 + i * 31 + 1);
		c->qp[i].gid[10] = 0xff;
		c->qp[i].gid[11] = 0xff;
	}
	c->place.device_numa_node = -1;
	strcpy(c->place.cpus, "0-3 8");
	strcpy(c->device, "mlx5_0");
	c->link_layer = 1;
	c->transport = 1;	   /* v15: iWARP */
	c->dc_role = RB_DC_TARGET; /* v18: DCTs, and their key */
	c->dc_key = 0x1122334455667788ULL;
	c->place.mem_node = 1;
	c->place.local = 0;
	c->place.freq_cpu = 2;
	strcpy(c->place.governor, "powersave");
	c->place.cpu_mhz = 2400;
	/* One MR per QP (--mr-per-qp), the first the one rkey and addr name. */
	for (i = 0; i < c->nmr; i++)
		c->mr[i] = (struct rb_mr_info){ c->addr + i * 0x10000ULL, c->rkey + i };
}

/* A field's head and value, when it is sent. */
static size_t kn(bool sent, size_t n)
{
	return sent ? 4 + n : 0;
}

static size_t ks(const char *str)
{
	return kn(str[0], strlen(str));
}

size_t hello_len(const struct rb_msg_hello *h)
{
	static const uint8_t zero[32];

	return 2 + ks(h->tool_version) + ks(h->test) + ks(h->host) + ks(h->boot_id) + ks(h->cpus) +
	       kn(h->auth, 1) + kn(memcmp(h->nonce, zero, 32), 32);
}

size_t conn_len(const struct rb_msg_conn *c)
{
	/* The first RB_CONN_CHUNK of each list; CONN_MORE carries the rest. */
	size_t nqp = c->nqp < RB_CONN_CHUNK ? c->nqp : RB_CONN_CHUNK;
	size_t nmr = c->nmr < RB_CONN_CHUNK ? c->nmr : RB_CONN_CHUNK;
	const struct rb_placement *p = &c->place;
	const struct rb_fingerprint *f = &c->fp;

	return 2 + kn(c->mtu, 4) + kn(c->max_rd_atom, 4) + kn(c->rkey, 4) + kn(c->addr, 8) +
	       kn(c->len, 8) + 4 + 4 + 26 * nqp + 4 + 4 + 12 * nmr + ks(c->device) +
	       kn(c->link_layer, 1) + kn(c->has_probe, 26) + kn(c->transport, 1) +
	       kn(c->dc_role, 1) + kn(c->dc_key, 8) + kn(p->device_numa_node, 4) + ks(p->cpus) +
	       kn(p->mem_node, 4) + kn(p->local, 4) + kn(p->freq_cpu, 4) + ks(p->governor) +
	       kn(p->cpu_mhz, 4) + ks(f->kernel) + ks(f->rdma_core) + ks(f->fw_ver) +
	       ks(f->board_id) + kn(f->vendor_id, 4) + kn(f->vendor_part_id, 4) + kn(f->hw_ver, 4) +
	       ks(f->pci) + kn(f->pcie.cur_gts != 0, 8) + kn(f->pcie.max_gts != 0, 8) +
	       kn(f->pcie.cur_width, 4) + kn(f->pcie.max_width, 4);
}

void assert_conn_equal(const struct rb_msg_conn *a, const struct rb_msg_conn *b)
{
	uint32_t i;

	assert_int_equal(a->mtu, b->mtu);
	assert_int_equal(a->max_rd_atom, b->max_rd_atom);
	assert_int_equal(a->rkey, b->rkey);
	assert_int_equal(a->addr, b->addr);
	assert_int_equal(a->len, b->len);
	assert_int_equal(a->nqp, b->nqp);
	for (i = 0; i < a->nqp; i++) {
		assert_int_equal(a->qp[i].qpn, b->qp[i].qpn);
		assert_int_equal(a->qp[i].psn, b->qp[i].psn);
		assert_int_equal(a->qp[i].lid, b->qp[i].lid);
		assert_memory_equal(a->qp[i].gid, b->qp[i].gid, 16);
	}
	assert_int_equal(a->place.device_numa_node, b->place.device_numa_node);
	assert_string_equal(a->place.cpus, b->place.cpus);
	assert_string_equal(a->device, b->device);
	assert_int_equal(a->link_layer, b->link_layer);
	assert_int_equal(a->place.mem_node, b->place.mem_node);
	assert_int_equal(a->place.local, b->place.local);
	assert_int_equal(a->place.freq_cpu, b->place.freq_cpu);
	assert_string_equal(a->place.governor, b->place.governor);
	assert_int_equal(a->place.cpu_mhz, b->place.cpu_mhz);
	assert_int_equal(a->nmr, b->nmr);
	for (i = 0; i < a->nmr; i++) {
		assert_int_equal(a->mr[i].addr, b->mr[i].addr);
		assert_int_equal(a->mr[i].rkey, b->mr[i].rkey);
	}
	assert_int_equal(a->has_probe, b->has_probe);
	assert_int_equal(a->probe_qp.qpn, b->probe_qp.qpn);
	assert_int_equal(a->transport, b->transport);
	assert_int_equal(a->dc_role, b->dc_role);
	assert_int_equal(a->dc_key, b->dc_key);
	assert_int_equal(a->probe_qp.psn, b->probe_qp.psn);
	assert_int_equal(a->probe_qp.lid, b->probe_qp.lid);
	assert_memory_equal(a->probe_qp.gid, b->probe_qp.gid, 16);
	assert_string_equal(a->fp.kernel, b->fp.kernel);
	assert_string_equal(a->fp.rdma_core, b->fp.rdma_core);
	assert_string_equal(a->fp.fw_ver, b->fp.fw_ver);
	assert_string_equal(a->fp.board_id, b->fp.board_id);
	assert_int_equal(a->fp.vendor_id, b->fp.vendor_id);
	assert_int_equal(a->fp.vendor_part_id, b->fp.vendor_part_id);
	assert_int_equal(a->fp.hw_ver, b->fp.hw_ver);
	assert_string_equal(a->fp.pci, b->fp.pci);
	assert_true(a->fp.pcie.cur_gts == b->fp.pcie.cur_gts);
	assert_true(a->fp.pcie.max_gts == b->fp.pcie.max_gts);
	assert_int_equal(a->fp.pcie.cur_width, b->fp.pcie.cur_width);
	assert_int_equal(a->fp.pcie.max_width, b->fp.pcie.max_width);
}

void assert_double_bits(double got, double want)
{
	if (memcmp(&got, &want, sizeof(got))) {
		print_error("got %.17g, want %.17g\n", got, want);
		fail();
	}
}
