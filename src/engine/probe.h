/* SPDX-License-Identifier: MIT */
/*
 * --probe: latency under load.  Beside a bandwidth test's stream, on an
 * RC QP and a small CQ of its own over the same device and path, the
 * client sends an 8-byte SEND (a sequence number) at a fixed rate and the
 * server echoes it; a round trip is from the ping's post to the echo's
 * receive completion, in ticks of the loops' clock (core/clock.h).  Each
 * point measures the probe alone before the stream (idle) and beside it
 * (loaded).  The probe waits on its CQ's completion channel (it sleeps
 * between pings), in a thread of its own on each side while the stream
 * runs, so the stream's loop is the same with or without it.
 */
#ifndef RB_PROBE_H
#define RB_PROBE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/stats.h"
#include "rdma/verbs.h"
#include "wire/wire.h"

#define RB_PROBE_MSG	  8		/* bytes of a ping: its sequence number */
#define RB_PROBE_DEPTH	  16		/* receives kept posted, sends in flight at most */
#define RB_PROBE_SLOT	  64		/* bytes per receive slot in the probe's buffer */
#define RB_PROBE_IDLE_MIN 20		/* idle round trips per point, at least ... */
#define RB_PROBE_IDLE_MAX 200		/* ... at most, and 0.2 s worth between */
#define RB_PROBE_WAIT_MS  10		/* longest sleep on the channel: how soon a stop is seen */
#define RB_PROBE_LOST_NS  1000000000ULL /* an echo later than this is lost */
#define RB_PROBE_LOST_MAX 3		/* so many lost in a row: the probe fails */

struct rb_probe {
	struct rb_dev *dev;
	bool server;
	uint32_t rate; /* pings per second (client) */
	struct ibv_comp_channel *chan;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf; /* RB_PROBE_DEPTH receive slots, then the send slot */
	uint32_t psn;
	bool armed;	      /* the CQ is armed, its event not yet taken */
	unsigned int unacked; /* events taken, not acked */
	uint32_t sends;	      /* sends posted, not completed */
	uint64_t seq;	      /* the last ping's number */
	uint64_t lost;	      /* pings whose echo did not come in time */
	uint32_t lost_run;    /* ... of the last ones in a row */
	/* The thread: the client's idle and loaded phases, or the server's
	 * echo; on CPU cpu (rb_probe_place(), -1: where the stream may run). */
	pthread_t th;
	int cpu;
	bool idle_phase;
	bool running;
	int stop; /* read and written atomically */
	int status;
	/* The point's round trips (ticks), and each phase's clock marks. */
	struct rb_samples idle, loaded;
	uint64_t idle_k[2], idle_t[2], load_k[2], load_t[2];
};

/*
 * rb_probe_idle_count() - idle round trips per point at @rate Hz: 0.2 s
 * worth, RB_PROBE_IDLE_MIN..RB_PROBE_IDLE_MAX.  Pure.
 */
uint32_t rb_probe_idle_count(uint32_t rate);

/* rb_probe_period_ns() - ns between pings at @rate Hz (0: the default). Pure. */
uint64_t rb_probe_period_ns(uint32_t rate);

/*
 * rb_probe_next() - when the ping after one due at @due goes, the clock
 * being @now (ns): a period later, or now when the probe fell behind by
 * more than a period (a round trip longer than it: no burst to catch
 * up).  Pure.
 */
uint64_t rb_probe_next(uint64_t due, uint64_t now, uint64_t period);

/*
 * rb_probe_summary() - the round trips in @s (ticks) over a phase that
 * took @k ticks and @ns nanoseconds, in microseconds; -EINVAL when there
 * is none (or no time passed).  Pure.
 */
int rb_probe_summary(struct rb_samples *s, uint64_t k, uint64_t ns, struct rb_lat_summary *out);

/* rb_probe_open() - the probe's channel, CQ, QP and buffer on @d. 0 or -errno, logged. */
int rb_probe_open(struct rb_probe *pr, struct rb_dev *d, bool server, uint32_t rate);

/* rb_probe_info() - what the peer needs to reach the probe's QP. */
void rb_probe_info(const struct rb_probe *pr, struct rb_qp_info *out);

/* rb_probe_connect() - the QP to RTS towards @remote, receives posted. */
int rb_probe_connect(struct rb_probe *pr, const struct rb_qp_info *remote, enum ibv_mtu mtu,
		     const struct rb_av *av);

/* rb_probe_idle() - client: the point's idle phase, before its stream,
 * in the probe's thread (on its CPU), waited for. */
int rb_probe_idle(struct rb_probe *pr);

/* rb_probe_start() - the thread: the client's loaded phase, or the server's echo. */
int rb_probe_start(struct rb_probe *pr);

/* rb_probe_stop() - end the thread and wait for it: its status. */
int rb_probe_stop(struct rb_probe *pr);

/*
 * rb_probe_result() - client: the point's idle and loaded summaries into
 * @res (has_probe), the samples reset for the next point.
 */
void rb_probe_result(struct rb_probe *pr, struct rb_result *res);

/* rb_probe_close() - the thread stopped, everything freed. */
void rb_probe_close(struct rb_probe *pr);

#endif
