# shellcheck shell=bash
# Shared by scripts/quickstart, scripts/check and scripts/bench-perftest:
# install what is missing, then bootstrap, configure and build out of the
# source tree, in build/ (the binary is build/src/rdmabench).  Each step is
# skipped when already done, so re-running is cheap.  Other builds sit next
# to it: build-san/ (ASan + UBSan) and build-fuzz/ (clang, libFuzzer), both
# made by scripts/check.

# Debian packages, by purpose.  iproute2 is on the list because the lab
# guest runs this machine's own `ip` and `rdma` tools.
RB_PKGS_BUILD="autoconf automake libtool pkg-config make gcc libibverbs-dev librdmacm-dev
	libhwloc-dev libnuma-dev libjansson-dev libsodium-dev libcap-dev libcmocka-dev libpmix-dev"
# The fuzz targets (configure CC=clang --enable-fuzz): clang and libFuzzer.
RB_PKGS_FUZZ="clang libclang-rt-14-dev"
# valgrind: scripts/cost and tests/lab/cost.sh count instructions with callgrind.
# linux-headers-amd64 and linux-source (the metapackages of linux-image-amd64's
# kernel): rxe-lab --siw builds Software iWARP's siw.ko out of tree, which
# Debian's kernel does not build (tests/lab/siw.sh).
RB_PKGS_LAB="qemu-system-x86 linux-image-amd64 busybox-static cpio kmod iproute2 rdma-core
	ibverbs-providers ibverbs-utils rdmacm-utils perftest openmpi-bin slurmctld slurmd
	slurm-client munge valgrind linux-headers-amd64 linux-source"
# scripts/plot, rdmabench report and bench-perftest's report; tests/lint.sh's
# linters; chromium: tests/report.sh renders the report's pages headless.
RB_PKGS_TOOLS="gnuplot-nox python3 shellcheck clang-format pyflakes3 python3-pyflakes
	python3-jsonschema chromium"
# tests/package.sh: the Debian package, lintian, and the completion with
# bash-completion's helpers.
RB_PKGS_PKG="dpkg-dev debhelper lintian bash-completion systemd"

rb_say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }

# Print the packages of "$@" that dpkg does not have installed.
rb_missing_pkgs() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || printf '%s\n' "$p"
	done
}

# What running rdmabench on a host with an HCA needs, beyond the build:
# the providers, ibv_devinfo, and rdmabench-plot's gnuplot and python3.
RB_PKGS_RUN="rdma-core ibverbs-providers ibverbs-utils gnuplot-nox python3"

# rb_install_pkgs PKG...: install those of PKG... that are missing; as
# non-root, say what to install instead.
rb_install_pkgs() {
	local missing
	missing=$(rb_missing_pkgs "$@" | tr '\n' ' ')
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

# Everything: what scripts/check needs (the lab, fuzzing, linters, packaging).
rb_install_deps() {
	# shellcheck disable=SC2086 # the lists are word lists
	rb_install_pkgs $RB_PKGS_BUILD $RB_PKGS_FUZZ $RB_PKGS_LAB $RB_PKGS_TOOLS $RB_PKGS_PKG
}

# What building and running need (scripts/quickstart on a host with an HCA).
rb_install_run_deps() {
	# shellcheck disable=SC2086 # the lists are word lists
	rb_install_pkgs $RB_PKGS_BUILD $RB_PKGS_RUN
}

# What the Soft-RoCE lab needs besides (scripts/quickstart --lab).
rb_install_lab_deps() {
	# shellcheck disable=SC2086 # the lists are word lists
	rb_install_pkgs $RB_PKGS_LAB
}

# The build directory of scripts/quickstart and bench-perftest, relative to
# the top of the tree.
RB_BUILDDIR=build

# rb_bootstrap: autoreconf when configure is missing or older than its inputs.
rb_bootstrap() {
	if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
		rb_say "autoreconf"
		autoreconf -fi >/dev/null || return 1
	fi
	# Automake refuses to configure elsewhere once the source tree itself
	# is configured: that build goes (sources are untouched).
	if [ -f config.status ]; then
		rb_say "the source tree is configured in place; scripts build in $RB_BUILDDIR/ and" \
			"others: removing the in-place build (make distclean)"
		if ! make -s distclean >/dev/null 2>&1 || [ -f config.status ]; then
			rb_say "make distclean failed: clean the source tree (git clean -dfX), then retry"
			return 1
		fi
	fi
}

# rb_build [DIR [CONFIGURE-ARGS...]]: configure (again when the arguments
# or configure changed) and build in DIR (default $RB_BUILDDIR), from the
# top of the tree.
rb_build() {
	local dir=${1:-$RB_BUILDDIR} top=$PWD args
	[ "$#" -eq 0 ] || shift
	# Each step checks its status: callers may run this under `||`,
	# where set -e does not apply.
	rb_bootstrap || return 1
	mkdir -p "$dir" || return 1
	args="$*"
	if [ ! -f "$dir/Makefile" ] || [ configure -nt "$dir/config.status" ] ||
		[ "$(cat "$dir/.configure-args" 2>/dev/null)" != "$args" ]; then
		rb_say "configure in $dir/${args:+ ($args)}"
		rm -f "$dir/.configure-args"
		(cd "$dir" && "$top/configure" -q "$@") || return 1
		printf '%s\n' "$args" >"$dir/.configure-args"
	fi
	rb_say "make in $dir/"
	make -C "$dir" -s -j"$(nproc)" >/dev/null
}

# Whether this machine has an RDMA device with an active port.
rb_have_rdma() {
	command -v ibv_devinfo >/dev/null && ibv_devinfo 2>/dev/null | grep -q PORT_ACTIVE
}
