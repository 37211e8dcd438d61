// SPDX-License-Identifier: MIT
/*
 * The socket tests' path (tcp_lat, tcp_bw): no device, no QP; the data
 * crosses a TCP connection of its own, between the same addresses as the
 * control channel.  Each side's DATA takes CONN's place: the client's
 * first, then the server's with the port of its data listener, which the
 * client connects to.
 */
#include <dirent.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>

#include "rdma/addr.h"
#include "session/session_int.h"

/* Each blocking call on the data connection gives up after this, to look around. */
#define SLICE_MS 10

/* The address bytes of @sa and their length; an IPv4-mapped IPv6 address is IPv4's. */
static const void *addr_bytes(const struct sockaddr *sa, int *family, size_t *len)
{
	const struct in6_addr *a6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;

	*family = sa->sa_family;
	*len = sizeof(struct in_addr);
	if (sa->sa_family == AF_INET)
		return &((const struct sockaddr_in *)sa)->sin_addr;
	if (IN6_IS_ADDR_V4MAPPED(a6)) {
		*family = AF_INET;
		return &a6->s6_addr[12];
	}
	*len = sizeof(struct in6_addr);
	return a6;
}

/* The interface that holds address @sa, into @name ("" when none does). */
static void ifname_of(const struct sockaddr *sa, char *name, size_t len)
{
	struct ifaddrs *ifa, *i;
	int family, f;
	size_t alen, l;
	const void *want = addr_bytes(sa, &family, &alen), *have;

	name[0] = '\0';
	if (getifaddrs(&ifa))
		return;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr ||
		    (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6))
			continue;
		have = addr_bytes(i->ifa_addr, &f, &l);
		if (f == family && l == alen && !memcmp(have, want, alen)) {
			snprintf(name, len, "%s", i->ifa_name);
			break;
		}
	}
	freeifaddrs(ifa);
}

/*
 * The RDMA device over interface @ifname, if one is (its GID 0 or 1 names
 * it): placement takes the NIC's locality from it.  NULL: none found.
 */
static const char *ibdev_over(const char *ifname, char *dev, size_t len)
{
	char path[600], nd[64];
	struct dirent *e;
	DIR *d;
	FILE *f;
	int gi;

	if (!ifname[0] || !(d = opendir("/sys/class/infiniband")))
		return NULL;
	dev[0] = '\0';
	while (!dev[0] && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= len)
			continue;
		for (gi = 0; gi < 2 && !dev[0]; gi++) {
			snprintf(path, sizeof(path),
				 "/sys/class/infiniband/%s/ports/1/gid_attrs/ndevs/%d", e->d_name,
				 gi);
			f = fopen(path, "re");
			if (!f)
				continue;
			if (fgets(nd, sizeof(nd), f)) {
				nd[strcspn(nd, "\n")] = '\0';
				if (!strcmp(nd, ifname))
					memcpy(dev, e->d_name, strlen(e->d_name) + 1);
			}
			fclose(f);
		}
	}
	closedir(d);
	return dev[0] ? dev : NULL;
}

/* A socket bound to @local's address (any port), not yet connected. */
static int data_socket(const struct sockaddr *local, int *fd)
{
	struct sockaddr_storage a;
	socklen_t alen = local->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
						      : sizeof(struct sockaddr_in);
	int one = 1;

	memcpy(&a, local, alen);
	((struct sockaddr_in *)&a)->sin_port = 0; /* same place in both families */
	*fd = socket(local->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*fd < 0 || setsockopt(*fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(*fd, (struct sockaddr *)&a, alen)) {
		rb_err("data connection: socket on the control connection's address: %s",
		       strerror(errno));
		return -errno;
	}
	return 0;
}

/* What this side's socket @fd is: buffers, MSS, TCP_NODELAY. */
static void sock_figures(struct session *s, int fd)
{
	socklen_t l = sizeof(int);

	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &s->tcp.sndbuf, &l))
		s->tcp.sndbuf = 0;
	l = sizeof(int);
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &s->tcp.rcvbuf, &l))
		s->tcp.rcvbuf = 0;
	l = sizeof(int);
	if (getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &s->tcp.mss, &l))
		s->tcp.mss = 0;
}

/* The connected data socket: latency tests send each message at once; calls block a slice. */
static int sock_setup(struct session *s, int fd)
{
	struct timeval tv = { .tv_sec = 0, .tv_usec = SLICE_MS * 1000 };
	int nodelay = s->bench->mode == RB_MODE_LAT;

	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nodelay, sizeof(nodelay)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv))) {
		rb_err("data connection: setsockopt: %s", strerror(errno));
		return -errno;
	}
	s->rep.sock.nodelay = nodelay;
	sock_figures(s, fd);
	return 0;
}

static int tcp_open(struct session *s, const struct sockaddr *local)
{
	struct rb_conn *cn = &s->conn;
	size_t region = (size_t)rb_plan_region(&s->p);
	const char *near;
	char dev[64];
	int ret;

	if (local)
		ifname_of(local, s->tcp.ifname, sizeof(s->tcp.ifname));
	/* Without an RDMA device over it, the interface's name: no locality,
	 * said naming it, rather than another device's. */
	near = ibdev_over(s->tcp.ifname, dev, sizeof(dev));
	if (!near && s->tcp.ifname[0])
		near = s->tcp.ifname;
	ret = sess_place(s, near);
	if (!ret) {
		ret = rb_diag_setup(&s->diag, NULL, s->bench, s->role, s->l, &s->rep);
		s->usage = ret == -EINVAL;
	}
	if (ret)
		return ret;
	cn->nmr = 1;
	cn->region = region;
	/* A stream's server reads what arrived in large pieces, whatever -s. */
	ret = sess_alloc_buffers(s, 2 * region < (256 << 10) ? (256 << 10) : 2 * region);
	cn->data_len = s->buf_len;
	return ret;
}

static void tcp_close(struct session *s)
{
	struct rb_conn *cn = &s->conn;

	rb_run_close(s->run);
	if (cn->data_fd >= 0)
		close(cn->data_fd);
	if (s->tcp.lfd >= 0)
		close(s->tcp.lfd);
	cn->data_fd = s->tcp.lfd = -1;
	if (cn->buf)
		rb_place_free(cn->buf, s->buf_len);
	cn->buf = NULL;
}

/* The address of the control connection at either end (@peer) with port @port. */
static int ctl_addr(struct session *s, bool peer, struct sockaddr_storage *a, socklen_t *alen)
{
	*alen = sizeof(*a);
	if (peer ? getpeername(s->oob.fd, (struct sockaddr *)a, alen)
		 : getsockname(s->oob.fd, (struct sockaddr *)a, alen)) {
		rb_err("control connection: %s: %s", peer ? "getpeername" : "getsockname",
		       strerror(errno));
		return -errno;
	}
	return 0;
}

static int send_data(struct session *s, uint16_t port, int fd)
{
	struct rb_msg_data m = { .port = port, .nodelay = s->bench->mode == RB_MODE_LAT };

	sock_figures(s, fd);
	m.sndbuf = (uint32_t)s->tcp.sndbuf;
	m.rcvbuf = (uint32_t)s->tcp.rcvbuf;
	m.place = s->rep.place;
	snprintf(m.ifname, sizeof(m.ifname), "%s", s->tcp.ifname);
	return sess_send_body(s, RB_MSG_DATA, rb_pack_data(&m, sess_msg, sizeof(sess_msg)));
}

static int recv_data(struct session *s)
{
	char err[RB_TEXT_MAX];
	uint32_t len;
	int ret = rb_oob_expect(&s->oob, RB_MSG_DATA, sess_msg, sizeof(sess_msg), &len);

	if (ret)
		return ret;
	if (rb_unpack_data(sess_msg, len, &s->tcp.remote)) {
		rb_err("peer %s sent a malformed DATA message", s->oob.peer);
		return -EPROTO;
	}
	if (rb_data_validate(&s->tcp.remote, s->role == RB_ROLE_CLIENT, err, sizeof(err))) {
		rb_err("peer %s sent a DATA message this side refuses: %s", s->oob.peer, err);
		return -EPROTO;
	}
	return 0;
}

/* Client: connect to the server's data port, from the control connection's address. */
static int client_connect(struct session *s)
{
	struct timeval tv = { .tv_sec = s->oob.timeout_ms / 1000 };
	struct sockaddr_storage a;
	socklen_t alen;
	int ret = ctl_addr(s, true, &a, &alen);

	if (ret)
		return ret;
	((struct sockaddr_in *)&a)->sin_port = htons(s->tcp.remote.port);
	/* connect() waits as long as SO_SNDTIMEO says. */
	if (setsockopt(s->conn.data_fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
	    connect(s->conn.data_fd, (struct sockaddr *)&a, alen)) {
		rb_err("data connection to %s, port %u: %s", s->oob.peer, s->tcp.remote.port,
		       strerror(errno));
		return -errno;
	}
	return 0;
}

/* Whether @a and @b are the same host address (ports aside). */
static bool same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
	       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
}

/*
 * The control connection stirred while the server waited for the data
 * connection (@p: its pollfd).  A client that hung up frees the slot at
 * once.  A message (a client's first SYNC can come before its data
 * connection is accepted) waits for the barrier: from then on only a
 * hang-up is watched for.
 */
static int ctl_stirred(struct session *s, struct pollfd *p)
{
	char c;

	if ((p->revents & (POLLRDHUP | POLLHUP | POLLERR)) ||
	    recv(s->oob.fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) <= 0) {
		rb_err("client %s closed the control connection before it opened the data "
		       "connection",
		       s->oob.peer);
		return -ECONNRESET;
	}
	p->events = POLLRDHUP;
	return 0;
}

/*
 * Server: the client's data connection, from the client's address only,
 * watching the control connection too.
 */
static int server_accept(struct session *s)
{
	struct pollfd p[2] = { { .fd = s->tcp.lfd, .events = POLLIN },
			       { .fd = s->oob.fd, .events = POLLIN | POLLRDHUP } };
	uint64_t until = rb_now_ns() + (uint64_t)s->oob.timeout_ms * 1000000ULL;
	struct sockaddr_storage want, got;
	socklen_t alen;
	int ret = ctl_addr(s, true, &want, &alen), fd, n;

	while (!ret) {
		n = poll(p, 2, SLICE_MS * 10);
		if (rb_interrupted)
			return -EINTR;
		if (n > 0 && p[1].revents && (ret = ctl_stirred(s, &p[1])))
			return ret;
		if (n <= 0 || !p[0].revents) {
			if (rb_now_ns() < until)
				continue;
			rb_err("client %s did not open the data connection within %d s",
			       s->oob.peer, s->oob.timeout_ms / 1000);
			return -ETIMEDOUT;
		}
		alen = sizeof(got);
		fd = accept4(s->tcp.lfd, (struct sockaddr *)&got, &alen, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		if (same_addr(&want, &got)) {
			s->conn.data_fd = fd;
			return 0;
		}
		rb_warn("data port: a connection from another host than client %s: closed",
			s->oob.peer);
		close(fd);
	}
	return ret;
}

/* Server: the data listener on the control connection's local address. */
static int server_listen(struct session *s, uint16_t *port)
{
	struct sockaddr_storage a;
	socklen_t alen;
	int ret = ctl_addr(s, false, &a, &alen);

	if (!ret)
		ret = data_socket((struct sockaddr *)&a, &s->tcp.lfd);
	if (!ret && listen(s->tcp.lfd, 4)) {
		rb_err("data listener: listen: %s", strerror(errno));
		ret = -errno;
	}
	alen = sizeof(a);
	if (!ret && getsockname(s->tcp.lfd, (struct sockaddr *)&a, &alen)) {
		rb_err("data listener: getsockname: %s", strerror(errno));
		ret = -errno;
	}
	if (!ret)
		*port = ntohs(((struct sockaddr_in *)&a)->sin_port);
	return ret;
}

/* "addr:port" of @sa ("[addr]:port" for IPv6). */
static void addr_port(const struct sockaddr *sa, char *buf, size_t len)
{
	char a[48];

	rb_addr_str(sa, a, sizeof(a));
	snprintf(buf, len, sa->sa_family == AF_INET6 ? "[%s]:%u" : "%s:%u", a,
		 ntohs(((const struct sockaddr_in *)sa)->sin_port));
}

/* The report's socket section: this side's figures, and the peer's from its DATA. */
static void tcp_report(struct session *s)
{
	struct sockaddr_storage a;
	socklen_t alen = sizeof(a);
	struct rb_sock_info *i = &s->rep.sock;

	if (!getsockname(s->conn.data_fd, (struct sockaddr *)&a, &alen))
		addr_port((struct sockaddr *)&a, s->tcp.local, sizeof(s->tcp.local));
	alen = sizeof(a);
	if (!getpeername(s->conn.data_fd, (struct sockaddr *)&a, &alen))
		addr_port((struct sockaddr *)&a, s->tcp.peer, sizeof(s->tcp.peer));
	i->on = true;
	i->local = s->tcp.local;
	i->peer = s->tcp.peer;
	i->sndbuf = s->tcp.sndbuf;
	i->rcvbuf = s->tcp.rcvbuf;
	i->mss = s->tcp.mss;
	i->peer_sndbuf = (int)s->tcp.remote.sndbuf;
	i->peer_rcvbuf = (int)s->tcp.remote.rcvbuf;
	s->rep.device = s->tcp.ifname[0] ? s->tcp.ifname : NULL;
	s->rep.gid_index = -1;
	s->rep.port = 0;
	s->rep.link_layer = NULL;
	s->rep.transport = NULL;
	s->rep.active_mtu = 0;
	s->rep.why_device = "the interface of the control connection's local address: the data "
			    "connection leaves from it";
	s->rep.has_peer_place = true;
	s->rep.peer_place = s->tcp.remote.place;
	sess_warn_freq(s, "the peer's", &s->tcp.remote.place);
	if (rb_verbose)
		rb_info("data connection %s -> %s: SO_SNDBUF %d, SO_RCVBUF %d, MSS %d%s",
			s->tcp.local, s->tcp.peer, i->sndbuf, i->rcvbuf, i->mss,
			i->nodelay ? ", TCP_NODELAY" : "");
}

static int tcp_connect(struct session *s)
{
	struct sockaddr_storage a;
	socklen_t alen;
	uint16_t port = 0;
	int ret;

	if (s->role == RB_ROLE_CLIENT) {
		ret = ctl_addr(s, false, &a, &alen);
		if (!ret)
			ret = data_socket((struct sockaddr *)&a, &s->conn.data_fd);
		if (!ret)
			ret = send_data(s, 0, s->conn.data_fd);
		if (!ret)
			ret = recv_data(s);
		if (!ret)
			ret = client_connect(s);
	} else {
		ret = recv_data(s);
		if (!ret)
			ret = server_listen(s, &port);
		if (!ret)
			ret = send_data(s, port, s->tcp.lfd);
		if (!ret)
			ret = server_accept(s);
	}
	if (!ret)
		ret = sock_setup(s, s->conn.data_fd);
	if (ret)
		return ret;
	tcp_report(s);
	return rb_run_conn(s->run, &s->conn);
}

const struct sess_path sess_path_tcp = {
	.open = tcp_open,
	.connect = tcp_connect,
	.close = tcp_close,
};
