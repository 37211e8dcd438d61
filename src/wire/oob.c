// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/clock.h"
#include "wire/oob.h"

/* A socket bound to @sa and listening; 0 or -errno (not logged). */
static int listen_on(const struct sockaddr *sa, socklen_t len, int *lfd)
{
	int fd, one = 1, zero = 0, ret;

	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* Accept IPv4 clients too, as ::ffff:a.b.c.d. */
	if (sa->sa_family == AF_INET6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)))
		goto fail;
	/* A matrix coordinator takes up to RB_MX_MAX_RANKS connections at once:
	 * past a full backlog, the kernel may drop them (the kernel caps it at
	 * net.core.somaxconn). */
	if (bind(fd, sa, len) || listen(fd, 4096))
		goto fail;
	*lfd = fd;
	return 0;
fail:
	ret = -errno;
	close(fd);
	return ret;
}

/* @host (numeric or a name) and @port as socket addresses. */
static int resolve(const char *host, uint16_t port, int flags, struct addrinfo **res)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = flags };
	char serv[8];
	int gai;

	snprintf(serv, sizeof(serv), "%u", port);
	gai = getaddrinfo(host, serv, &hints, res);
	if (gai) {
		rb_err("cannot resolve '%s': %s", host, gai_strerror(gai));
		return -EHOSTUNREACH;
	}
	return 0;
}

/* @host:@port, and @bind_addr into *@from when given (else NULL). */
static int resolve_from(const char *host, uint16_t port, const char *bind_addr,
			struct addrinfo **res, struct addrinfo **from)
{
	int ret = resolve(host, port, 0, res);

	*from = NULL;
	if (!ret && bind_addr && bind_addr[0] && (ret = resolve(bind_addr, 0, AI_PASSIVE, from)))
		freeaddrinfo(*res);
	return ret;
}

int rb_oob_listen(uint16_t port, const char *bind_addr, int *lfd)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(port),
				   .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in a4 = { .sin_family = AF_INET,
				  .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	struct addrinfo *res;
	int ret;

	if (bind_addr && bind_addr[0]) {
		ret = resolve(bind_addr, port, AI_PASSIVE, &res);
		if (ret)
			return ret;
		ret = listen_on(res->ai_addr, res->ai_addrlen, lfd);
		freeaddrinfo(res);
	} else {
		ret = listen_on((struct sockaddr *)&a6, sizeof(a6), lfd);
		/* A host without IPv6 (or dual stack) still serves IPv4. */
		if (ret == -EAFNOSUPPORT || ret == -ENOPROTOOPT || ret == -EINVAL)
			ret = listen_on((struct sockaddr *)&a4, sizeof(a4), lfd);
	}
	if (ret)
		rb_err("cannot listen on %s TCP port %u: %s",
		       bind_addr && bind_addr[0] ? bind_addr : "any address,", port,
		       strerror(-ret));
	return ret;
}

/* @sa as text, without the port; IPv4-mapped IPv6 shown as IPv4. */
static void addr_text(const struct sockaddr *sa, socklen_t len, char *buf, size_t size)
{
	char host[INET6_ADDRSTRLEN + 8];

	if (getnameinfo(sa, len, host, sizeof(host), NULL, 0, NI_NUMERICHOST)) {
		snprintf(buf, size, "?");
		return;
	}
	snprintf(buf, size, "%s", strncmp(host, "::ffff:", 7) ? host : host + 7);
}

void rb_oob_peer_host(const struct rb_oob *o, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getpeername(o->fd, (struct sockaddr *)&ss, &sl))
		snprintf(buf, len, "?");
	else
		addr_text((struct sockaddr *)&ss, sl, buf, len);
}

/* "a.b.c.d:port" or "v6:port" of a client, for messages. */
static void name_peer(const struct sockaddr *sa, socklen_t len, char *buf, size_t size)
{
	char host[INET6_ADDRSTRLEN + 8];

	addr_text(sa, len, host, sizeof(host));
	snprintf(buf, size, "%s:%u", host,
		 ntohs(sa->sa_family == AF_INET ? ((const struct sockaddr_in *)sa)->sin_port
						: ((const struct sockaddr_in6 *)sa)->sin6_port));
}

static bool is_any(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_addr.s_addr == htonl(INADDR_ANY);
	return IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

void rb_oob_listening(int lfd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ifaddrs *ifa, *i;
	size_t used = 0;
	char a[INET6_ADDRSTRLEN + 8];

	buf[0] = '\0';
	if (getsockname(lfd, (struct sockaddr *)&ss, &sl))
		return;
	if (!is_any((struct sockaddr *)&ss)) {
		addr_text((struct sockaddr *)&ss, sl, buf, len);
		return;
	}
	if (getifaddrs(&ifa))
		return;
	for (i = ifa; i && used < len; i = i->ifa_next) {
		if (!i->ifa_addr || (i->ifa_flags & IFF_LOOPBACK) || !(i->ifa_flags & IFF_UP) ||
		    (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6))
			continue;
		if (ss.ss_family == AF_INET && i->ifa_addr->sa_family != AF_INET)
			continue;
		addr_text(i->ifa_addr,
			  i->ifa_addr->sa_family == AF_INET ? sizeof(struct sockaddr_in)
							    : sizeof(struct sockaddr_in6),
			  a, sizeof(a));
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", a);
	}
	freeifaddrs(ifa);
}

int rb_oob_local(const char *host, uint16_t port, const char *bind_addr,
		 struct sockaddr_storage *local)
{
	struct addrinfo *res, *ai, *b;
	socklen_t sl;
	int fd, ret;

	ret = resolve_from(host, port, bind_addr, &res, &b);
	if (ret)
		return ret;
	for (ret = -ENETUNREACH, ai = res; ai && ret; ai = ai->ai_next) {
		/* A UDP connect() sends nothing: it only asks the routing. */
		fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		sl = sizeof(*local);
		if ((b && bind(fd, b->ai_addr, b->ai_addrlen)) ||
		    connect(fd, ai->ai_addr, ai->ai_addrlen) ||
		    getsockname(fd, (struct sockaddr *)local, &sl))
			ret = -errno;
		else
			ret = 0;
		close(fd);
	}
	/* An address, not an endpoint: the probe's port means nothing. */
	if (!ret && local->ss_family == AF_INET)
		((struct sockaddr_in *)local)->sin_port = 0;
	else if (!ret)
		((struct sockaddr_in6 *)local)->sin6_port = 0;
	freeaddrinfo(res);
	if (b)
		freeaddrinfo(b);
	if (ret)
		rb_err("no route from %s to %s: %s", bind_addr && bind_addr[0] ? bind_addr : "here",
		       host, strerror(-ret));
	return ret;
}

static int wait_fd(int fd, short ev, int ms)
{
	struct pollfd p = { .fd = fd, .events = ev };
	int n = poll(&p, 1, ms);

	if (n < 0)
		return -errno;
	return n ? 0 : -ETIMEDOUT;
}

static void tune(int fd)
{
	int one = 1;

	/* Messages are small and each waits for an answer. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int rb_oob_accept(int lfd, int wait_ms, struct rb_oob *o)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int ret, fd;

	ret = wait_fd(lfd, POLLIN, wait_ms);
	if (ret)
		return ret;
	fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		rb_err("accept: %s", strerror(errno));
		return ret;
	}
	tune(fd);
	o->fd = fd;
	o->auth = NULL;
	name_peer((struct sockaddr *)&ss, len, o->peer, sizeof(o->peer));
	return 0;
}

/* One connect attempt to @ai from @from (NULL: any), bounded by @ms. */
static int try_connect(const struct addrinfo *ai, const struct addrinfo *from, int ms, int *out)
{
	int fd, ret, soerr = 0;
	socklen_t sl = sizeof(soerr);

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (from && bind(fd, from->ai_addr, from->ai_addrlen)) {
		ret = -errno;
		goto close_fd;
	}
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS) {
		ret = -errno;
		goto close_fd;
	}
	ret = wait_fd(fd, POLLOUT, ms);
	if (ret)
		goto close_fd;
	getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
	if (soerr) {
		ret = -soerr;
		goto close_fd;
	}
	/* Back to blocking: every later wait goes through poll(). */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		ret = -errno;
		goto close_fd;
	}
	*out = fd;
	return 0;
close_fd:
	close(fd);
	return ret;
}

/*
 * What a user waiting on a connect should know, said once each: a host
 * that refuses for over a second has no server listening (yet); one that
 * has not answered after 3 s may be down or behind a firewall.
 */
#define REFUSED_NOTE_NS 1000000000ULL
#define SILENT_NOTE_MS	3000

static void connect_note(const char *host, uint16_t port, int err, int wait_ms)
{
	if (err == -ECONNREFUSED)
		rb_info("%s port %u refuses the connection: is a server running there "
			"('rdmabench server', or the test without HOST)? Trying again for up to "
			"%d s (--timeout); 'rdmabench doctor %s' checks the path",
			host, port, wait_ms / 1000, host);
	else
		rb_info("no answer from %s port %u after %d s (the host down, or a firewall "
			"dropping the port?): waiting up to %d s in all (--timeout)",
			host, port, SILENT_NOTE_MS / 1000, wait_ms / 1000);
}

/* One round over @res's addresses; the last error, or 0 with the fd in @o. */
static int connect_round(struct addrinfo *res, struct addrinfo *from, int ms, struct rb_oob *o)
{
	struct addrinfo *ai;
	int ret = -ENOENT;

	for (ai = res; ai; ai = ai->ai_next) {
		if (from && from->ai_family != ai->ai_family)
			continue;
		ret = try_connect(ai, from, ms > 0 ? ms : 1, &o->fd);
		if (!ret)
			break;
	}
	return ret;
}

int rb_oob_connect(const char *host, uint16_t port, const char *bind_addr, int wait_ms,
		   struct rb_oob *o)
{
	uint64_t start = rb_now_ns(), deadline = start + (uint64_t)wait_ms * 1000000ULL;
	bool refused_said = false, silent_said = false;
	struct addrinfo *res, *from;
	int ret;

	ret = resolve_from(host, port, bind_addr, &res, &from);
	if (ret)
		return ret;
	for (;;) {
		int left = (int)((deadline - rb_now_ns()) / 1000000ULL);

		/* A first try bounded by 3 s, so that a silent host is named then. */
		ret = connect_round(res, from,
				    silent_said || left <= SILENT_NOTE_MS ? left : SILENT_NOTE_MS,
				    o);
		if (ret == -ETIMEDOUT && !silent_said && rb_now_ns() < deadline) {
			connect_note(host, port, ret, wait_ms);
			silent_said = true;
			continue;
		}
		if (ret != -ECONNREFUSED || rb_now_ns() >= deadline)
			break;
		if (!refused_said && rb_now_ns() - start >= REFUSED_NOTE_NS) {
			connect_note(host, port, ret, wait_ms);
			refused_said = true;
		}
		usleep(100000); /* the server may still be starting */
	}
	freeaddrinfo(res);
	if (from)
		freeaddrinfo(from);
	if (ret) {
		rb_err("cannot connect to %s port %u%s%s: %s%s", host, port,
		       bind_addr && bind_addr[0] ? " from " : "", bind_addr ? bind_addr : "",
		       strerror(-ret),
		       ret == -ECONNREFUSED ? " (no server listening there: start 'rdmabench "
					      "server' on that host, or check -p/--port)"
		       : ret == -ETIMEDOUT  ? " (no answer: is the host up, and the port open?)"
					    : "");
		return ret;
	}
	tune(o->fd);
	o->auth = NULL;
	snprintf(o->peer, sizeof(o->peer), "%s:%u", host, port);
	return 0;
}

void rb_oob_close(struct rb_oob *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
}

void rb_oob_drain_close(struct rb_oob *o, int ms)
{
	uint64_t deadline = rb_now_ns() + (uint64_t)ms * 1000000ULL;
	uint8_t junk[4096];
	uint64_t now;
	ssize_t n = 1;

	if (o->fd < 0)
		return;
	/* Closing with unread bytes sends an RST, which can destroy the
	 * ERROR still in the peer's receive queue: send a FIN, and read
	 * what the peer sent until it closes too or @ms pass. */
	shutdown(o->fd, SHUT_WR);
	while (n > 0 && (now = rb_now_ns()) < deadline &&
	       !wait_fd(o->fd, POLLIN, (int)((deadline - now + 999999) / 1000000)))
		n = recv(o->fd, junk, sizeof(junk), MSG_DONTWAIT);
	rb_oob_close(o);
}

/*
 * Move @len bytes before @deadline (ns): the timeout is per message, so a
 * peer trickling a byte at a time cannot hold us longer than one timeout.
 */
static int xfer_all(struct rb_oob *o, void *buf, size_t len, bool out, uint64_t deadline)
{
	uint8_t *p = buf;
	uint64_t now;
	ssize_t n;
	int ret;

	while (len) {
		now = rb_now_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		/* Try first, wait only when it would block: a coordinator of
		 * a thousand ranks moves millions of messages, mostly ready. */
		n = out ? send(o->fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT)
			: recv(o->fd, p, len, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			ret = wait_fd(o->fd, out ? POLLOUT : POLLIN,
				      (int)((deadline - now + 999999) / 1000000));
			if (ret)
				return ret;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EPIPE ? -ECONNRESET : -errno;
		if (n == 0)
			return -ECONNRESET; /* the peer closed the connection */
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static uint64_t deadline_of(const struct rb_oob *o)
{
	return rb_now_ns() + (uint64_t)o->timeout_ms * 1000000ULL;
}

/* Message @name ("HELLO") was not @how ("sent", "received"): say why. */
static int oob_fail(struct rb_oob *o, const char *name, const char *how, int ret)
{
	if (ret == -EINTR)
		return ret; /* ^C: the caller says "interrupted" */
	if (ret == -ETIMEDOUT)
		rb_err("peer %s: no complete %s %s within %d s (--timeout): is it alive?", o->peer,
		       name, how, o->timeout_ms / 1000);
	else if (ret == -ECONNRESET)
		rb_err("peer %s closed the connection (%s %s): it exited or was killed", o->peer,
		       name, how);
	else
		rb_err("connection to peer %s failed (%s %s): %s", o->peer, name, how,
		       strerror(-ret));
	return ret;
}

/* The reason in an ERROR body, logged; the error to return for it. */
static int gave_up(struct rb_oob *o, const uint8_t *body, uint32_t len)
{
	struct rb_msg_text t;
	char safe[RB_TEXT_MAX * 4];

	if (rb_unpack_text(body, len, &t))
		snprintf(t.text, sizeof(t.text), "(unreadable reason)");
	rb_err("peer %s gave up: %s", o->peer, rb_escape(t.text, safe, sizeof(safe)));
	return -ECONNABORTED;
}

static bool recv_now(int fd, void *buf, size_t len)
{
	return recv(fd, buf, len, MSG_DONTWAIT | MSG_WAITALL) == (ssize_t)len;
}

/*
 * The peer closed the connection while this side was sending.  A peer that
 * gave up sent ERROR before it closed; closing with our messages unread
 * resets the connection, but what had arrived stays readable: find its
 * reason there (at most a few messages behind), rather than only "closed".
 */
static bool last_words(struct rb_oob *o)
{
	uint8_t hdr[RB_WIRE_HDR_LEN], *body = malloc(RB_WIRE_MAX_BODY);
	bool found = false;
	struct rb_hdr h;
	char err[160];
	int i;

	/* Any message can be in front of it, COUNTERS included: the unpacked
	 * header holds its length to RB_WIRE_MAX_BODY. */
	for (i = 0; body && !found && i < 8; i++) {
		if (!recv_now(o->fd, hdr, sizeof(hdr)) ||
		    rb_hdr_unpack(hdr, &h, err, sizeof(err)) ||
		    (h.len && !recv_now(o->fd, body, h.len)))
			break;
		if (h.type == RB_MSG_ERROR) {
			gave_up(o, body, h.len);
			found = true;
		}
	}
	free(body);
	return found;
}

#define ONE_SEND 4096 /* a message this short goes in one send(): one segment */

static int send_msg(struct rb_oob *o, uint16_t type, const uint8_t *body, uint32_t len)
{
	uint8_t hdr[ONE_SEND], tag[RB_AUTH_TAG_LEN];
	uint32_t tlen = o->auth ? RB_AUTH_TAG_LEN : 0;
	uint64_t deadline = deadline_of(o);
	int ret;

	rb_hdr_pack(hdr, type, len);
	if (o->auth)
		rb_auth_seal(o->auth, hdr, body, len, tag);
	if (len <= ONE_SEND - RB_WIRE_HDR_LEN - RB_AUTH_TAG_LEN) {
		if (len)
			memcpy(hdr + RB_WIRE_HDR_LEN, body, len);
		memcpy(hdr + RB_WIRE_HDR_LEN + len, tag, tlen);
		return xfer_all(o, hdr, RB_WIRE_HDR_LEN + len + tlen, true, deadline);
	}
	ret = xfer_all(o, hdr, RB_WIRE_HDR_LEN, true, deadline);
	if (!ret && len)
		ret = xfer_all(o, (void *)body, len, true, deadline);
	if (!ret && tlen)
		ret = xfer_all(o, tag, tlen, true, deadline);
	return ret;
}

int rb_oob_send(struct rb_oob *o, uint16_t type, const uint8_t *body, uint32_t len)
{
	int ret = send_msg(o, type, body, len);

	if (ret == -ECONNRESET && last_words(o))
		return -ECONNABORTED;
	return ret ? oob_fail(o, rb_msg_name(type), "sent", ret) : 0;
}

/*
 * --auth-key: the tag after a frame.  A wrong one ends the connection.
 * An ERROR with no tag, its sender gone: a peer that refused the
 * handshake (it never held the session's keys), whose words are still
 * worth showing; they can only end the connection, as a reset would.
 */
static int check_tag(struct rb_oob *o, const uint8_t *hdr, const struct rb_hdr *h,
		     const uint8_t *body, uint64_t deadline)
{
	uint8_t tag[RB_AUTH_TAG_LEN];
	char tn[24];
	int ret;

	ret = xfer_all(o, tag, sizeof(tag), false, deadline);
	if (ret == -ECONNRESET && h->type == RB_MSG_ERROR)
		return 0;
	if (ret)
		return oob_fail(o, rb_msg_type_str(h->type, tn, sizeof(tn)), "received", ret);
	if (!rb_auth_open(o->auth, hdr, body, h->len, tag)) {
		rb_err("from %s: %s with a wrong authentication tag (forged, replayed or out of "
		       "order): connection closed",
		       o->peer, rb_msg_type_str(h->type, tn, sizeof(tn)));
		return -EBADMSG;
	}
	return 0;
}

/* One message; @awaiting names it in messages ("SYNC", NULL: any). */
static int recv_msg(struct rb_oob *o, const char *awaiting, uint16_t *type, uint8_t *body,
		    uint32_t cap, uint32_t *len)
{
	uint8_t hdr[RB_WIRE_HDR_LEN];
	uint64_t deadline;
	struct rb_hdr h;
	char err[160], tn[24];
	int ret;

	deadline = deadline_of(o);
	ret = xfer_all(o, hdr, sizeof(hdr), false, deadline);
	if (ret)
		return oob_fail(o, awaiting ? awaiting : "message", "received", ret);
	ret = rb_hdr_unpack(hdr, &h, err, sizeof(err));
	if (ret) {
		rb_err("from %s: %s", o->peer, err);
		return ret;
	}
	if (h.len > cap) {
		rb_err("from %s: %s of %u bytes does not fit", o->peer,
		       rb_msg_type_str(h.type, tn, sizeof(tn)), h.len);
		return -EMSGSIZE;
	}
	ret = xfer_all(o, body, h.len, false, deadline);
	if (ret)
		return oob_fail(o, rb_msg_type_str(h.type, tn, sizeof(tn)), "received", ret);
	ret = o->auth ? check_tag(o, hdr, &h, body, deadline) : 0;
	if (ret)
		return ret;
	*type = h.type;
	*len = h.len;
	return 0;
}

int rb_oob_recv(struct rb_oob *o, uint16_t *type, uint8_t *body, uint32_t cap, uint32_t *len)
{
	return recv_msg(o, NULL, type, body, cap, len);
}

int rb_oob_expect(struct rb_oob *o, uint16_t type, uint8_t *body, uint32_t cap, uint32_t *len)
{
	char tn[24];
	uint16_t got;
	int ret;

	ret = recv_msg(o, rb_msg_name(type), &got, body, cap, len);
	if (ret)
		return ret;
	if (got == RB_MSG_ERROR)
		return gave_up(o, body, *len);
	if (got != type) {
		rb_err("peer %s sent %s where %s was expected", o->peer,
		       rb_msg_type_str(got, tn, sizeof(tn)), rb_msg_name(type));
		return -EPROTO;
	}
	return 0;
}

void rb_oob_send_error(struct rb_oob *o, const char *fmt, ...)
{
	struct rb_msg_text t;
	uint8_t buf[sizeof(t.text) + 2];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(t.text, sizeof(t.text), fmt, ap);
	va_end(ap);
	n = rb_pack_text(&t, buf, sizeof(buf));
	/* Best effort, after the error that matters was logged: a peer
	 * already gone needs no second line saying so. */
	if (n >= 0)
		send_msg(o, RB_MSG_ERROR, buf, (uint32_t)n);
}
