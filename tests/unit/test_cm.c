// SPDX-License-Identifier: MIT
/*
 * Unit tests for src/rdma/cm.c (-R, and every iWARP run) against a
 * scripted librdmacm (-Wl,--wrap, Makefile.am): each test lists the CM
 * events the kernel would deliver, as the fake provider's personality
 * (fake_verbs.h) says its CM answers, and checks which QP states the
 * client and the server moved their QP to.
 *
 *  - FAKE_ROCE: a connect answered by CONNECT_RESPONSE; the client moves
 *    its QP INIT, RTR, RTS and calls rdma_establish(); the server moves
 *    INIT, RTR, RTS before it accepts.
 *  - FAKE_IWARP: the kernel turns the peer's reply straight into
 *    ESTABLISHED (there is no CONNECT_RESPONSE) and moves the QP to RTS
 *    itself; its CM has attributes for INIT and RTR only.  The client
 *    takes ESTABLISHED as the answer and moves nothing past INIT; the
 *    server the same before it accepts.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake_verbs.h"
#include "rdma/cm.h"

#define MAX_EV 8

static struct {
	const struct fake_xport_persona *p;
	int pipe[2];
	struct rdma_event_channel ch;
	struct rdma_cm_id ids[4];
	int nids;
	struct ibv_device dev;
	struct ibv_context ctx;
	int script[MAX_EV]; /* the events the kernel delivers, in order */
	int nscript, next;
	struct rdma_cm_event ev;
	uint32_t index_be; /* a CONNECT_REQUEST's private data: QP 0 */
	enum ibv_qp_state moved[8];
	int nmoved;
	int establish, accept, connect;
} cm;

struct rdma_event_channel *__wrap_rdma_create_event_channel(void);
int __wrap_rdma_create_id(struct rdma_event_channel *ch, struct rdma_cm_id **id, void *ctx,
			  enum rdma_port_space ps);
int __wrap_rdma_set_option(struct rdma_cm_id *id, int level, int name, void *val, size_t len);
int __wrap_rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src, struct sockaddr *dst,
			     int ms);
int __wrap_rdma_resolve_route(struct rdma_cm_id *id, int ms);
int __wrap_rdma_get_cm_event(struct rdma_event_channel *ch, struct rdma_cm_event **ev);
int __wrap_rdma_ack_cm_event(struct rdma_cm_event *ev);
int __wrap_rdma_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *a, int *mask);
int __wrap_rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *p);
int __wrap_rdma_establish(struct rdma_cm_id *id);
int __wrap_rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *p);
int __wrap_rdma_reject(struct rdma_cm_id *id, const void *data, uint8_t len);
int __wrap_rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *a);
int __wrap_rdma_listen(struct rdma_cm_id *id, int backlog);
int __wrap_rdma_destroy_id(struct rdma_cm_id *id);
void __wrap_rdma_destroy_event_channel(struct rdma_event_channel *ch);
int __wrap_ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask);

struct rdma_event_channel *__wrap_rdma_create_event_channel(void)
{
	cm.ch.fd = cm.pipe[0]; /* always readable: the script says what comes */
	return &cm.ch;
}

int __wrap_rdma_create_id(struct rdma_event_channel *ch, struct rdma_cm_id **id, void *ctx,
			  enum rdma_port_space ps)
{
	struct rdma_cm_id *x;

	(void)ctx;
	(void)ps;
	assert_true(cm.nids < 4);
	x = &cm.ids[cm.nids++];
	x->channel = ch;
	x->verbs = &cm.ctx;
	x->port_num = 1;
	*id = x;
	return 0;
}

int __wrap_rdma_set_option(struct rdma_cm_id *id, int level, int name, void *val, size_t len)
{
	(void)id, (void)level, (void)name, (void)val, (void)len;
	return 0;
}

int __wrap_rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src, struct sockaddr *dst,
			     int ms)
{
	(void)id, (void)src, (void)dst, (void)ms;
	return 0;
}

int __wrap_rdma_resolve_route(struct rdma_cm_id *id, int ms)
{
	(void)id, (void)ms;
	return 0;
}

/* The script's next event, on the newest id (the server's: the request's own). */
int __wrap_rdma_get_cm_event(struct rdma_event_channel *ch, struct rdma_cm_event **ev)
{
	(void)ch;
	if (cm.next >= cm.nscript) {
		errno = EAGAIN;
		return -1;
	}
	memset(&cm.ev, 0, sizeof(cm.ev));
	cm.ev.event = (enum rdma_cm_event_type)cm.script[cm.next++];
	if (cm.ev.event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		assert_true(cm.nids < 4);
		cm.ids[cm.nids].verbs = &cm.ctx;
		cm.ids[cm.nids].port_num = 1;
		cm.ev.id = &cm.ids[cm.nids++];
		cm.index_be = htonl(0);
		cm.ev.param.conn.private_data = &cm.index_be;
		cm.ev.param.conn.private_data_len = sizeof(cm.index_be);
	} else {
		cm.ev.id = &cm.ids[cm.nids - 1];
	}
	*ev = &cm.ev;
	return 0;
}

int __wrap_rdma_ack_cm_event(struct rdma_cm_event *ev)
{
	(void)ev;
	return 0;
}

/* The personality's CM computes attributes up to its last state (iWARP: RTR). */
int __wrap_rdma_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *a, int *mask)
{
	(void)id;
	if (a->qp_state > cm.p->cm_last_state) {
		errno = EINVAL;
		return -1;
	}
	*mask = IBV_QP_STATE;
	if (a->qp_state == IBV_QPS_INIT)
		*mask |= IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
	if (a->qp_state == IBV_QPS_RTR) {
		a->path_mtu = IBV_MTU_1024;
		*mask |= IBV_QP_PATH_MTU | IBV_QP_AV | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	if (a->qp_state == IBV_QPS_RTS)
		*mask |= IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			 IBV_QP_MAX_QP_RD_ATOMIC;
	return 0;
}

int __wrap_rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *p)
{
	(void)id;
	assert_int_equal(p->qp_num, cm.p->first_qpn);
	cm.connect++;
	return 0;
}

int __wrap_rdma_establish(struct rdma_cm_id *id)
{
	(void)id;
	cm.establish++;
	return 0;
}

int __wrap_rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *p)
{
	(void)id;
	assert_int_equal(p->qp_num, cm.p->first_qpn);
	cm.accept++;
	return 0;
}

int __wrap_rdma_reject(struct rdma_cm_id *id, const void *data, uint8_t len)
{
	(void)id, (void)data, (void)len;
	return 0;
}

int __wrap_rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *a)
{
	(void)id, (void)a;
	return 0;
}

int __wrap_rdma_listen(struct rdma_cm_id *id, int backlog)
{
	(void)id, (void)backlog;
	return 0;
}

int __wrap_rdma_destroy_id(struct rdma_cm_id *id)
{
	(void)id;
	return 0;
}

void __wrap_rdma_destroy_event_channel(struct rdma_event_channel *ch)
{
	(void)ch;
}

int __wrap_ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
	(void)qp;
	assert_true(mask & IBV_QP_STATE);
	assert_true(cm.nmoved < 8);
	cm.moved[cm.nmoved++] = a->qp_state;
	return 0;
}

/* A fresh scripted CM for a device of personality @p. */
static void persona(enum fake_personality p, const int *script, int n)
{
	close(cm.pipe[0]);
	close(cm.pipe[1]);
	memset(&cm, 0, sizeof(cm));
	assert_int_equal(pipe(cm.pipe), 0);
	assert_int_equal(write(cm.pipe[1], "e", 1), 1);
	cm.p = fake_xport(p);
	snprintf(cm.dev.name, sizeof(cm.dev.name), "%s", cm.p->name);
	cm.dev.transport_type = cm.p->transport;
	cm.ctx.device = &cm.dev;
	memcpy(cm.script, script, (size_t)n * sizeof(*script));
	cm.nscript = n;
}

/* Run one QP's connection as @role on the scripted CM; its result. */
static int run(bool server)
{
	struct rb_dev d = { .port = 1 };
	struct ibv_qp qp = { .qp_num = cm.p->first_qpn, .qp_type = IBV_QPT_RC };
	struct ibv_qp *qps[1] = { &qp };
	struct rb_av av = { .qp = { .hop_limit = RB_HOP_LIMIT_DEFAULT } };
	struct rb_cm c = { 0 };
	struct rb_cm_conn conn = { &d, qps, 1, IBV_ACCESS_REMOTE_WRITE, IBV_MTU_1024, 1, NULL, &av };
	int ret;

	snprintf(d.name, sizeof(d.name), "%s", cm.p->name);
	d.tr = rb_transport_of(cm.p->transport);
	if (server) {
		ret = rb_cm_listen(&c, NULL, 18516, 1000);
		if (!ret)
			ret = rb_cm_accept(&c, &conn);
	} else {
		ret = rb_cm_connect(&c, "192.0.2.1", 18516, 1000, &conn);
	}
	rb_cm_close(&c);
	return ret;
}

static void roce_connect_response(void **state)
{
	static const int ev[] = { RDMA_CM_EVENT_ADDR_RESOLVED, RDMA_CM_EVENT_ROUTE_RESOLVED,
				  RDMA_CM_EVENT_CONNECT_RESPONSE };

	(void)state;
	persona(FAKE_ROCE, ev, 3);
	assert_int_equal(run(false), 0);
	assert_int_equal(cm.nmoved, 3);
	assert_int_equal(cm.moved[0], IBV_QPS_INIT);
	assert_int_equal(cm.moved[1], IBV_QPS_RTR);
	assert_int_equal(cm.moved[2], IBV_QPS_RTS);
	assert_int_equal(cm.connect, 1);
	assert_int_equal(cm.establish, 1);
	assert_int_equal(cm.next, 3);
}

/* iWARP: ESTABLISHED answers the connect; the kernel moved the QP past INIT. */
static void iwarp_established_without_response(void **state)
{
	static const int ev[] = { RDMA_CM_EVENT_ADDR_RESOLVED, RDMA_CM_EVENT_ROUTE_RESOLVED,
				  RDMA_CM_EVENT_ESTABLISHED };

	(void)state;
	persona(FAKE_IWARP, ev, 3);
	assert_int_equal(run(false), 0);
	assert_int_equal(cm.nmoved, 1);
	assert_int_equal(cm.moved[0], IBV_QPS_INIT);
	assert_int_equal(cm.connect, 1);
	assert_int_equal(cm.establish, 0);
	assert_int_equal(cm.next, 3);
}

/* A RoCE connect answered by ESTABLISHED alone is still an error, named. */
static void roce_established_refused(void **state)
{
	static const int ev[] = { RDMA_CM_EVENT_ADDR_RESOLVED, RDMA_CM_EVENT_ROUTE_RESOLVED,
				  RDMA_CM_EVENT_ESTABLISHED };

	(void)state;
	persona(FAKE_ROCE, ev, 3);
	rb_last_error[0] = '\0';
	assert_int_equal(run(false), -ECONNREFUSED);
	assert_non_null(strstr(rb_last_error, "while waiting for RDMA_CM_EVENT_CONNECT_RESPONSE"));
}

static void roce_accept(void **state)
{
	static const int ev[] = { RDMA_CM_EVENT_CONNECT_REQUEST, RDMA_CM_EVENT_ESTABLISHED };

	(void)state;
	persona(FAKE_ROCE, ev, 2);
	assert_int_equal(run(true), 0);
	assert_int_equal(cm.nmoved, 3);
	assert_int_equal(cm.moved[2], IBV_QPS_RTS);
	assert_int_equal(cm.accept, 1);
}

/* iWARP's server: INIT, accept; the CM moves the QP (its RTS attributes do not exist). */
static void iwarp_accept(void **state)
{
	static const int ev[] = { RDMA_CM_EVENT_CONNECT_REQUEST, RDMA_CM_EVENT_ESTABLISHED };

	(void)state;
	persona(FAKE_IWARP, ev, 2);
	assert_int_equal(run(true), 0);
	assert_int_equal(cm.nmoved, 1);
	assert_int_equal(cm.moved[0], IBV_QPS_INIT);
	assert_int_equal(cm.accept, 1);
	assert_int_equal(cm.next, 2);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(roce_connect_response),
		cmocka_unit_test(iwarp_established_without_response),
		cmocka_unit_test(roce_established_refused),
		cmocka_unit_test(roce_accept),
		cmocka_unit_test(iwarp_accept),
	};

	cm.pipe[0] = cm.pipe[1] = -1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
