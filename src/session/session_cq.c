// SPDX-License-Identifier: MIT
/*
 * A connection's CQs (issue 40): the API they are polled through
 * (--cq-api), the completion vector each takes (-X, or spread by the
 * thread's CPU and index: topo's rb_vector_pick()), and their moderation
 * (--cq-moderation).  What was chosen goes to the report (JSON device.*).
 */
#include <errno.h>
#include <stdlib.h>

#include "core/cqmod.h"
#include "core/rdmabench.h"
#include "core/provider.h"
#include "rdma/cqx.h"
#include "topo/topo.h"
#include "session/session_int.h"

/* -X given, or the vector spread by this thread's CPU and index. */
static uint32_t pick_vector(struct session *s)
{
	struct rb_conn *cn = &s->conn;
	struct rb_irqs *q;
	uint32_t v;

	if (s->l->comp_vector != RB_VECTOR_SPREAD) {
		snprintf(s->rep.why_comp_vector, sizeof(s->rep.why_comp_vector), "-X/--vector %u",
			 s->l->comp_vector);
		return s->l->comp_vector;
	}
	/* The vectors' IRQs, where the provider's row says they are its PCI
	 * function's (not rxe's: its function is the NIC's). */
	q = cn->dev.prov && cn->dev.prov->irq_vectors ? malloc(sizeof(*q)) : NULL;
	if (q && (!s->rep.place.pci[0] || rb_dev_irqs("/sys", "/proc", s->rep.place.pci, q))) {
		free(q);
		q = NULL;
	}
	v = rb_vector_pick(q, cn->dev.ctx->num_comp_vectors, s->rep.place.freq_cpu, s->p.thread,
			   s->rep.why_comp_vector, sizeof(s->rep.why_comp_vector));
	free(q);
	return v;
}

/* One CQ through the API settled so far (*@ex); auto falls back to classic once. */
static int one_cq(struct session *s, uint64_t need, uint32_t vec, bool *ex, struct ibv_cq **cq)
{
	struct rb_conn *cn = &s->conn;
	int ret;

	if (*ex) {
		ret = rb_cq_create_ex_on(&cn->dev, need, cn->channel, vec, cq);
		if (ret != -EOPNOTSUPP)
			return ret;
		if (s->l->cq_api == RB_CQ_EX) {
			rb_err("--cq-api ex: %s (provider %s) makes no extended CQ "
			       "(ibv_create_cq_ex "
			       "not supported); --cq-api auto or classic polls with ibv_poll_cq",
			       cn->dev.name, cn->dev.prov ? cn->dev.prov->name : "unknown");
			s->usage = true;
			return ret;
		}
		*ex = false;
	}
	return rb_cq_create_on(&cn->dev, need, cn->channel, vec, cq);
}

int sess_create_cqs(struct session *s, uint64_t need)
{
	struct rb_conn *cn = &s->conn;
	char rel[32];
	/* The provider's row and the library's release say whether the
	 * extended CQ polls in batches; auto takes it only where it does. */
	uint8_t kind =
		rb_cqx_kind_for(cn->dev.prov, rb_rdma_core_version(rel, sizeof(rel)) ? NULL : rel);
	bool one = kind == RB_CQX_ONE;
	bool ex = s->l->cq_api == RB_CQ_EX || (s->l->cq_api == RB_CQ_AUTO && !one);
	uint32_t i, n = s->p.cq_per_qp ? cn->nqp : 1, vec = pick_vector(s);
	/* --cq-moderation: its first value here, so that a provider without it
	 * is refused (exit 2) before the connection; each point sets its own
	 * (the engine's rb_cqmod_point()). */
	uint32_t mod = s->p.cq_mod.n ? (uint32_t)s->p.cq_mod.v[0] : 0;
	int ret = 0;

	if (s->p.cq_per_qp) {
		cn->cqs = calloc(cn->nqp, sizeof(*cn->cqs));
		if (!cn->cqs)
			return -ENOMEM;
	}
	/* Each point its own (rb_cqs_point()); --poll event: one channel for them all. */
	for (i = 0; !ret && i < n; i++) {
		ret = one_cq(s, need, vec, &ex, cn->cqs ? &cn->cqs[i] : &cn->cq);
		if (!ret && mod) {
			ret = rb_cq_moderate(&cn->dev, cn->cqs ? cn->cqs[i] : cn->cq,
					     RB_CQMOD_COUNT(mod), RB_CQMOD_USEC(mod));
			s->usage |= ret == -EOPNOTSUPP;
		}
	}
	if (cn->cqs)
		cn->cq = cn->cqs[0];
	s->usage |= ret == -ERANGE; /* -X/--vector past the device's */
	cn->cq_ex = ex ? kind : RB_CQX_OFF;
	s->rep.cq_api = ex ? "ex" : "classic";
	s->rep.cq_poll = !ex ? NULL : one ? "one" : "batch";
	s->rep.comp_vector = (int)vec;
	s->rep.place.has_comp_vector = true;
	s->rep.place.comp_vector = vec;
	rb_cqmod_list(&s->p.cq_mod, s->rep.cq_moderation, sizeof(s->rep.cq_moderation));
	if (rb_verbose)
		rb_info("%s: %u CQ(s) polled with %s, completion vector %u (%s)", cn->dev.name, n,
			!ex   ? "ibv_poll_cq"
			: one ? "the extended CQ, one completion a start_poll"
			      : "the extended CQ",
			vec, s->rep.why_comp_vector);
	return ret;
}
