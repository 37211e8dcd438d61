#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Checks an installed rdmabench: `make installcheck` runs it on $(bindir)
# (under DESTDIR when given), tests/package.sh on what the .deb holds.
#   RB_BINDIR      the installed bin directory (rdmabench, rdmabench-plot)
#   RB_COMPLETION  the installed bash completion file
#   RB_VERSION     the version --version must print (optional)
#   RB_MANDIR      the installed man directory (optional): the man pages
#   RB_PTDIR       the installed perftest names (optional): ib_write_bw ...
#   RB_SCHEMA      the installed JSON schema (optional)
#   TOP_SRCDIR     the source tree, for a sample CSV in tests/data/plot
# Everything runs in an empty scratch directory with RB_BINDIR first on
# PATH, so nothing can lean on the source or build tree.  Exit 0 pass,
# 1 fail.

set -euo pipefail

here=$(cd -- "$(dirname -- "$0")" && pwd)
top=${TOP_SRCDIR:-$here/..}
bindir=${RB_BINDIR:?RB_BINDIR: the installed bin directory}
completion=${RB_COMPLETION:?RB_COMPLETION: the installed bash completion}
bindir=$(cd -- "$bindir" && pwd)
completion=$(cd -- "$(dirname -- "$completion")" && pwd)/${completion##*/}

failures=0
fail() {
	printf 'FAIL: %s\n' "$*"
	failures=$((failures + 1))
}
ok() { printf 'ok: %s\n' "$*"; }

for f in "$bindir/rdmabench" "$bindir/rdmabench-plot"; do
	[[ -x $f ]] || { echo "FAIL: $f is not installed (or not executable)"; exit 1; }
done
[[ -f $completion ]] || { echo "FAIL: $completion is not installed"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmabench-installcheck.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT
cd "$tmp"
export PATH="$bindir:$PATH"

# --- the binary -------------------------------------------------------------
if out=$(rdmabench --help 2>&1) && [[ $out == *"usage: rdmabench COMMAND"* ]]; then
	ok "rdmabench --help"
else
	fail "rdmabench --help: $out"
fi
out=$(rdmabench --version 2>&1) || true
if [[ $out == "rdmabench ${RB_VERSION:-}"* ]]; then
	ok "rdmabench --version: $out"
else
	fail "rdmabench --version printed '$out', want 'rdmabench ${RB_VERSION:-VERSION}'"
fi

# --- the JSON schema, where the man page says it is -------------------------
if [[ -n ${RB_SCHEMA:-} ]]; then
	if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["title"].startswith("rdmabench results")' "$RB_SCHEMA" 2>/dev/null; then
		ok "the JSON schema is installed: $RB_SCHEMA"
	else
		fail "no JSON schema at $RB_SCHEMA"
	fi
fi

# --- perftest's names: links to rdmabench that take perftest's flags only ----
if [[ -n ${RB_PTDIR:-} ]]; then
	for n in ib_send_lat ib_send_bw ib_write_lat ib_write_bw ib_read_lat ib_read_bw \
		ib_atomic_lat ib_atomic_bw; do
		[[ -L $RB_PTDIR/$n && $(readlink -f "$RB_PTDIR/$n") == $(readlink -f "$bindir/rdmabench") ]] ||
			fail "$RB_PTDIR/$n is not a link to $bindir/rdmabench"
	done
	rc=0
	out=$("$RB_PTDIR/ib_write_bw" --expect 'bw>=1Gbps' somehost 2>&1) || rc=$?
	if ((rc == 2)) && [[ $out == *"only perftest's flags are taken"* ]]; then
		ok "ib_write_bw refuses rdmabench's own --expect"
	else
		fail "ib_write_bw --expect: exit $rc, '$out'"
	fi
fi

# topo exits 0 with a report, or 1 (EXIT STATUS: "runtime failure (no
# device ...)") with the one line that says there is no device.
rc=0
rdmabench topo >topo.out 2>topo.err || rc=$?
if ((rc == 0)) && [[ -s topo.out ]]; then
	ok "rdmabench topo: $(wc -l <topo.out) lines"
elif ((rc == 1)) && grep -q '^rdmabench: no RDMA device found' topo.err; then
	ok "rdmabench topo: exit 1, $(head -n 1 topo.err)"
else
	fail "rdmabench topo: exit $rc: $(head -n 3 topo.err topo.out)"
fi

# --- rdmabench-plot ---------------------------------------------------------
if out=$(rdmabench-plot --help 2>&1) && [[ $out == *sage:* ]]; then
	ok "rdmabench-plot --help"
else
	fail "rdmabench-plot --help: $out"
fi
# Its man page names every option its --help lists.
if [[ -n ${RB_MANDIR:-} ]]; then
	for page in rdmabench rdmabench-plot; do
		man=$RB_MANDIR/man1/$page.1
		[[ -f $man || -f $man.gz ]] || fail "no man page $man"
	done
	man=$RB_MANDIR/man1/rdmabench-plot.1
	if [[ -f $man ]]; then cat -- "$man"; else gzip -dc -- "$man.gz"; fi >plot.1 2>/dev/null || true
	for o in $(rdmabench-plot --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		if grep -qF -- "${o//-/\\-}" plot.1; then
			ok "man page rdmabench-plot(1) describes $o"
		else
			fail "man page rdmabench-plot(1) does not describe $o"
		fi
	done
fi
if ! command -v gnuplot >/dev/null; then
	echo "SKIP: rdmabench-plot on a CSV: gnuplot is not installed"
elif ! cp -- "$top/tests/data/plot/sample_bw.csv" run.csv; then
	fail "no sample CSV in $top/tests/data/plot"
elif ! rdmabench-plot run.csv -o plots >plot.out 2>plot.err; then
	fail "rdmabench-plot run.csv: $(head -n 3 plot.err)"
else
	magic=$(od -An -tx1 -N8 plots/run-bandwidth.png 2>/dev/null | tr -d ' \n')
	if [[ $magic == 89504e470d0a1a0a ]]; then
		ok "rdmabench-plot wrote $(find plots -name '*.png' | wc -l) PNGs"
	else
		fail "rdmabench-plot wrote no plots/run-bandwidth.png: $(cat plot.out plot.err)"
	fi
fi

# --- bash completion --------------------------------------------------------
# comp WORD... prints what completing the last WORD offers, one per line,
# as bash would call the function; the completion comes from the installed
# binary on PATH.  Run with and without bash-completion's helpers.
mkdir -p sys/class/infiniband/fake_dev0 sys/class/infiniband/fake_dev1
touch results-one.json report-run.json report-notes.txt
cat >comp.bash <<'EOF'
set -u
[[ $1 == plain ]] || . /usr/share/bash-completion/bash_completion
. "$2" || exit 1
shift 2
complete -p rdmabench >/dev/null || { echo "complete -p: rdmabench has no completion"; exit 1; }
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
_rdmabench
printf '%s\n' "${COMPREPLY[@]}"
EOF
modes=plain
if [[ -f /usr/share/bash-completion/bash_completion ]]; then
	modes+=" bash-completion"
else
	echo "SKIP: the completion with bash-completion's helpers: bash-completion is not installed"
fi

# expect MODE 'WANT' WORD...: the offers, sorted and joined by spaces, are WANT.
expect() {
	local mode=$1 want=$2 got
	shift 2
	got=$(RDMABENCH_SYSFS=$tmp/sys bash --norc --noprofile comp.bash "$mode" "$completion" "$@" 2>&1 |
		LC_ALL=C sort | tr '\n' ' ')
	got=${got% }
	if [[ $got == "$want" ]]; then
		ok "completion ($mode): $* -> $want"
	else
		fail "completion ($mode): '$*' offered '$got', want '$want'"
	fi
}
# help_opts CMD...: the long options "rdmabench CMD... --help-all" shows
# (every one; --help shows the common ones), perftest's flags left out, sorted.
help_opts() {
	rdmabench "$@" --help-all 2>&1 | sed "/^perftest's flags/,\$d" |
		grep -oE '^(  -[a-zA-Z0-9], |      )--[a-z0-9_-]+' |
		grep -oE -- '--[a-z0-9_-]+$' | LC_ALL=C sort | tr '\n' ' '
}
for mode in $modes; do
	expect "$mode" "" rdmabench write_bw --nosuch
	expect "$mode" "atomic atomic_bw atomic_lat" rdmabench at
	expect "$mode" "--batch" rdmabench write_bw --bat
	expect "$mode" "csv json perftest table" rdmabench write_bw --format ''
	expect "$mode" "fake_dev0 fake_dev1" rdmabench topo -d ''
	expect "$mode" "results-one.json" rdmabench topo --json res
	expect "$mode" "auto none" rdmabench server --cpu ''
	expect "$mode" "" rdmabench topo --bat
	expect "$mode" "" rdmabench server ''
	expect "$mode" "local-write,remote-atomic local-write,remote-read local-write,remote-write" \
		rdmabench reg --access local-write,remote-
	expect "$mode" "" rdmabench reg ''
	# report: its JSON files, its own options.
	expect "$mode" "report-run.json" rdmabench report rep
	expect "$mode" "--output" rdmabench report --out
	# Every option of write_bw that its --help shows (another reader of
	# the table than the --list-options the completion asks), --batch
	# among them, no atomic's --op and no matrix's --pattern.
	want=$(help_opts write_bw)
	[[ $want == *"--batch "* && $want != *"--op "* && $want != *"--pattern "* ]] ||
		fail "rdmabench write_bw --help: want --batch, neither --op nor --pattern: $want"
	expect "$mode" "${want% }" rdmabench write_bw --
	# matrix: a test first, then that test's options and matrix's.
	expect "$mode" "write_bw write_lat" rdmabench matrix wr
	expect "$mode" "--batch" rdmabench matrix write_bw --bat
	expect "$mode" "--simulate" rdmabench matrix send_lat --sim
	expect "$mode" "" rdmabench matrix send_lat --bat
	want=$(help_opts matrix write_bw)
	[[ $want == *"--batch "*"--pattern "* ]] || fail "rdmabench matrix write_bw --help lacks --batch or --pattern"
	expect "$mode" "${want% }" rdmabench matrix write_bw --
done

if ((failures)); then
	echo "$failures installed-file check(s) failed"
	exit 1
fi
echo "PASS: installed rdmabench, rdmabench-plot and bash completion in $bindir"
