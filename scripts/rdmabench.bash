# bash completion for rdmabench(1)                          -*- shell-script -*-
# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# Installed as $(datadir)/bash-completion/completions/rdmabench, where
# bash-completion loads it on first use; `. scripts/rdmabench.bash` works
# in any bash too.
#
# Nothing here lists commands or options: the binary being completed says
# what it has (rdmabench --list-commands; rdmabench --list-options CMD,
# one line per option: --long TAB -s TAB ARGNAME TAB choice|choice), so a
# new option completes as soon as it is in the option table.  An option's
# ARGNAME picks what its value completes to: the choices when it has some,
# RDMA devices for DEV, file names for FILE, directories for DIR,
# addresses for ADDR, and the lower-case words of an ARGNAME such as
# auto|none|LIST.  A LIST with choices (reg --access) completes the choice
# after the last comma.
#
# RDMABENCH_SYSFS (default /sys) is where the devices are read from, for
# tests.

# The binary as typed on the command line, so that completing
# build/src/rdmabench asks that build; a leading ~ is expanded.
_rdmabench_bin()
{
	local bin=$1

	[[ $bin == "~"/* ]] && bin=$HOME/${bin#"~/"}
	printf '%s\n' "$bin"
}

# The RDMA devices, one per line.
_rdmabench_devices()
{
	local d

	for d in "${RDMABENCH_SYSFS:-/sys}"/class/infiniband/*; do
		[[ -e $d ]] && printf '%s\n' "${d##*/}"
	done
}

# _rdmabench_value ARGNAME CHOICES: fill COMPREPLY with the values of an
# option whose argument is named ARGNAME, completing $cur.
_rdmabench_value()
{
	local argname=$1 choices=$2 words w

	if [[ -n $choices && $argname == LIST ]]; then
		local pre=${cur%"${cur##*,}"}
		mapfile -t COMPREPLY < <(compgen -P "$pre" -W "${choices//|/ }" -- "${cur##*,}")
		return
	elif [[ -n $choices ]]; then
		words=${choices//|/ }
	else
		case $argname in
		DEV)
			mapfile -t COMPREPLY < <(compgen -W "$(_rdmabench_devices)" -- "$cur")
			return
			;;
		FILE)
			if declare -F _filedir >/dev/null; then
				_filedir
			else
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -f -X '!*.json' -- "$cur")
			fi
			return
			;;
		ADDR)
			declare -F _ip_addresses >/dev/null && _ip_addresses
			return
			;;
		DIR)
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -d -- "$cur")
			return
			;;
		esac
		# auto|none|LIST: the literal words, not the placeholder.
		words=
		for w in ${argname//|/ }; do
			[[ $w == *[[:upper:]]* ]] || words+=" $w"
		done
	fi
	[[ -n $words ]] && mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
}

_rdmabench()
{
	local cur prev words cword split=false
	local bin cmd line long short argname choices opts i w
	local -A arg_of choices_of

	if declare -F _init_completion >/dev/null; then
		_init_completion -s || return
	else
		# Without bash-completion: the words as bash split them, with
		# "--opt=value" (split at the '=' of COMP_WORDBREAKS) put back.
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
		cur=${words[cword]}
		prev=${words[cword - 1]}
		if [[ $cur == = && $prev == --* ]]; then
			cur='' split=true
		elif [[ $prev == = && ${words[cword - 2]} == --* ]]; then
			prev=${words[cword - 2]} split=true
		fi
	fi
	COMPREPLY=()
	bin=$(_rdmabench_bin "${words[0]}")

	if ((cword == 1)); then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W '--help --version' -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$("$bin" --list-commands 2>/dev/null)" -- "$cur")
		fi
		return
	fi

	cmd=${words[1]}
	# matrix TEST: the test first (a test or a family), then its options
	# and matrix's (rdmabench --list-options matrix TEST).
	local test=
	if [[ $cmd == matrix ]]; then
		if ((cword == 2)) && [[ $cur != -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$("$bin" --list-commands 2>/dev/null |
				while read -r w; do
					"$bin" --list-options matrix "$w" >/dev/null 2>&1 && echo "$w"
				done)" -- "$cur")
			return
		fi
		((cword > 2)) && test=${words[2]}
	fi
	# Split at each tab by hand: read would merge the empty fields.
	while IFS= read -r line; do
		[[ $line == --*$'\t'*$'\t'*$'\t'* ]] || continue
		long=${line%%$'\t'*} line=${line#*$'\t'}
		short=${line%%$'\t'*} line=${line#*$'\t'}
		argname=${line%%$'\t'*} choices=${line#*$'\t'}
		opts+=" $long${short:+ $short}"
		arg_of[$long]=$argname
		choices_of[$long]=$choices
		if [[ -n $short ]]; then
			arg_of[$short]=$argname
			choices_of[$short]=$choices
		fi
	done < <("$bin" --list-options "$cmd" ${test:+"$test"} 2>/dev/null)
	# Not a command (or a binary without --list-options): offer nothing.
	[[ -n ${opts-} ]] || return

	# The value of an option.
	if [[ $prev == -* && -n ${arg_of[$prev]-} ]]; then
		_rdmabench_value "${arg_of[$prev]}" "${choices_of[$prev]}"
		return
	fi
	if $split; then
		return # "--flag=": a flag takes no value
	fi

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
		return
	fi

	[[ $cmd == matrix ]] && return # its one word, the test, is given
	# A command of files (report FILE.json...): JSON files, and folders.
	if "$bin" "$cmd" --help 2>/dev/null | grep -q '^usage: rdmabench [a-z]* FILE\.json'; then
		if declare -F _filedir >/dev/null; then
			_filedir json
		else
			mapfile -t COMPREPLY < <(compgen -f -X '!*.json' -- "$cur")
		fi
		return
	fi
	# A test command takes one HOST (its usage says so); server and topo
	# take none.  Skip the option values to see whether it is given.
	for ((i = 2; i < cword; i++)); do
		w=${words[i]}
		if [[ $w == = ]]; then
			((i++)) # "--opt" "=" "value", as bash split it
		elif [[ $w == -* ]]; then
			if [[ $w != *=* && -n ${arg_of[$w]-} && ${words[i + 1]-} != = ]]; then
				((i++))
			fi
		else
			return
		fi
	done
	"$bin" "$cmd" --help 2>/dev/null | grep -q ' HOST ' || return
	if declare -F _known_hosts_real >/dev/null; then
		_known_hosts_real -- "$cur"
	else
		mapfile -t COMPREPLY < <(compgen -A hostname -- "$cur")
	fi
} &&
	complete -F _rdmabench rdmabench

# ex: filetype=sh
