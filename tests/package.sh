#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The installed program, two ways:
#   1. `make install` of this build into a scratch DESTDIR, then `make
#      installcheck` there (tests/installcheck.sh);
#   2. the Debian package: dpkg-buildpackage -b in a clean copy of the
#      source tree, then its contents, lintian (an error fails the test,
#      warnings are shown), the changelog's version against configure.ac's,
#      and tests/installcheck.sh on the package unpacked with dpkg -x into
#      a scratch root (nothing is installed on this machine).
# The copy holds the files git has in the working tree (tracked, and new
# ones not ignored), so uncommitted work is what gets packaged; outside a
# git checkout (a dist tarball), the tree as it is.  The package is built
# with DEB_BUILD_OPTIONS=nocheck: make check runs the unit tests already.
# Automake protocol: 0 pass, 1 fail, 77 skip (dpkg-buildpackage, debhelper
# or lintian missing; part 1 still runs and can fail).

set -euo pipefail

here=$(cd -- "$(dirname -- "$0")" && pwd)
top=$(cd -- "${TOP_SRCDIR:-$here/..}" && pwd)
t0=$SECONDS

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmabench-package.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

die() {
	printf 'FAIL: %s\n' "$*"
	exit 1
}
step() { printf '== %s (%d s)\n' "$*" $((SECONDS - t0)); }

# --- 1. make install / make installcheck of this build ---------------------
if [[ -n ${TOP_BUILDDIR:-} ]]; then
	step "make install DESTDIR=$tmp/stage; make installcheck"
	# A make of its own, not a part of the make check that runs us.
	submake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP_BUILDDIR" "$@"; }
	submake install DESTDIR="$tmp/stage" >"$tmp/install.log" 2>&1 ||
		{ cat "$tmp/install.log"; die "make install DESTDIR=$tmp/stage failed"; }
	submake installcheck DESTDIR="$tmp/stage" ||
		die "make installcheck DESTDIR=$tmp/stage failed"
	submake uninstall DESTDIR="$tmp/stage" >/dev/null 2>&1 ||
		die "make uninstall DESTDIR=$tmp/stage failed"
	left=$(find "$tmp/stage" -type f)
	[[ -z $left ]] || die "make uninstall left files behind: $left"
else
	echo "make installcheck: not run (TOP_BUILDDIR is not set: run this from make check)"
fi

# --- 2. the Debian package ----------------------------------------------------
missing=
for tool in dpkg-buildpackage dpkg-deb dpkg-parsechangelog dh lintian; do
	command -v "$tool" >/dev/null || missing+=" $tool"
done
if [[ -n $missing ]]; then
	echo "SKIP: the Debian package: missing$missing (apt-get install dpkg-dev debhelper lintian)"
	exit 77
fi

step "a clean copy of $top"
mkdir "$tmp/src"
if command -v git >/dev/null && git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$top" ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			if [[ -e $top/$f || -L $top/$f ]]; then printf '%s\0' "$f"; fi
		done |
		tar -C "$top" --null -T - -cf - | tar -C "$tmp/src" -xf -
else
	[[ ! -f $top/config.status ]] || die "$top is configured in place and is not a git checkout: no clean copy"
	cp -a "$top/." "$tmp/src/"
fi
[[ -x $tmp/src/debian/rules ]] || die "no debian/rules in the copy of $top"

want=$(sed -n 's/^AC_INIT(\[rdmabench\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
version=$(dpkg-parsechangelog -l "$tmp/src/debian/changelog" -S Version)
[[ -n $want && $version == "$want" ]] ||
	die "debian/changelog is at version $version, configure.ac (AC_INIT) at $want: add a changelog entry (dch -v $want)"

step "dpkg-buildpackage -us -uc -b (nocheck, parallel=2)"
if ! (cd "$tmp/src" && DEB_BUILD_OPTIONS="nocheck parallel=2" DEB_BUILD_PROFILES=nocheck \
	dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
	tail -n 40 "$tmp/build.log"
	die "dpkg-buildpackage failed (last 40 lines above)"
fi
debs=("$tmp"/rdmabench_"$version"_*.deb)
[[ -f ${debs[0]} ]] || die "dpkg-buildpackage made no rdmabench_${version}_*.deb: $(ls "$tmp")"
deb=${debs[0]}

# a link's line ends "PATH -> TARGET": its path is the field before the arrow
dpkg-deb -c "$deb" | awk '{ print ($(NF - 1) == "->" ? $(NF - 2) : $NF) }' | sed 's|^\./|/|' >"$tmp/contents"
for f in /usr/bin/rdmabench /usr/bin/rdmabench-plot /usr/share/man/man1/rdmabench.1.gz \
	/usr/share/man/man1/rdmabench-plot.1.gz /usr/share/bash-completion/completions/rdmabench \
	/usr/share/doc/rdmabench/copyright /usr/libexec/rdmabench/perftest/ib_write_bw; do
	grep -qxF "$f" "$tmp/contents" || die "${deb##*/} has no $f; it holds: $(tr '\n' ' ' <"$tmp/contents")"
done
echo "${deb##*/}: $(grep -c '[^/]$' "$tmp/contents") files"

step "lintian"
rc=0
lintian --fail-on error --tag-display-limit 0 "$deb" >"$tmp/lintian.out" 2>&1 || rc=$?
cat "$tmp/lintian.out"
((rc == 0)) || die "lintian failed (status $rc) on ${deb##*/}"
echo "lintian: $(grep -c '^E:' "$tmp/lintian.out" || true) errors, $(grep -c '^W:' "$tmp/lintian.out" || true) warnings"

step "the package's files (dpkg -x into $tmp/root)"
dpkg -x "$deb" "$tmp/root"
RB_BINDIR=$tmp/root/usr/bin RB_COMPLETION=$tmp/root/usr/share/bash-completion/completions/rdmabench \
	RB_PTDIR=$tmp/root/usr/libexec/rdmabench/perftest \
	RB_MANDIR=$tmp/root/usr/share/man RB_SCHEMA=$tmp/root/usr/share/rdmabench/rdmabench.schema.json RB_VERSION=$version TOP_SRCDIR=$top "$here/installcheck.sh" || die "the files of ${deb##*/} failed their checks"

step "rdmabench-server.service: systemd-analyze verify, security"
unit=$tmp/root/lib/systemd/system/rdmabench-server.service
[[ -f $unit ]] || die "${deb##*/} has no /lib/systemd/system/rdmabench-server.service"
if dpkg-deb -I "$deb" postinst 2>/dev/null | grep -q "deb-systemd-invoke start\|enable rdmabench-server"; then
	die "${deb##*/} enables or starts rdmabench-server.service: it must ship disabled"
fi
if command -v systemd-analyze >/dev/null; then
	# The unit as installed, its ExecStart pointed at the unpacked binary:
	# verify prints every finding (and exits 0 on most), so any line fails.
	sed "s|/usr/bin/rdmabench|$tmp/root/usr/bin/rdmabench|" "$unit" >"$tmp/rdmabench-server.service"
	systemd-analyze verify --man=no "$tmp/rdmabench-server.service" >"$tmp/verify.out" 2>&1 || true
	[[ ! -s $tmp/verify.out ]] || { cat "$tmp/verify.out"; die "systemd-analyze verify: findings above"; }
	systemd-analyze security --offline=yes "$tmp/rdmabench-server.service" 2>&1 | tail -n 1
else
	echo "systemd-analyze: not here (apt-get install systemd): the unit is not verified"
fi

step "PASS: ${deb##*/}"
