#!/usr/bin/env python3
"""Instruction counts per message from callgrind runs made by scripts/cost.

Each run leaves NAME.cg (callgrind's output, collection switched by the
LD_PRELOAD shim tests/cost/shim.c) and NAME.cost (the shim's counts).
From them, per run (see bench-results/cost/README.md for the method):

  loop_per_msg    every user-space instruction of the client's measuring
                  loop per message sent, polls that found nothing and the
                  spin around them excluded, the shim itself excluded
  post_per_msg    the provider's post_send (ibv_post_send and below) per
                  message
  reap_per_cqe    the provider's poll_cq (or the extended CQ's start_poll,
                  next_poll and end_poll) per completion reaped, polls
                  that found nothing excluded
  repost_per_msg  the provider's post_recv per message
  tool_per_msg    the rest of the loop: the tool's own code and whatever
                  it calls besides those three verbs, per message

Usage:
  cost_report.py report DIR          DIR/raw/*.cg -> DIR/cost.csv, DIR/summary.md
  cost_report.py check BASE.csv RAW  rdmabench's runs in RAW against BASE:
                                     exit 1 when a figure is more than
                                     --tolerance percent (5) above it,
                                     and more than FLOOR (0.5) instructions
                                     a message
  cost_report.py functions FILE.cg FILE.cost
                                     self instructions per message of each
                                     function in the window
"""

import csv
import os
import re
import statistics
import sys

SHIM_OBJ = 'costshim'
FIGURES = ('loop_per_msg', 'tool_per_msg', 'post_per_msg', 'reap_per_cqe', 'repost_per_msg')
# Figures the regression check holds rdmabench to.
CHECKED = ('loop_per_msg', 'tool_per_msg', 'post_per_msg', 'reap_per_cqe')
CASES = ('send_lat', 'read_lat', 'write_bw', 'send_bw')
# The shim's thunks of the provider's polling functions (tests/cost/shim.c).
REAP_THUNKS = ('cost_prov_poll_cq', 'cost_prov_start_poll', 'cost_prov_next_poll',
               'cost_prov_end_poll')
# The shim's thunks of the provider's posting functions (tests/cost/shim.c).
POST_THUNKS = ('cost_prov_post_send', 'cost_prov_wr_start', 'cost_prov_wr_complete',
               'cost_prov_wr_send', 'cost_prov_wr_rdma_write', 'cost_prov_wr_rdma_read',
               'cost_prov_wr_cmp_swp', 'cost_prov_wr_fetch_add', 'cost_prov_wr_set_sge',
               'cost_prov_wr_set_inline', 'cost_prov_wr_set_ud_addr')
TOOLS = ('rdmabench', 'perftest')


class Callgrind:
    """Self costs per (object, function) and inclusive costs of the calls
    into each function, from a callgrind output file (one event, Ir)."""

    def __init__(self, path):
        self.total = 0
        self.self = {}
        self.incl = {}
        self.calls = {}
        names = {'ob': {}, 'fn': {}}
        ob = fn = cob = cfn = None
        call_pending = None
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in f:
                line = line.rstrip('\n')
                if not line:
                    continue
                if call_pending is not None:
                    cost = self._cost(line)
                    key = (cob or ob, cfn)
                    self.incl[key] = self.incl.get(key, 0) + cost
                    self.calls[key] = self.calls.get(key, 0) + call_pending
                    call_pending = None
                    cob = None
                    continue
                c = line[0]
                if c.isdigit() or c in '+-*':
                    self.self[(ob, fn)] = self.self.get((ob, fn), 0) + self._cost(line)
                    continue
                m = re.match(r'(ob|fn|cob|cfn|calls|summary|totals)[=:]\s*(.*)$', line)
                if not m:
                    continue
                k, v = m.groups()
                if k == 'ob':
                    ob = self._name(names['ob'], v)
                elif k == 'cob':
                    cob = self._name(names['ob'], v)
                elif k == 'fn':
                    fn = self._name(names['fn'], v)
                    cob = None
                elif k == 'cfn':
                    cfn = self._name(names['fn'], v)
                elif k == 'calls':
                    call_pending = int(v.split()[0])
                elif k in ('summary', 'totals'):
                    self.total = max(self.total, int(v.split()[0]))

    @staticmethod
    def _name(table, v):
        m = re.match(r'\((\d+)\)\s*(.*)$', v)
        if not m:
            return v
        i, name = m.groups()
        if name:
            table[i] = name
        return table.get(i, '?')

    @staticmethod
    def _cost(line):
        parts = line.split()
        return int(parts[1]) if len(parts) > 1 else 0

    def fn_self(self, name, obj_part=None):
        return sum(v for (o, f), v in self.self.items()
                   if f == name and (obj_part is None or obj_part in (o or '')))

    def fn_incl(self, name):
        return sum(v for (o, f), v in self.incl.items() if f == name)

    def fn_calls(self, name):
        return sum(v for (o, f), v in self.calls.items() if f == name)

    def obj_self(self, obj_part):
        return sum(v for (o, f), v in self.self.items() if obj_part in (o or ''))


def read_counts(path):
    d = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            k, _, v = line.strip().partition('=')
            if k:
                d[k] = v if k == 'state' else int(v)
    return d


class RunError(Exception):
    pass


def figures(cg_path, cost_path):
    """The figures of one run, and the counts they stand on."""
    cnt = read_counts(cost_path)
    if cnt.get('state') != 'closed':
        raise RunError('%s: the measuring window never closed (state %s)' %
                       (cost_path, cnt.get('state')))
    if cnt.get('bad') or cnt.get('late_sends') or cnt.get('errors'):
        raise RunError('%s: bad=%s errors=%s late_sends=%s' %
                       (cost_path, cnt.get('bad'), cnt.get('errors'), cnt.get('late_sends')))
    cg = Callgrind(cg_path)

    def prov(name):  # the provider below a thunk, without the thunk
        return cg.fn_incl(name) - cg.fn_self(name, SHIM_OBJ)

    probes = cnt['probes']
    if not probes or not cg.fn_calls('cost_prov_poll_probe'):
        raise RunError('%s: no empty-poll probe' % cg_path)
    empty = prov('cost_prov_poll_probe') / probes
    n_empty = cnt['w_polls_empty']
    msgs = cnt['w_sends']
    cqes = cnt['w_send_cqes'] + cnt['w_recv_cqes']
    shim = cg.obj_self(SHIM_OBJ)
    # The probe ran inside the collection too: out, with the empty polls.
    loop = cg.total - shim - prov('cost_prov_poll_probe') - n_empty * empty
    # Posting: ibv_post_send's provider, or every ibv_wr_* call's (the
    # extended API, rdmabench --post-api wr).
    post = sum(prov(name) for name in POST_THUNKS)
    # Reaping: ibv_poll_cq's provider, or the extended CQ's start, next
    # and end (rdmabench --cq-api ex).
    reap = sum(prov(name) for name in REAP_THUNKS) - n_empty * empty
    repost = prov('cost_prov_post_recv')
    tool = loop - post - reap - repost
    return {
        'msgs': msgs,
        'cqes': cqes,
        'polls_full': cnt['w_polls_full'],
        'polls_empty': n_empty,
        'chains': cnt['w_chains'],
        'empty_poll': round(empty, 2),
        'loop_per_msg': round(loop / msgs, 2),
        'tool_per_msg': round(tool / msgs, 2),
        'post_per_msg': round(post / msgs, 2),
        'reap_per_cqe': round(reap / cqes, 2) if cqes else 0.0,
        'repost_per_msg': round(repost / msgs, 2),
    }


# rdmabench+API: rdmabench --cq-api API (scripts/cost --cq-api LIST).
RUN_RE = re.compile(r'^(rdmabench(?:\+[a-z]+)?|perftest)-(\w+?)-r(\d+)\.cg$')


def runs(raw):
    """(tool, case, rep, figures or error) for every run in RAW."""
    out = []
    for name in sorted(os.listdir(raw)):
        m = RUN_RE.match(name)
        if not m:
            continue
        tool, case, rep = m.group(1), m.group(2), int(m.group(3))
        stem = os.path.join(raw, name[:-3])
        try:
            fig = figures(stem + '.cg', stem + '.cost')
        except (OSError, KeyError, ValueError, RunError) as e:
            fig = str(e)
        out.append((tool, case, rep, fig))
    return out


def spread(values):
    """(max - min) / median, in percent."""
    med = statistics.median(values)
    return 100.0 * (max(values) - min(values)) / med if med else 0.0


def write_csv(path, rows):
    cols = ['tool', 'case', 'rep', 'msgs', 'cqes', 'chains', 'polls_full', 'polls_empty',
            'empty_poll'] + list(FIGURES)
    with open(path, 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(cols)
        for tool, case, rep, fig in rows:
            if isinstance(fig, str):
                w.writerow([tool, case, rep] + [''] * (len(cols) - 3))
            else:
                w.writerow([tool, case, rep] + [fig[c] for c in cols[3:]])


def read_csv(path):
    with open(path, newline='', encoding='utf-8') as f:
        return list(csv.DictReader(f))


def medians(rows):
    """{(tool, case): {figure: (median, spread %, [values])}}."""
    acc = {}
    for r in rows:
        if not r.get('loop_per_msg'):
            continue
        d = acc.setdefault((r['tool'], r['case']), {})
        for k in FIGURES:
            d.setdefault(k, []).append(float(r[k]))
    return {key: {k: (statistics.median(v), spread(v), v) for k, v in d.items()}
            for key, d in acc.items()}


def tools_of(med):
    """rdmabench, its --cq-api variants (rdmabench+API) in name order, perftest."""
    variants = sorted({t for t, _ in med if t.startswith('rdmabench+')})
    return ['rdmabench'] + variants + ['perftest']


def ratios_of(tools):
    """(numerator, denominator) pairs: each rdmabench against perftest,
    then each variant against rdmabench (classic)."""
    rdmab = [t for t in tools if t != 'perftest']
    return [(t, 'perftest') for t in rdmab] + [(t, 'rdmabench') for t in rdmab[1:]]


def summary(rows, env):
    med = medians(rows)
    tools = tools_of(med)
    pairs = ratios_of(tools)
    out = ['# Instructions per message: rdmabench and perftest', '']
    out.append('User-space instructions counted by callgrind in the client, '
               'medians over the repetitions; spread = (max - min) / median. '
               'See README.md for what each figure includes.')
    out.append('')
    out.append('| case | figure | ' + ' | '.join(tools) + ' | ' +
               ' | '.join('%s / %s' % p for p in pairs) + ' | ' +
               ' | '.join('spread ' + t for t in tools) + ' |')
    out.append('|---|---|' + '---:|' * (2 * len(tools) + len(pairs)))
    for case in CASES:
        for k in FIGURES:
            v = {t: med.get((t, case), {}).get(k) for t in tools}
            cells = ['%.1f' % v[t][0] if v[t] else '-' for t in tools]
            cells += ['%.2f' % (v[a][0] / v[b][0]) if v[a] and v[b] and v[b][0] else '-'
                      for a, b in pairs]
            cells += ['%.2f%%' % v[t][1] if v[t] else '-' for t in tools]
            out.append('| %s | %s | %s |' % (case, k, ' | '.join(cells)))
    out.append('')
    out.append('## Every run')
    out.append('')
    out.append('| tool | case | rep | msgs | completions | chains | full polls | empty polls '
               '| empty poll | loop | tool | post | reap | repost |')
    out.append('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for r in rows:
        if not r.get('loop_per_msg'):
            out.append('| %s | %s | %s | failed | | | | | | | | | | |' %
                       (r['tool'], r['case'], r['rep']))
            continue
        out.append('| ' + ' | '.join(r[c] for c in (
            'tool', 'case', 'rep', 'msgs', 'cqes', 'chains', 'polls_full', 'polls_empty',
            'empty_poll') + FIGURES) + ' |')
    if env:
        out += ['', '## Conditions', '', '```'] + env + ['```']
    return '\n'.join(out) + '\n'


def cmd_report(d):
    rows = runs(os.path.join(d, 'raw'))
    failed = [(t, c, r, f) for t, c, r, f in rows if isinstance(f, str)]
    write_csv(os.path.join(d, 'cost.csv'), rows)
    env = []
    for name in ('host.txt', 'env.txt', 'commands.txt'):
        p = os.path.join(d, 'raw', name)
        if os.path.exists(p):
            with open(p, encoding='utf-8') as f:
                env += [line.rstrip('\n') for line in f]
    with open(os.path.join(d, 'summary.md'), 'w', encoding='utf-8') as f:
        f.write(summary(read_csv(os.path.join(d, 'cost.csv')), env))
    for t, c, r, f in failed:
        print('cost_report: %s %s r%d: %s' % (t, c, r, f), file=sys.stderr)
    return 3 if failed or not rows else 0


# Instructions a message a figure may grow by whatever the tolerance.
FLOOR = 0.5


def limit_of(committed, tolerance):
    """The highest figure that passes: the tolerance in percent, or FLOOR
    instructions a message for a figure of a few (the bandwidth cases'
    tool, 4.1, moves by more than 5% when one poll is split in two)."""
    return max(committed * (1 + tolerance / 100.0), committed + FLOOR)


def cmd_check(base_csv, raw, tolerance):
    base = medians(read_csv(base_csv))
    rows = runs(raw)
    status = 0
    if not rows:
        print('cost check: no runs in %s' % raw)
        return 1
    for tool, case, rep, fig in rows:
        if tool != 'rdmabench':
            continue
        if isinstance(fig, str):
            print('cost check: %s r%d failed: %s' % (case, rep, fig))
            status = 1
            continue
        ref = base.get((tool, case))
        if not ref:
            print('cost check: %s: not in %s' % (case, base_csv))
            status = 1
            continue
        for k in CHECKED:
            limit = limit_of(ref[k][0], tolerance)
            verdict = 'ok'
            if fig[k] > limit:
                verdict = 'REGRESSION'
                status = 1
            print('cost check: %-9s %-14s %10.2f  committed %10.2f  limit %10.2f  %s' %
                  (case, k, fig[k], ref[k][0], limit, verdict))
    return status


def cmd_functions(cg_path, cost_path, limit=25):
    cnt = read_counts(cost_path)
    cg = Callgrind(cg_path)
    msgs = cnt['w_sends']
    items = sorted(cg.self.items(), key=lambda kv: -kv[1])
    print('%10s  %s' % ('Ir/msg', 'function [object]'))
    for (o, f), v in items[:limit]:
        print('%10.2f  %s [%s]' % (v / msgs, f, os.path.basename(o or '?')))
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == 'report':
        return cmd_report(argv[1])
    if len(argv) >= 3 and argv[0] == 'check':
        tol = 5.0
        if len(argv) >= 5 and argv[3] == '--tolerance':
            tol = float(argv[4])
        return cmd_check(argv[1], argv[2], tol)
    if len(argv) >= 3 and argv[0] == 'functions':
        return cmd_functions(argv[1], argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
