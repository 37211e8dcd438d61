#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Lint: clang-format (the repository's .clang-format) over the C of src/,
# tests/unit/, tests/fuzz/ and tests/cost/; shellcheck over every shell script under
# scripts/ and tests/; pyflakes and a syntax check over every Python file
# there.  Automake protocol: 0 pass, 1 fail, 77 skip (a linter is missing
# and nothing that ran failed).  Files are found, not listed, so a new
# script is linted without touching this file.

set -uo pipefail

here=$(cd -- "$(dirname -- "$0")" && pwd)
top=${TOP_SRCDIR:-$here/..}
cd -- "$top" || exit 1

failed=0 missing=''

# The shell scripts: a sh or bash shebang, or a "# shellcheck shell="
# directive (sourced files: scripts/lib/common.sh, tests/lab/lib/lab.sh, and
# scripts/rxe-lab-init, whose shebang is busybox).
shell_files() {
	local f
	find scripts tests -type f -not -path 'tests/data/*' -not -path 'tests/fuzz/corpus/*' \
		-not -name '*.py' -not -name '*.[ch]' | LC_ALL=C sort |
		while IFS= read -r f; do
			if head -n 1 -- "$f" | grep -Eq '^#!.*[/ ](ba|da)?sh( |$)' ||
				head -n 3 -- "$f" | grep -q '^# shellcheck shell='; then
				printf '%s\n' "$f"
			fi
		done
}

# The Python files: *.py, or a python shebang (scripts/plot).
python_files() {
	local f
	find scripts tests -type f -not -path 'tests/data/*' -not -path 'tests/fuzz/corpus/*' \
		-not -name '*.[ch]' | LC_ALL=C sort |
		while IFS= read -r f; do
			case $f in
			*.py) printf '%s\n' "$f" ;;
			*) head -n 1 -- "$f" | grep -q '^#!.*python' && printf '%s\n' "$f" ;;
			esac
		done
	return 0
}

# --- C: layers -------------------------------------------------------------
# src/ is folders in layers, lowest first (src/README.md).  A file may
# include a header of its own folder or of a folder below, always by its
# folder ("core/log.h"), never one above; src/main.c, at the top, may
# include any.  A file of src/ in no layer fails, so a new folder is
# placed here first.
layers='core wire rdma topo report engine bench session cli doctor reg matrix'
layer_rank() {
	local i=0 l
	for l in $layers; do
		[[ $l == "$1" ]] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo -1
}
n=0 bad=0
for f in src/*/*.[ch]; do
	n=$((n + 1))
	dir=${f#src/} dir=${dir%%/*}
	own=$(layer_rank "$dir")
	if ((own < 0)); then
		echo "layers: $f is in src/$dir/, which is no layer (tests/lint.sh: layers=)"
		bad=$((bad + 1))
		continue
	fi
	while IFS=: read -r line inc; do
		case $inc in
		config.h) continue ;;
		*/*) ;;
		*)
			echo "layers: $f:$line includes \"$inc\" without its folder"
			bad=$((bad + 1))
			continue
			;;
		esac
		r=$(layer_rank "${inc%%/*}")
		if ((r < 0 || r > own)); then
			echo "layers: $f:$line ($dir) includes \"$inc\", a layer above or none"
			bad=$((bad + 1))
		fi
		# The run's fields are the engine's and its test rows': the
		# session drives a run through engine/xfer.h and writes none.
		if [[ $inc == engine/run.h && $dir != engine && $dir != bench ]]; then
			echo "layers: $f:$line ($dir) includes \"$inc\", private to src/engine/ and src/bench/ (use engine/xfer.h)"
			bad=$((bad + 1))
		fi
	done < <(grep -n '^#[[:space:]]*include[[:space:]]*"' "$f" |
		sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
done
for f in src/*.[ch]; do
	[[ $f == src/main.c ]] && continue
	echo "layers: $f sits in src/ itself; only main.c does"
	bad=$((bad + 1))
done
echo "layers: $bad include-direction findings in $n C files"
((bad == 0)) || failed=1

# --- C: layers at link time ------------------------------------------------
# What the includes cannot show: a symbol an object uses must be defined
# in its own layer or below (nm over the build's objects).  Known debts,
# each named (LAYER:SYMBOL) so that a new one fails: none left (a table a
# lower layer reads, filled from above, registers itself: bench/benches.c).
link_debts=''
objdir=${TOP_BUILDDIR:-}/src
if [[ -n ${TOP_BUILDDIR:-} ]] && command -v nm >/dev/null 2>&1 &&
	compgen -G "$objdir/core/*.o" >/dev/null; then
	ranks=$(i=0; for l in $layers; do echo "$l $i"; i=$((i + 1)); done)
	out=$(for o in "$objdir"/*/*.o; do
		d=${o#"$objdir"/} d=${d%%/*}
		nm -g --defined-only -- "$o" | awk -v d="$d" '$2 ~ /^[TDBRCVW]$/ { print "D", $3, d }'
		nm -u -- "$o" | awk -v d="$d" -v o="${o#"$objdir"/}" '{ print "U", $2, d, o }'
	done | awk -v ranks="$ranks" -v debts="$link_debts" '
		BEGIN { n = split(ranks, r, "[ \n]"); for (i = 1; i < n; i += 2) rank[r[i]] = r[i + 1]
			m = split(debts, x, "[ \n]+"); for (i = 1; i <= m; i++) debt[x[i]] = 1 }
		$1 == "D" { def[$2] = $3; next }
		{ use[++k] = $0 }
		END { for (i = 1; i <= k; i++) { split(use[i], u, " ")
			if (!(u[2] in def) || rank[def[u[2]]] <= rank[u[3]]) continue
			if ((u[3] ":" u[2]) in debt) { kept++; continue }
			printf "links: src/%s (%s) uses %s, defined in %s/, a layer above\n", u[4], u[3], u[2], def[u[2]] }
		printf "links: %d known debts\n", kept }')
	printf '%s\n' "$out"
	bad=$(grep -c 'a layer above' <<<"$out")
	echo "links: $bad upward references in $(compgen -G "$objdir/*/*.o" | wc -l) objects"
	((bad == 0)) || failed=1
else
	missing+=' objects(TOP_BUILDDIR)'
fi

# --- C: file size -------------------------------------------------------------
# No file of src/ or tests/unit/ above 1,000 lines, but a data table (named
# here): past that a file holds more than one concern; split it by concern
# (a test file around a fixture of its own, as test_xfer_*.c and xfer_fx.c).
data_tables='src/core/opts_table.c'
big=0
for f in src/main.c src/*/*.[ch] tests/unit/*.[ch]; do
	lines=$(wc -l <"$f")
	((lines > 1000)) || continue
	case " $data_tables " in *" $f "*) continue ;; esac
	echo "size: $f has $lines lines (over 1,000): split it by concern"
	big=$((big + 1))
done
echo "size: $big files of src/ and tests/unit/ over 1,000 lines (data tables aside)"
((big == 0)) || failed=1

# --- C: clang-format --------------------------------------------------------
if command -v clang-format >/dev/null 2>&1; then
	n=0 bad=0
	for f in src/*.[ch] src/*/*.[ch] tests/unit/*.[ch] tests/fuzz/*.[ch] tests/cost/*.[ch]; do
		[[ -e $f ]] || continue
		n=$((n + 1))
		if ! out=$(clang-format --dry-run -Werror -- "$f" 2>&1); then
			bad=$((bad + 1))
			echo "clang-format: $f is not formatted (clang-format -i $f); first lines:"
			printf '%s\n' "$out" | head -n 6 | sed 's/^/    /'
		fi
	done
	echo "clang-format: $bad of $n C files not formatted"
	((bad == 0)) || failed=1
else
	missing+=' clang-format'
fi

# --- shell: shellcheck ------------------------------------------------------
if command -v shellcheck >/dev/null 2>&1; then
	mapfile -t sh_files < <(shell_files)
	# -x follows sourced files; SCRIPTDIR finds scripts/lib/common.sh from
	# scripts/, and the lab tests name tests/lab/lib/lab.sh from the top.
	if shellcheck -x -P SCRIPTDIR -f gcc -- "${sh_files[@]}"; then
		echo "shellcheck: ${#sh_files[@]} shell scripts clean"
	else
		echo "shellcheck: findings above (in ${#sh_files[@]} shell scripts)"
		failed=1
	fi
else
	missing+=' shellcheck'
fi

# --- Python: syntax and pyflakes --------------------------------------------
mapfile -t py_files < <(python_files)
if command -v python3 >/dev/null 2>&1; then
	# compile() only: no __pycache__ left in the source tree.
	if python3 -c '
import sys
bad = 0
for f in sys.argv[1:]:
    try:
        compile(open(f, "rb").read(), f, "exec")
    except SyntaxError as e:
        print("python3: %s:%s: %s" % (f, e.lineno, e.msg))
        bad = 1
sys.exit(bad)' "${py_files[@]}"; then
		echo "python3: ${#py_files[@]} Python files compile"
	else
		failed=1
	fi
else
	missing+=' python3'
fi
if command -v pyflakes3 >/dev/null 2>&1; then
	if pyflakes3 "${py_files[@]}"; then
		echo "pyflakes3: ${#py_files[@]} Python files clean"
	else
		failed=1
	fi
else
	missing+=' pyflakes3'
fi

if ((failed)); then
	echo "FAIL: lint"
	exit 1
fi
if [[ -n $missing ]]; then
	echo "SKIP: not installed:$missing (scripts/check installs them)"
	exit 77
fi
echo "PASS: lint"
