#!/usr/bin/env python3
"""A hostile rdmabench peer, for the lab's fault tests.

Usage: hostile.py HOST PORT CASE [CASE...]
       hostile.py HOST PORT serve CASE [CASE...]   (a lying server, below)

Each CASE opens one connection, sends what the case says, and prints one
line: "CASE <tab> seconds <tab> what came back" (the server's ERROR text,
"closed", or "silent" after 10 s).  "flood", "threadflood" and
"threadjoin" open several connections at once, a line each.  The wire format is the one of
src/wire/wire.h: a 12-byte header (magic "RDMB", version u16, type u16, body
length u32, big-endian), then fixed big-endian fields; strings are a u16
length and the bytes.  PARAMS, HELLO and CONN are keyed fields
(src/wire/wire_keyed.h), packed from `$RB --list-wire`.
"""
import functools
import os
import random
import re
import socket
import struct
import subprocess
import sys
import threading
import time

HELLO, PARAMS, SYNC, ERROR, OK, DATA, AUTH = 1, 2, 4, 6, 8, 10, 13
SYNC_ALIVE = 3


def wire_version():
    """This tree's wire version (src/wire/wire.h), whatever it is: a literal here
    went stale when v7 came."""
    h = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "src", "wire",
                     "wire.h")
    with open(h, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#define RB_WIRE_VERSION\s+(\d+)", line)
            if m:
                return int(m.group(1))
    raise SystemExit(f"no RB_WIRE_VERSION in {h}")


VERSION = wire_version()


def frame(typ, body=b"", version=VERSION, length=None):
    n = len(body) if length is None else length
    return struct.pack(">IHHI", 0x52444D42, version, typ, n) + body


def s16(text):
    b = text.encode()
    return struct.pack(">H", len(b)) + b


@functools.lru_cache(maxsize=None)
def wire_rows():
    """Every keyed message's rows as this tree's binary lists them
    (rdmabench --list-wire: message, tag, must|optional, kind, name): the
    packers below follow the rows, never a copy of them.  Asked once a
    process: a start of rdmabench in the emulated guest takes a second or
    more, twenty at once far longer (the floods ask before they connect)."""
    rb = os.environ.get("RB", "rdmabench")
    return subprocess.run([rb, "--list-wire"], check=True, capture_output=True,
                          text=True).stdout


def list_fields(msg):
    """@msg's ("PARAMS", "HELLO", "CONN") fields: name -> (tag as sent, kind)."""
    fields = {}
    for line in wire_rows().splitlines():
        m, tag, must, kind, name = line.split("\t")
        if m == msg:
            fields[name] = (int(tag) | (0x8000 if must == "must" else 0), kind)
    return fields


def plan_fields():
    """The plan's keyed fields (wire v18)."""
    return list_fields("PARAMS")


# hostile.py's names for the plan's fields, where they differ from the JSON's.
ALIASES = {"tx": "tx_depth", "iters": "iterations", "duration": "duration_s", "rx": "rx_depth",
           "inline": "inline_size", "op": "atomic_op", "bidir": "bidirectional",
           "imm": "with_imm"}
WIDTH = {"u8": ">B", "u32": ">I", "u64": ">Q"}


def value_bytes(kind, value):
    """A field's value as rdmabench packs it; b"" (left out) at zero."""
    if kind == "axis":
        return b"".join(struct.pack(">Q", x) for x in value)
    if kind == "str":
        return value.encode()
    if kind == "flows":
        return struct.pack(">I", value) if value else b""
    if kind in WIDTH:
        return struct.pack(WIDTH[kind], value & (1 << 8 * struct.calcsize(WIDTH[kind])) - 1) \
            if value else b""
    return value if any(value) else b""  # bytes, and lists packed by the caller


def keyed(fields, values):
    """A keyed body (src/wire/wire_keyed.h): a count, then per field not at
    zero its tag, its length and its value."""
    body = b""
    count = 0
    for name, value in values.items():
        tag, kind = fields[name]
        v = value_bytes(kind, value)
        if v:
            body += struct.pack(">HH", tag, len(v)) + v
            count += 1
    return struct.pack(">H", count) + body


def unkeyed(body):
    """[tag, value] of each field of a keyed body."""
    (count,) = struct.unpack(">H", body[:2])
    at, out = 2, []
    for _ in range(count):
        tag, n = struct.unpack(">HH", body[at:at + 4])
        out.append([tag, body[at + 4:at + 4 + n]])
        at += 4 + n
    return out


def params(**plan):
    """A PARAMS body: a write_bw plan with @plan's fields changed; a field at
    zero is left out, as rdmabench leaves it (an axis is a tuple)."""
    base = dict(test="write_bw", size=(65536,), batch=(1,), signal=(64,), qps=(1,),
                tx_depth=(128,), iterations=100, warmup=10, rx_depth=512, threads=1,
                poll=(0,), cqe_poll=(32,))
    base.update((ALIASES.get(k, k), v) for k, v in plan.items())
    return keyed(plan_fields(), base)


def hello(test="write_bw", auth=0, nonce=bytes(32)):
    """v19: keyed fields (rdmabench --list-wire's HELLO rows)."""
    return frame(HELLO, keyed(list_fields("HELLO"),
                              dict(tool_version="hostile", test=test, host="elsewhere",
                                   auth=auth, nonce=nonce)))


def read_answer(sock, limit=10.0, oks=0):
    """The first message that is not OK, or "OK" after @oks of them: its
    text, or closed/silent."""
    sock.settimeout(limit)
    buf = b""
    try:
        while True:
            while len(buf) < 12:
                chunk = sock.recv(4096)
                if not chunk:
                    return "closed"
                buf += chunk
            _, _, typ, n = struct.unpack(">IHHI", buf[:12])
            while len(buf) < 12 + n:
                chunk = sock.recv(4096)
                if not chunk:
                    return "closed"
                buf += chunk
            body, buf = buf[12:12 + n], buf[12 + n:]
            if typ == ERROR:
                (ln,) = struct.unpack(">H", body[:2])
                return "ERROR " + body[2:2 + ln].decode(errors="replace")
            if typ != OK:
                return "type %d" % typ
            oks -= 1
            if oks == 0:
                return "OK"
    except socket.timeout:
        return "silent"
    except ConnectionResetError:
        return "closed"


PLANS = {
    "batch0": dict(batch=(0,)),
    "qps0": dict(qps=(0,)),
    "size0": dict(size=(0,)),
    "bigsize": dict(size=(1 << 30,)),
    "qps100000": dict(qps=(100000,)),
    "signal0": dict(signal=(0,)),
    "oom": dict(qps=(64,), tx=(32768,)),
    "srq_write": dict(srq=1),
    "odp2": dict(odp=2),
    "mrq_oom": dict(qps=(64,), size=(64 << 20,), mr_per_qp=1),
    "bidirlat": dict(test="write_lat", signal=(1,), bidir=1),
    "bidir2": dict(bidir=2),
    "reversedbidir": dict(test="send_bw", reversed=1, bidir=1),
    "ratenounit": dict(rate=1000),
    "foreversweep": dict(iters=0, forever=1, size=(64, 128)),
    "interval99": dict(interval_ms=99),
    "cqpq2": dict(cq_per_qp=2),
}


def connect(host, port):
    for _ in range(100):  # the server may still be starting
        try:
            return socket.create_connection((host, port), timeout=10)
        except ConnectionRefusedError:
            time.sleep(0.1)
    return None


def connect_send(host, port, data):
    """A connection that has sent @data (None: no server).  The bytes are
    made before the connection: the server's --timeout for a message runs
    from its accept, and a client that built its plan after connecting
    (a `$RB --list-plan` each, twenty threads at once in the emulated
    guest) let it run out before the HELLO came."""
    s = connect(host, port)
    if s is not None:
        s.sendall(data)
    return s


def at_once(host, port, name, datas, oks=0):
    """A connection per item of @datas, all open at once: opened and sent
    one after another from this thread (nothing between a connect and its
    send), then each answer read by a thread of its own; a line each as
    run_case()'s, its seconds from its connect."""
    conns = []
    for data in datas:
        t0 = time.monotonic()
        conns.append((t0, connect_send(host, port, data)))
    out = [None] * len(conns)

    def one(i):
        t0, s = conns[i]
        what = "no server" if s is None else read_answer(s, 10.0, oks)
        if s is not None:
            s.close()
        out[i] = "%s\t%.2f\t%s" % (name, time.monotonic() - t0, what.replace("\n", "\\n"))
    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(conns))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def thread_hello(run_id, thread, size=65536, **plan):
    """HELLO and the plan of thread @thread of a run of 2 named @run_id."""
    return hello() + frame(PARAMS, params(size=(size,), threads=2, thread=thread,
                                          run_id=run_id, **plan))


def thread_plan(host, port, run_id, thread, size=65536, oks=0, **plan):
    """A plan of thread @thread of a run of 2 named @run_id: the socket
    (left open) and what came back."""
    s = connect_send(host, port, thread_hello(run_id, thread, size, **plan))
    if s is None:
        return None, "no server"
    return s, read_answer(s, 10.0, oks)


def thread_join(host, port):
    """Thread 0 of a run is served; one thread 1 of it joins, a second is
    refused, and so is one that needs more memory than thread 0 was
    admitted for.  One line per connection."""
    run_id, out, socks = random.getrandbits(63) | 1, [], []
    for name, thread, size in (("thread0", 0, 65536), ("bigger1", 1, 1 << 20),
                               ("thread1", 1, 65536), ("again1", 1, 65536)):
        t0 = time.monotonic()
        s, what = thread_plan(host, port, run_id, thread, size, oks=2)
        socks.append(s)
        out.append("%s\t%.2f\t%s" % (name, time.monotonic() - t0, what.replace("\n", "\\n")))
    for s in socks:
        if s is not None:
            s.close()
    return out


def thread_flood(host, port, n=28):
    """@n connections at once, each thread 1 of a run of 2 with 32 MiB
    pinned (2 QPs, a buffer pair of 8 MiB each: rxe's largest message),
    none with its thread 0: each line as run_case()'s."""
    return at_once(host, port, "threadflood",
                   [thread_hello(random.getrandbits(63) | 1, 1, 8 << 20, qps=(2,), mr_per_qp=1)
                    for _ in range(n)])


def plan_hello(case):
    """HELLO and PARAMS of plan case @case (PLANS)."""
    plan = PLANS[case]
    return hello(plan.get("test", "write_bw")) + frame(PARAMS, params(**plan))


def run_case(host, port, case):
    data = plan_hello(case) if case in PLANS else b""
    if case in LYING_CONN:
        plan_fields()  # lying_client()'s plan, made before the connection
    t0 = time.monotonic()
    s = connect(host, port)
    if s is None:
        return "%s\t0\tno server" % case
    if case in PLANS:
        s.sendall(data)
    elif case == "badtest":
        s.sendall(hello("rm -rf /\n\x1b[31mFAKE LOG LINE"))
    elif case == "truncated":
        s.sendall(frame(HELLO, s16("x"), length=40) + b"\0\0")
        s.shutdown(socket.SHUT_WR)
    elif case == "version":
        s.sendall(frame(HELLO, s16("x") + s16("write_bw"), version=99))
    elif case == "hugelen":
        s.sendall(frame(HELLO, b"", length=0x7FFFFFFF))
    elif case == "http":
        s.sendall(b"GET / HTTP/1.0\r\n\r\n")
    elif case == "hello_silent":
        s.sendall(hello())
    elif case == "silent":
        pass
    elif case == "trickle":
        # One byte every 2 s of a valid HELLO: held only by a per-message timeout.
        data = hello()
        for b in data:
            try:
                s.send(bytes([b]))
            except OSError:
                break
            time.sleep(2)
    elif case in LYING_CONN:
        lying_client(s, case)
    else:
        raise SystemExit("unknown case " + case)
    what = read_answer(s, 40.0 if case in ("hello_silent", "silent", "trickle") else 10.0)
    s.close()
    return "%s\t%.2f\t%s" % (case, time.monotonic() - t0, what.replace("\n", "\\n"))


def place_body():
    """A placement as wire.c packs it: nothing known."""
    return (struct.pack(">i", -1) + s16("") + struct.pack(">ii", -1, -1) +
            struct.pack(">i", -1) + s16("") + struct.pack(">I", 0))


def expect_oks(s, n):
    for _ in range(n):
        got = read_message(s)
        if got is None or got[0] != OK:
            return "ERROR " + got[1][2:].decode(errors="replace") if got else "closed"
    return None


def slot_case(host, port, case):
    """Issue 41's slot holds, and --auth-key's refusals: one line as run_case()'s.
    alivehold: thread 0 of a run of 2 whose thread 1 never comes, saying it is
    alive every second for up to 40 s; tcphangup: a tcp_lat client that sends
    its DATA and hangs up; noauth: no key against a keyed server; badauth: a
    keyed HELLO, then a proof that is not the key's."""
    if case in ("alivehold", "tcphangup"):
        plan_fields()  # made before the connection (connect_send())
    t0 = time.monotonic()
    s = connect(host, port)
    if s is None:
        return "%s\t0\tno server" % case
    what = None
    if case == "alivehold":
        s.sendall(hello() + frame(PARAMS, params(threads=2, thread=0,
                                                 run_id=random.getrandbits(63) | 1)))
        what = expect_oks(s, 2)
        if what is None:
            s.sendall(frame(CONN, conn_body()))
            got = read_message(s)
            what = None if got and got[0] == CONN else "no CONN: %r" % (got,)
        while what is None and time.monotonic() - t0 < 40:
            try:
                s.sendall(frame(SYNC, struct.pack(">IIQ", 0, SYNC_ALIVE, 0)))
            except OSError:
                what = "closed"
                break
            got = read_message(s, 1.0)
            if got is not None and got[0] == ERROR:
                what = "ERROR " + got[1][2:].decode(errors="replace")
            elif got is not None:
                what = "type %d" % got[0]
        what = what or "held 40 s"
    elif case == "tcphangup":
        s.sendall(hello("tcp_lat") + frame(PARAMS, params(test="tcp_lat", size=(64,),
                                                          signal=(1,), tx=(1,), rx=1)))
        what = expect_oks(s, 2)
        if what is None:
            s.sendall(frame(DATA, struct.pack(">HIIIB", 0, 16384, 131072, 0, 1) + s16("") +
                            place_body()))
            got = read_message(s)
            what = "hung up after DATA" if got and got[0] == DATA else "no DATA: %r" % (got,)
    elif case == "noauth":
        s.sendall(hello())
        what = read_answer(s)
    elif case == "badauth":
        s.sendall(hello(auth=1, nonce=os.urandom(32)))
        got = read_message(s)
        if got is None or got[0] != AUTH:
            what = "no AUTH: %r" % (got,)
        else:
            s.sendall(frame(AUTH, bytes(32) + os.urandom(32)))
            what = read_answer(s)
    s.close()
    return "%s\t%.2f\t%s" % (case, time.monotonic() - t0, what.replace("\n", "\\n"))


SLOT_CASES = ("alivehold", "tcphangup", "noauth", "badauth")


def main():
    host, port, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    if cases and cases[0] in ("flood", "threadflood"):
        wire_rows()  # once, before the connections at once, not in each
    if cases and cases[0] in ("threadjoin", "threadflood"):
        lines = thread_join(host, port) if cases[0] == "threadjoin" else thread_flood(host, port)
        print("\n".join(lines), flush=True)
        return
    if cases and cases[0] in SLOT_CASES:
        print("\n".join(slot_case(host, port, c) for c in cases), flush=True)
        return
    if cases and cases[0] == "serve":
        lying_server(host, port, cases[1:])
        return
    if cases and cases[0] == "flood":
        # 20 connections at once, each a bad plan.
        print("\n".join(at_once(host, port, "flood", [plan_hello("batch0")] * 20)), flush=True)
        return
    for c in cases:
        print(run_case(host, port, c), flush=True)


# ---- a lying peer's CONN (issue 28) ------------------------------------------
# A client case sends HELLO and PARAMS (write_bw, one QP) and then a CONN
# with one lie; "serve CASE..." is a server that answers a real client's
# CONN (one client per case) with its own CONN, the same lie put in.  Either way the other side must
# refuse at once, naming the field, its output free of raw escapes.
CONN = 3
LYING_CONN = {
    "conn_mtu0": dict(mtu=0),
    "conn_mtu100": dict(mtu=100),
    "conn_mtu5000": dict(mtu=5000),
    "conn_esc": dict(cpus="\x1b[2J0"),
}


def conn_body(mtu=1024, cpus="0"):
    """A CONN as src/wire/wire_conn.c packs it (keyed, rdmabench --list-wire's
    CONN rows): one QP, one MR, a RoCE port."""
    addr, rkey, size = 0x10000, 0x1234, 1 << 30
    qp = struct.pack(">IIH", 0x11, 0x123, 0) + bytes(10) + b"\xff\xff\xc0\x00\x02\x01"
    return keyed(list_fields("CONN"),
                 {"mtu": mtu, "max_rd_atom": 16, "rkey": rkey, "addr": addr, "len": size,
                  "qp": struct.pack(">I", 1) + qp, "mr": struct.pack(">IQI", 1, addr, rkey),
                  "place.cpus": cpus, "place.local": 1, "place.freq_cpu": -1,
                  "device": "hostile0", "link_layer": 2})


def lie_in(body, mtu=None, cpus=None):
    """@body (a CONN) with its MTU and/or its placement's cpus replaced."""
    fields = list_fields("CONN")
    lies = {}
    if mtu is not None:
        lies[fields["mtu"][0]] = value_bytes("u32", mtu)
    if cpus is not None:
        lies[fields["place.cpus"][0]] = cpus.encode()
    kept = [f for f in unkeyed(body) if f[0] not in lies]
    kept += [[tag, v] for tag, v in lies.items() if v]
    return struct.pack(">H", len(kept)) + b"".join(
        struct.pack(">HH", tag, len(v)) + v for tag, v in kept)


def lying_client(s, case):
    s.sendall(hello() + frame(PARAMS, params()))
    for _ in range(2):  # OK to HELLO, OK to PARAMS
        got = read_message(s)
        if got is None or got[0] != OK:
            return
    s.sendall(frame(CONN, conn_body(**LYING_CONN[case])))


def read_message(sock, limit=10.0):
    """(type, body) of the next message, or None when closed or silent."""
    sock.settimeout(limit)
    buf = b""
    try:
        while len(buf) < 12:
            chunk = sock.recv(12 - len(buf))
            if not chunk:
                return None
            buf += chunk
        _, _, typ, n = struct.unpack(">IHHI", buf)
        body = b""
        while len(body) < n:
            chunk = sock.recv(n - len(body))
            if not chunk:
                return None
            body += chunk
        return typ, body
    except (socket.timeout, ConnectionResetError):
        return None


def lying_server(host, port, cases):
    """A client per case, in turn: OK, OK, then its own CONN back with the lie."""
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((host, port))
    ls.listen(8)
    ls.settimeout(60)
    print("listening", flush=True)  # python starts slowly under TCG
    for case in cases:
        try:
            s, _ = ls.accept()
        except socket.timeout:
            print("%s\t0\tno client" % case, flush=True)
            break
        print(lie_to(s, case), flush=True)
    ls.close()


def lie_to(s, case):
    t0 = time.monotonic()
    what = "closed before the lie"
    for want in (HELLO, PARAMS, CONN):
        got = read_message(s)
        if got is None or got[0] != want:
            break
        if want != CONN:
            s.sendall(frame(OK))
            continue
        s.sendall(frame(CONN, lie_in(got[1], **LYING_CONN[case])))
        what = read_answer(s)
    s.close()
    return "%s\t%.2f\t%s" % (case, time.monotonic() - t0, what.replace("\n", "\\n"))

if __name__ == "__main__":
    main()
