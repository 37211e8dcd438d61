// SPDX-License-Identifier: MIT
/*
 * Connecting a session's QPs: each side's CONN (QPs, memory, placement),
 * the path both can take, then the QPs moved to RTS (or the CM with -R).
 */
#include "core/ident.h"
#include "session/session_int.h"

/* ---- connection ----------------------------------------------------- */

int sess_send_body(struct session *s, uint16_t type, int len)
{
	if (len < 0) {
		rb_err("%s message does not fit", rb_msg_name(type));
		return len;
	}
	return rb_oob_send(&s->oob, type, sess_msg, (uint32_t)len);
}

static int local_conn(struct session *s, struct rb_msg_conn *m)
{
	struct rb_conn *cn = &s->conn;
	uint32_t i;

	memset(m, 0, sizeof(*m));
	if (rb_conn_alloc(m, cn->nqp, cn->nmr)) {
		rb_err("no memory for the CONN of %u QPs", cn->nqp);
		return -ENOMEM;
	}
	m->mtu = rb_mtu_bytes(cn->dev.port_attr.active_mtu);
	m->max_rd_atom = (uint32_t)(cn->dev.attr.max_qp_rd_atom < cn->dev.attr.max_qp_init_rd_atom
					    ? cn->dev.attr.max_qp_rd_atom
					    : cn->dev.attr.max_qp_init_rd_atom);
	m->rkey = cn->mr[0]->rkey;
	m->addr = (uintptr_t)cn->buf;
	m->len = 2 * cn->region; /* per MR */
	m->nqp = cn->nqp;
	m->nmr = cn->nmr;
	snprintf(m->fp.kernel, sizeof(m->fp.kernel), "%.*s", (int)sizeof(m->fp.kernel) - 1,
		 rb_ident()->kernel);
	snprintf(m->fp.rdma_core, sizeof(m->fp.rdma_core), "%s", s->rep.rdma_core);
	snprintf(m->fp.fw_ver, sizeof(m->fp.fw_ver), "%s", s->rep.fw_ver);
	snprintf(m->fp.board_id, sizeof(m->fp.board_id), "%s", s->rep.board_id);
	m->fp.vendor_id = s->rep.vendor_id;
	m->fp.vendor_part_id = s->rep.vendor_part_id;
	m->fp.hw_ver = s->rep.hw_ver;
	snprintf(m->fp.pci, sizeof(m->fp.pci), "%s", s->rep.place.pci);
	m->fp.pcie = s->rep.place.pcie;
	for (i = 0; i < cn->nmr; i++)
		m->mr[i] = (struct rb_mr_info){ (uintptr_t)rb_conn_rx_of(cn, i), cn->mr[i]->rkey };
	for (i = 0; i < cn->nqp; i++)
		rb_qp_info(&cn->dev, cn->qp[i], (uint32_t)(lrand48() & 0xffffff), &m->qp[i]);
	m->place = s->rep.place;
	snprintf(m->device, sizeof(m->device), "%s", cn->dev.name);
	m->link_layer = cn->dev.port_attr.link_layer;
	m->transport = (uint8_t)cn->dev.tr->type;
	if (s->p.transport == RB_TR_DC) { /* the targets say their key */
		m->dc_role = s->role == RB_ROLE_SERVER ? RB_DC_TARGET : RB_DC_INITIATOR;
		m->dc_key = s->role == RB_ROLE_SERVER ? RB_DC_KEY : 0;
	}
	m->has_probe = sess_probing(s);
	if (sess_probing(s))
		rb_probe_info(&s->probe, &m->probe_qp);
	return 0;
}

/* MTU, reads in flight: what both ends can do, and what was asked. */
static const char *link_name(uint8_t ll)
{
	return ll == IBV_LINK_LAYER_ETHERNET ? "Ethernet (RoCE)" : rb_prov_link_layer_str(ll);
}

/* The name of transport @type on a port of link layer @ll. */
static const char *transport_name(uint8_t type, uint8_t ll)
{
	return rb_transport_label(rb_transport_of(type), ll == IBV_LINK_LAYER_ETHERNET);
}

/*
 * Ports of different transports (iWARP and RoCE share Ethernet) cannot
 * reach each other: said before the rest of the peer's CONN is judged by
 * this side's transport (its QP numbers).
 */
static int check_transport(struct session *s)
{
	struct rb_conn *cn = &s->conn;
	char dev[4 * sizeof(cn->remote.device)];

	if (cn->remote.transport == (uint8_t)cn->dev.tr->type)
		return 0;
	rb_escape(cn->remote.device, dev, sizeof(dev));
	rb_err("peer %s's %s is %s, but %s port %u here is %s: they cannot connect (both sides "
	       "need the same transport)",
	       s->oob.peer, dev, transport_name(cn->remote.transport, cn->remote.link_layer),
	       cn->dev.name, cn->dev.port,
	       transport_name((uint8_t)cn->dev.tr->type, cn->dev.port_attr.link_layer));
	s->usage = true;
	return -EPROTO;
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
	struct rb_conn *cn = &s->conn;
	uint32_t mtu = rb_min_u32(me->mtu, cn->remote.mtu);
	uint32_t rd = rb_min_u32(rb_min_u32(me->max_rd_atom, cn->remote.max_rd_atom), 255);
	char dev[4 * sizeof(cn->remote.device)], why[RB_TEXT_MAX];

	rb_escape(cn->remote.device, dev, sizeof(dev));
	if (cn->remote.link_layer != me->link_layer) {
		rb_err("peer %s's %s port is %s, but %s port %u here is %s: they cannot connect",
		       s->oob.peer, dev, link_name(cn->remote.link_layer), cn->dev.name,
		       cn->dev.port, link_name(me->link_layer));
		s->usage = true;
		return -EPROTO;
	}
	if (rb_conn_peer_check(me, &cn->remote, why, sizeof(why))) {
		rb_err("peer %s: %s", s->oob.peer, why);
		s->usage = true;
		return -EPROTO;
	}
	if (cn->remote.mtu != me->mtu && s->role == RB_ROLE_CLIENT)
		rb_info("peer %s's %s has an active MTU of %u, %s here %u: the path MTU is %u",
			s->oob.peer, dev, cn->remote.mtu, cn->dev.name, me->mtu, mtu);

	if (s->p.mtu && s->p.mtu > mtu && s->role == RB_ROLE_CLIENT)
		rb_info("--mtu %u: the ports' active MTU is %u; using %u", s->p.mtu, mtu, mtu);
	if (s->p.mtu)
		mtu = rb_min_u32(mtu, s->p.mtu);
	cn->path_mtu = rb_mtu_from_bytes(mtu);
	if (!cn->path_mtu) {
		rb_err("no path MTU from %u bytes (%s here %u, peer %s %u)", mtu, cn->dev.name,
		       me->mtu, s->oob.peer, cn->remote.mtu);
		return -EPROTO;
	}
	if (s->p.outstanding > rd && s->role == RB_ROLE_CLIENT)
		rb_info("-o/--outstanding %u: max_qp_rd_atom allows %u; clamped", s->p.outstanding,
			rd);
	if (s->p.outstanding && s->p.outstanding < rd)
		rd = s->p.outstanding;
	cn->rd_atom = (uint8_t)(rd ? rd : 1);
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

/* The CM's port: the OOB's, or the one above it where the CM's port is TCP's (iWARP). */
static uint16_t cm_port(const struct session *s)
{
	uint16_t port = (uint16_t)s->l->tcp_port;

	if (!s->conn.dev.tr->cm_on_tcp)
		return port;
	return port < UINT16_MAX ? (uint16_t)(port + 1) : (uint16_t)(port - 1);
}

/* -R: the CM connects the QPs; the server listens before it answers CONN. */
static int cm_connect(struct session *s)
{
	struct rb_conn *cn = &s->conn;
	struct rb_av *av = calloc(cn->nqp, sizeof(*av));
	struct rb_cm_conn c = { &cn->dev,
				cn->qp,
				cn->nqp,
				sess_qp_access(s),
				cn->path_mtu,
				cn->rd_atom,
				(struct sockaddr *)&s->local,
				av };
	uint32_t i;
	int ret;

	if (!av)
		return -ENOMEM;
	for (i = 0; i < cn->nqp; i++)
		av[i] = path_av(s, i);
	if (s->role == RB_ROLE_SERVER)
		ret = rb_cm_accept(&s->cm, &c);
	else
		ret = rb_cm_connect(&s->cm, s->l->host, cm_port(s), s->oob.timeout_ms, &c);
	free(av);
	return ret;
}

/*
 * -c DC: a server's targets to RTR; a client's initiators to RTS, each
 * aimed at the server's target of its index (its number in the peer's
 * QP list, the key in its CONN) through an address handle.
 */
static int dc_connect(struct session *s, const struct rb_msg_conn *me)
{
	struct rb_conn *cn = &s->conn;
	bool dct = s->role == RB_ROLE_SERVER;
	struct rb_av av;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < cn->nqp && !ret; i++) {
		av = path_av(s, i);
		if (!dct) {
			ret = rb_ah_create(&cn->dev, &cn->remote.qp[i], &av, &cn->ah[i]);
			s->peers[i] =
				(struct rb_qp_peer){ .ah = cn->ah[i], .dc_key = cn->remote.dc_key };
		}
		if (!ret)
			ret = rb_dc_connect(&cn->dev, cn->qp[i], dct, sess_qp_access(s),
					    me->qp[i].psn, &cn->remote.qp[i], cn->path_mtu,
					    cn->rd_atom, &av, dct ? NULL : &s->peers[i]);
	}
	return ret;
}

static int qp_connect(struct session *s, const struct rb_msg_conn *me)
{
	struct rb_conn *cn = &s->conn;
	struct rb_av av;
	uint32_t i;
	int ret = 0;

	if (s->p.use_cm)
		return cm_connect(s);
	if (s->p.transport == RB_TR_DC)
		return dc_connect(s, me);
	for (i = 0; i < cn->nqp && !ret; i++) {
		av = path_av(s, i);
		ret = rb_qp_connect(&cn->dev, cn->qp[i], sess_qp_access(s), me->qp[i].psn,
				    &cn->remote.qp[i], cn->path_mtu, cn->rd_atom, &av);
		if (!ret && rb_tr_datagram(s->p.transport))
			ret = rb_ah_create(&cn->dev, &cn->remote.qp[i], &av, &cn->ah[i]);
		if (!ret && s->peers) {
			s->peers[i] = (struct rb_qp_peer){ .ah = cn->ah[i],
							   .qpn = cn->remote.qp[i].qpn,
							   .qkey = RB_UD_QKEY };
			cn->qp[i]->qp_context = &s->peers[i];
		}
	}
	return ret;
}

/*
 * --probe: its QP over the first data QP's path; the server's echo runs
 * from here until the connection closes, the client's pings per point.
 */
static int probe_connect(struct session *s)
{
	struct rb_conn *cn = &s->conn;
	struct rb_av av = path_av(s, 0);
	/* The client placed its probe before HELLO (rb_client()). */
	int ret = s->role == RB_ROLE_SERVER ? sess_probe_place(s) : 0;

	if (!ret)
		ret = rb_probe_connect(&s->probe, &cn->remote.probe_qp, cn->path_mtu, &av);

	if (!ret && s->role == RB_ROLE_SERVER)
		ret = rb_probe_start(&s->probe);
	return ret;
}

/* -c DC: the peer made the other kind (the server targets, the client initiators). */
static int check_dc(struct session *s)
{
	static const char *const kinds[] = { "no DC QPs", "DC initiators", "DC targets" };
	const struct rb_msg_conn *c = &s->conn.remote;
	uint8_t want = s->p.transport != RB_TR_DC  ? RB_DC_NONE
		       : s->role == RB_ROLE_SERVER ? RB_DC_INITIATOR
						   : RB_DC_TARGET;

	if (c->dc_role == want)
		return 0;
	rb_err("peer %s made %s, but -c %s here needs %s", s->oob.peer,
	       c->dc_role <= RB_DC_TARGET ? kinds[c->dc_role] : "?",
	       rb_transport_name(s->p.transport), kinds[want]);
	return -EPROTO;
}

/*
 * The peer's CONN and its CONN_MORE messages, decoded and checked before
 * any of it reaches the verbs layer (an MTU of 0 there hangs rxe for a
 * minute); the counts against the plan before the rest is read.
 */
static int check_conn(struct session *s, const uint8_t *body, uint32_t len)
{
	struct rb_conn *cn = &s->conn;
	const struct rb_conn_want want = { cn->nqp, cn->nmr, 2 * cn->region, sess_probing(s),
					   cn->dev.tr->min_qpn };
	char err[RB_TEXT_MAX];
	uint32_t k;
	int ret;

	ret = rb_unpack_conn_why(body, len, &cn->remote, err, sizeof(err));
	if (ret) {
		rb_err("peer %s sent a %s CONN message: %s", s->oob.peer,
		       ret == -ENOTSUP ? "newer" : "malformed", err);
		return -EPROTO;
	}
	if (check_transport(s) || check_dc(s))
		return -EPROTO;
	if (rb_conn_counts(&cn->remote, &want, err, sizeof(err)))
		goto refused;
	for (k = 0; k < rb_conn_chunks(&cn->remote); k++) {
		ret = rb_oob_expect(&s->oob, RB_MSG_CONN_MORE, sess_msg, sizeof(sess_msg), &len);
		if (ret)
			return ret;
		if (rb_unpack_conn_more(sess_msg, len, &cn->remote, k)) {
			rb_err("peer %s sent a malformed or out-of-order CONN_MORE message (%u of "
			       "%u)",
			       s->oob.peer, k + 1, rb_conn_chunks(&cn->remote));
			return -EPROTO;
		}
	}
	if (!rb_conn_validate(&cn->remote, &want, err, sizeof(err)))
		return 0;
refused:
	rb_err("peer %s sent a CONN message this side refuses: %s", s->oob.peer, err);
	return -EPROTO;
}

/* This side's CONN, then the rest of its lists. */
static int send_conn(struct session *s, const struct rb_msg_conn *me)
{
	uint32_t k;
	int ret;

	ret = sess_send_body(s, RB_MSG_CONN, rb_pack_conn(me, sess_msg, sizeof(sess_msg)));
	for (k = 0; !ret && k < rb_conn_chunks(me); k++)
		ret = sess_send_body(s, RB_MSG_CONN_MORE,
				     rb_pack_conn_more(me, k, sess_msg, sizeof(sess_msg)));
	return ret;
}

static int exchange_conn(struct session *s, const struct rb_msg_conn *me)
{
	uint32_t len;
	int ret = 0;

	if (s->role == RB_ROLE_CLIENT)
		ret = send_conn(s, me);
	if (!ret)
		ret = rb_oob_expect(&s->oob, RB_MSG_CONN, sess_msg, sizeof(sess_msg), &len);
	if (!ret)
		ret = check_conn(s, sess_msg, len);
	if (!ret && s->role == RB_ROLE_SERVER && s->p.use_cm)
		ret = rb_cm_listen(&s->cm,
				   s->conn.dev.tr->cm_on_tcp ? (struct sockaddr *)&s->local : NULL,
				   cm_port(s), s->oob.timeout_ms);
	if (!ret && s->role == RB_ROLE_SERVER)
		ret = send_conn(s, me);
	return ret;
}

/* Both CONNs in hand: the path, then the QPs connected. */
static int connect_conn(struct session *s, const struct rb_msg_conn *me)
{
	struct rb_conn *cn = &s->conn;
	uint64_t t0;
	int ret;

	ret = negotiate(s, me);
	if (ret)
		return ret;
	s->rep.has_peer_place = true;
	s->rep.peer_place = cn->remote.place;
	s->rep.has_peer_fp = true;
	s->rep.peer_fp = cn->remote.fp;
	sess_warn_freq(s, "the peer's", &cn->remote.place);
	t0 = rb_now_ns();
	ret = qp_connect(s, me);
	if (!ret && s->rep.setup.on)
		s->rep.setup.connect_ms = (double)(rb_now_ns() - t0) / 1e6;
	s->rep.setup.cm_events = s->cm.events;
	if (!ret && sess_probing(s))
		ret = probe_connect(s);
	/* The run's copy of the connection, and the test's setup (receives). */
	return ret ? ret : rb_run_conn(s->run, cn);
}

int sess_exchange_conn(struct session *s)
{
	struct rb_msg_conn me;
	int ret;

	ret = local_conn(s, &me);
	if (!ret)
		ret = exchange_conn(s, &me);
	if (!ret)
		ret = connect_conn(s, &me);
	rb_conn_free(&me);
	return ret;
}

/* Server: its setup figures ride on every RESULT once its QPs connected. */
void sess_setup_put(const struct session *s, struct rb_msg_result *m)
{
	const struct rb_setup *su = &s->rep.setup;

	m->has_setup = su->on && su->connect_ms >= 0;
	m->setup_qps = su->qps;
	m->setup_create_ms = su->create_ms;
	m->setup_connect_ms = su->connect_ms;
}

/*
 * Client: the server's setup figures, kept for JSON setup.peer and the
 * table; figures that cannot be true (another QP count than the plan's,
 * a negative or endless time) are left out, said once.
 */
void sess_setup_take(struct session *s, const struct rb_msg_result *m)
{
	struct rb_setup *su = &s->rep.setup;

	if (!m->has_setup || su->peer_on)
		return;
	if (!rb_setup_check(m, s->conn.nqp)) {
		if (!s->setup_rejected)
			rb_warn("server %s reported setup figures that cannot be true (%u QPs, "
				"create %g ms, connect %g ms): left out",
				s->oob.peer, m->setup_qps, m->setup_create_ms, m->setup_connect_ms);
		s->setup_rejected = true;
		return;
	}
	su->peer_on = true;
	su->peer_qps = m->setup_qps;
	su->peer_create_ms = m->setup_create_ms;
	su->peer_connect_ms = m->setup_connect_ms;
}
