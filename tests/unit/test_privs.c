// SPDX-License-Identifier: MIT
/*
 * rb_drop_privs() (src/session/privs.c), in a child process: afterwards
 * its effective, permitted and bounding sets hold CAP_IPC_LOCK at most
 * (only when it was there), no new privileges can be gained, and as root
 * a port under 1024 can no longer be bound.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "session/session.h"

#define IPC_LOCK (1ULL << 14)

/* A CapXxx line of /proc/self/status. */
static unsigned long long caps(const char *which)
{
	char line[256], key[16];
	unsigned long long v = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	snprintf(key, sizeof(key), "%s:", which);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtoull(line + strlen(key), NULL, 16);
	if (f)
		fclose(f);
	return v;
}

/* The child's checks, as its exit status: 0 all good, else which failed. */
static int child(void)
{
	unsigned long long had = caps("CapPrm") & IPC_LOCK;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(1) };
	bool root = caps("CapEff") & (1ULL << 10); /* CAP_NET_BIND_SERVICE */
	int fd;

	rb_quiet = true;
	if (rb_drop_privs())
		return 1;
	if (caps("CapEff") != had || caps("CapPrm") != had)
		return 2;
	if (caps("CapBnd") & ~IPC_LOCK)
		return 3;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return 4;
	if (root) {
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 || !bind(fd, (struct sockaddr *)&a, sizeof(a)) || errno != EACCES)
			return 5;
	}
	return 0;
}

static void test_drop(void **state)
{
	int status = -1;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
