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
