# shellcheck shell=bash
# Shared by scripts/quickstart and scripts/check: install what is missing,
# then bootstrap, configure and build in the source tree.  Each step is
# skipped when already done, so re-running is cheap.

# Debian packages, by purpose.  iproute2 is on the list because the lab
# guest runs this machine's own `ip` and `rdma` tools.
RB_PKGS_BUILD="autoconf automake libtool pkg-config make gcc libibverbs-dev librdmacm-dev
	libhwloc-dev libnuma-dev libjansson-dev libcmocka-dev"
RB_PKGS_LAB="qemu-system-x86 linux-image-amd64 busybox-static cpio kmod iproute2 rdma-core
	ibverbs-providers ibverbs-utils rdmacm-utils perftest"
RB_PKGS_TOOLS="gnuplot-nox python3"

rb_say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }

# Print the packages of "$@" that dpkg does not have installed.
rb_missing_pkgs() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || printf '%s\n' "$p"
	done
}

# Install what is missing; as non-root, say what to install instead.
rb_install_deps() {
	local missing
	# shellcheck disable=SC2086 # the lists are word lists
	missing=$(rb_missing_pkgs $RB_PKGS_BUILD $RB_PKGS_LAB $RB_PKGS_TOOLS | tr '\n' ' ')
	if [ -z "${missing// /}" ]; then
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		rb_say "missing packages: $missing"
		rb_say "run as root, or: apt-get install $missing"
		return 1
	fi
	rb_say "installing: $missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null
}

# Bootstrap, configure and build in the source tree (incrementally).
rb_build() {
	if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
		rb_say "autoreconf"
		autoreconf -fi >/dev/null
	fi
	if [ ! -f Makefile ] || [ configure -nt config.status ]; then
		rb_say "configure"
		./configure -q
	fi
	rb_say "make"
	make -s -j"$(nproc)" >/dev/null
}

# Whether this machine has an RDMA device with an active port.
rb_have_rdma() {
	command -v ibv_devinfo >/dev/null && ibv_devinfo 2>/dev/null | grep -q PORT_ACTIVE
}
