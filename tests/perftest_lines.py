#!/usr/bin/env python3
"""perftest_lines RDMABENCH LINES [SCHEMA]: run each perftest command line of the
corpus LINES (tests/data/perftest-lines/lines, whose head says the format)
as "rdmabench SUBCMD ARGS --dry-run" and check the plan it prints as JSON
against the record's expectations.  Records marked #pending are counted,
not run; records marked #refused must exit 2 with a message naming their
flag (perftest flags rdmabench refuses by design, naming its own way).  With SCHEMA (and python3-jsonschema) each plan is validated
against it too.  Prints one line per record; exits 1 when a line that is not
pending exits non-zero or means something else than expected."""
import json
import os
import shlex
import subprocess
import sys
import tempfile

try:
    from jsonschema import Draft202012Validator
except ImportError:
    Draft202012Validator = None

# An expectation's key: where it lies in the dry-run document (doc/json-schema.md).
KEYS = {
    "command": "command", "test": "test", "mode": "mode", "role": "role", "op": "op",
    "host": "server", "tcp_port": "tcp_port", "ignored": "ignored", "params": "params",
    "size": "params.size", "iterations": "params.iterations",
    "duration": "params.duration_s", "qps": "params.qps", "batch": "params.batch",
    "signal": "params.signal", "tx_depth": "params.tx_depth",
    "rx_depth": "params.rx_depth", "inline": "params.inline_size",
    "outstanding": "params.outstanding", "mtu": "params.mtu", "sl": "params.sl",
    "tclass": "params.tclass", "transport": "params.transport",
    "rdma_cm": "params.rdma_cm", "bidir": "params.bidirectional",
    "verify": "params.verify", "hugepages": "params.hugepages", "odp": "params.odp",
    "srq": "params.srq", "mr_per_qp": "params.mr_per_qp", "threads": "params.threads",
    "device": "device.requested.name", "ib_port": "device.requested.port",
    "gid_index": "device.requested.gid_index", "cpu": "placement.cpu",
    "numa": "placement.numa", "units": "output.units", "json": "output.json",
    "format": "output.format", "no_effect": "perftest_no_effect",
    "cqe_poll": "params.cqe_poll", "poll": "params.poll", "gpu": "placement.gpu.want",
    "gpu_mem": "placement.gpu.memory", "gpu_reg": "placement.gpu.reg",
}
# Shell syntax that ends the command (the rest is the shell's).
ENDS = ("&", "&&", "|", "||", ";")


def records(path):
    """Paragraphs of "key: value" lines; # comments outside records."""
    recs, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                cur = None
                continue
            mark = next((m for m in ("pending", "refused") if line.startswith("#" + m)), None)
            if mark:
                if cur is None:
                    sys.exit(f"{path}:{n}: #{mark} outside a record")
                cur[mark] = line[len(mark) + 1:].strip() or "?"
                continue
            if line.startswith("#"):
                continue
            key, sep, val = line.partition(":")
            if not sep or key not in ("source", "line", "expect", "lab"):
                sys.exit(f"{path}:{n}: not 'source:', 'line:', 'expect:' or 'lab:': {line}")
            if cur is None:
                cur = {"at": n, "expect": []}
                recs.append(cur)
            if key == "expect":
                cur["expect"] += val.split()
            else:
                cur[key] = val.strip()
    for r in recs:
        if "line" not in r or "source" not in r:
            sys.exit(f"{path}:{r['at']}: a record needs source: and line:")
    return recs


def perftest_argv(line):
    """The ib_* binary and its arguments: no wrapper before, no shell after."""
    words = shlex.split(line)
    for i, w in enumerate(words):
        if os.path.basename(w).startswith("ib_"):
            break
    else:
        raise ValueError("no ib_* binary in the line")
    argv = []
    for w in words[i:]:
        if w in ENDS or w.startswith(">") or w.startswith("2>"):
            break
        argv.append(w)
    return os.path.basename(argv[0])[3:], argv[1:]


def names_json(args):
    return any(a == "--out_json" or a.startswith("--out_json_file") or a.startswith("--json")
               for a in args)


def into(tmp, args):
    """A JSON file the line names goes into the scratch directory."""
    out, nxt = [], False
    for a in args:
        if nxt:
            a, nxt = os.path.join(tmp, os.path.basename(a)), False
        elif a in ("--out_json_file", "--json"):
            nxt = True
        elif a.startswith("--out_json_file=") or a.startswith("--json="):
            k, _, v = a.partition("=")
            a = k + "=" + os.path.join(tmp, os.path.basename(v))
        out.append(a)
    return out


def lookup(doc, path):
    v = doc
    for k in path.split("."):
        if not isinstance(v, dict) or k not in v:
            raise KeyError(path)
        v = v[k]
    return v


def parse_value(text):
    if text == "null":
        return None
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text


def check(doc, exp):
    """The expectations @exp does not meet in @doc, as text."""
    bad = []
    for e in exp:
        contains = "~=" in e
        key, _, want = e.partition("~=" if contains else "=")
        if key == "points":
            got = len(doc.get("points") or [])
            if got != int(want):
                bad.append(f"points: {got}, expected {want}")
            continue
        path = KEYS.get(key, key)
        try:
            got = lookup(doc, path)
        except KeyError:
            bad.append(f"{key}: {path} not in the plan")
            continue
        if contains:
            ok = isinstance(got, str) and want in got
        elif isinstance(got, list):
            ok = got == [parse_value(v) for v in want.split(",")]
        elif key == "json":
            ok = isinstance(got, str) and os.path.basename(got) == os.path.basename(want)
        elif isinstance(got, str):
            ok = got == want
        else:
            ok = got == parse_value(want)
        if not ok:
            bad.append(f"{key}: {json.dumps(got)}, expected {'~' if contains else ''}{want}")
    return bad


def refusal(p, rec):
    """A #refused line: exit 2, and the message names the flag."""
    flag = rec["refused"].split()[0].rstrip(":,")
    if p.returncode != 2:
        return [f"exit {p.returncode}, expected 2 (a usage error naming {flag})"]
    if flag not in p.stderr:
        return [f"the message does not name {flag}: {p.stderr.strip()}"]
    return []


def run(rb, rec, tmp, validator):
    sub, args = perftest_argv(rec["line"])
    args = into(tmp, args)
    plan = None
    extra = ["--dry-run"]
    if not names_json(args):
        plan = os.path.join(tmp, "plan.json")
        extra += ["--json", plan]
    env = dict(os.environ, RES_OPTIONS="timeout:1 attempts:1")
    cmd = [rb, sub] + args + extra
    p = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=60)
    if "refused" in rec:
        return refusal(p, rec), cmd
    if p.returncode:
        return [f"exit {p.returncode}: {p.stderr.strip()}"], cmd
    if plan is None:
        named = [a for a in args if a.startswith("--out_json_file=") or a.startswith("--json=")]
        plan = named[0].partition("=")[2] if named else os.path.join(tmp, "perftest_out.json")
        for i, a in enumerate(args[:-1]):
            if a in ("--out_json_file", "--json"):
                plan = args[i + 1]
    with open(plan, encoding="utf-8") as f:
        doc = json.load(f)
    os.unlink(plan)
    if doc.get("dry_run") is not True:
        return ["the JSON is not a dry-run plan"], cmd
    bad = [f"schema: {e.message}" for e in validator.iter_errors(doc)] if validator else []
    return bad + check(doc, rec["expect"]), cmd


# The flags a lab: record may bound, by either spelling.
BOUNDS = {"-n": ("-n", "--iters"), "-D": ("-D", "--duration")}
DEVICE = ("-d", "--ib-dev")


def drop_flag(args, names):
    """@args without any of @names and its value (either spelling)."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in names:
            skip = True
        elif not any(a.startswith(n + "=") for n in names if n.startswith("--")):
            out.append(a)
    return out


def lab_args(rec, args, host):
    """A corpus client line as the two-host lab runs it: no device (the lab
    names each side's), no host (the lab's server), and the bounds of its
    lab: record (-n=N, -D=S) in place of the line's own."""
    args = drop_flag(args, DEVICE)
    if host in args:
        args.remove(host)
    for b in rec["lab"].split()[1:]:
        flag, _, val = b.partition("=")
        args = drop_flag(args, BOUNDS[flag]) + [flag, val]
    return args


def lab(rb, path, out):
    """--lab OUT: write OUT/lab-lines, one line per lab: record, tab-separated:
    NAME, PROG, TEST, SIZE, then the server's and the client's arguments
    (shell words).  The server takes the client's line without its host, as
    perftest's users run it; a JSON file it names goes into OUT/srv."""
    with tempfile.TemporaryDirectory() as tmp, open(os.path.join(out, "lab-lines"), "w") as f:
        for rec in records(path):
            if "lab" not in rec:
                continue
            sub, args = perftest_argv(rec["line"])
            plan = os.path.join(tmp, "plan.json")
            p = subprocess.run([rb, sub] + drop_flag(args, ("--out_json_file", "--out_json"))
                               + ["--dry-run", "--json", plan], capture_output=True, text=True,
                               env=dict(os.environ, RES_OPTIONS="timeout:1 attempts:1"),
                               timeout=60)
            if p.returncode:
                sys.exit(f"{path}:{rec['at']}: lab: line exits {p.returncode}: {p.stderr}")
            with open(plan, encoding="utf-8") as g:
                doc = json.load(g)
            size = doc["points"][0]["size"] if doc.get("points") else 0
            a = lab_args(rec, args, doc.get("server"))
            name = rec["lab"].split()[0]
            srv, cli = into(os.path.join(out, "srv"), a), into(out, a)
            f.write(f"{name}\tib_{sub}\t{doc['test']}\t{size}\t{shlex.join(srv)}\t"
                    f"{shlex.join(cli)}\n")
    return 0


def main():
    rb, path = os.path.abspath(sys.argv[1]), sys.argv[2]
    if len(sys.argv) > 4 and sys.argv[3] == "--lab":
        return lab(rb, path, sys.argv[4])
    validator = None
    if len(sys.argv) > 3 and Draft202012Validator:
        with open(sys.argv[3], encoding="utf-8") as f:
            validator = Draft202012Validator(json.load(f))
    passed = failed = pending = refused = 0
    with tempfile.TemporaryDirectory() as tmp:
        for rec in records(path):
            where = f"{os.path.basename(path)}:{rec['at']}"
            if "pending" in rec:
                pending += 1
                print(f"PENDING {where}: {rec['line']}  [{rec['pending']}]")
                continue
            try:
                bad, cmd = run(rb, rec, tmp, validator)
            except (ValueError, OSError, subprocess.TimeoutExpired, json.JSONDecodeError) as e:
                bad, cmd = [str(e)], []
            if bad:
                failed += 1
                print(f"FAIL {where}: {rec['line']}\n  ran: {shlex.join(cmd)}")
                for b in bad:
                    print(f"  {b}")
            elif "refused" in rec:
                refused += 1
                print(f"ok {where}: refused as it should be: {rec['line']}")
            else:
                passed += 1
                print(f"ok {where}: {rec['line']}")
    print(f"{passed} passed, {refused} refused as expected, {failed} failed, {pending} pending "
          "(flags not taken yet)"
          + ("" if validator else "; plans not checked against the schema"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
