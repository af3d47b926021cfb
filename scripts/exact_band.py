#!/usr/bin/python3
# SPDX-License-Identifier: EPL-2.0
"""The band at one instant that the messages and the stability assumption allow,
computed apart from tracesync (docs/clock-model.md, "Measurements": the
2-host day's 62.7 us, the 16-host day's host8). A measuring tool, not a
test: it needs python3-scipy, which CI does not install.

    exact_band.py MATCHES A B T [PPM [REACH_S [GRID_S]]]

MATCHES is a `simulate --write-matches` file (SENDER SEND_NS RECEIVER RECV_NS
lines; others are skipped), A and B the link's hosts, T an instant of A's
clock. f maps A's time onto B's: a message A -> B sent at x and received at y
says f(x) <= y, one B -> A says f(x) >= y at its receive x. Every message
within REACH_S seconds of T (default 3) is read. Two linear programs each, for
the least and the greatest f(T):

  line:  the local band's own program: a line g through (T, f(T)), each
         message relaxed by PPM |x - T| / 2 on its own, beyond S = 10 s by
         PPM S / 2 + (2R - PPM / 2)(|x - T| - S), R = 1000 ppm (local_band.h).
  exact: f itself, linear between the instants of the messages and T, its
         rate within [c, c + PPM] for one free c over the whole reach (the
         assumption over a stretch of 2S holding them): the tightest band the
         messages and the assumption allow, with every pair of messages tied
         by f's rate, where the line's program relaxes each alone.

Prints each band's half-width and centre (centre relative to the first A -> B
message's offset).
"""
import sys

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import lil_matrix


def read(path, a, b, t, reach_ns):
    lower, upper = [], []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) != 4 or fields[0].startswith('#'):
                continue
            sender, send, receiver, receive = fields[0], int(fields[1]), fields[2], int(fields[3])
            if (sender, receiver) == (a, b) and abs(send - t) <= reach_ns:
                lower.append((send, receive))
            elif (sender, receiver) == (b, a) and abs(receive - t) <= reach_ns:
                upper.append((receive, send))
    return lower, upper


HORIZON_S = 10.0  # S
RATE_LIMIT_PPM = 1000.0  # R


def relaxation(d, ppm):
    # How far f may leave g at d seconds from T (us), as local_band.h has it.
    if abs(d) <= HORIZON_S:
        return ppm * abs(d) / 2
    return ppm * HORIZON_S / 2 + (2 * RATE_LIMIT_PPM - ppm / 2) * (abs(d) - HORIZON_S)


def line_band(lower, upper, ppm):
    # Variables: g(T) and g's slope less one (us, us/s).
    rows, rhs = [], []
    for d, z in lower:
        rows.append([1, d])
        rhs.append(z + relaxation(d, ppm))
    for d, z in upper:
        rows.append([-1, -d])
        rhs.append(-(z - relaxation(d, ppm)))
    ends = []
    for sign in (1, -1):
        res = linprog([sign, 0], A_ub=rows, b_ub=rhs, bounds=[(None, None)] * 2, method='highs')
        ends.append(sign * res.fun if res.status == 0 else None)
    return ends


STRETCH_S = 20.0  # 2S: the stability assumption's stretch


def stretch_starts(first, last, grid):
    # One stretch over everything, or stretches of 2S every `grid` s, the last ending at `last`.
    if grid is None or last - first <= STRETCH_S:
        return [first]
    starts = list(np.arange(first, last - STRETCH_S, grid))
    return starts + [last - STRETCH_S]


def exact_band(lower, upper, ppm, grid=None):
    # Variables: f(x) - x at every instant (us), then c_w - 1 for each stretch (ppm, us/s).
    instants = sorted(set([0.0] + [d for d, _ in lower] + [d for d, _ in upper]))
    index = {d: i for i, d in enumerate(instants)}
    n = len(instants)
    starts = stretch_starts(instants[0], instants[-1], grid)
    inside = [[k for k in range(n - 1) if (len(starts) == 1 or
                                           (s - 1e-9 <= instants[k] and instants[k + 1] <= s + STRETCH_S + 1e-9))]
              for s in starts]
    ties = sum(len(ks) for ks in inside)
    matrix = lil_matrix((2 * ties + len(lower) + len(upper), n + len(starts)))
    rhs = []
    row = 0
    for w, ks in enumerate(inside):
        for k in ks:
            dt = instants[k + 1] - instants[k]
            matrix[row, k + 1], matrix[row, k], matrix[row, n + w] = 1, -1, -dt  # rise <= (c_w - 1 + P) dt
            rhs.append(ppm * dt)
            matrix[row + 1, k + 1], matrix[row + 1, k], matrix[row + 1, n + w] = -1, 1, dt  # rise >= (c_w - 1) dt
            rhs.append(0.0)
            row += 2
    for d, z in lower:
        matrix[row, index[d]] = 1
        rhs.append(z)
        row += 1
    for d, z in upper:
        matrix[row, index[d]] = -1
        rhs.append(-z)
        row += 1
    matrix = matrix.tocsr()
    ends = []
    for sign in (1, -1):
        cost = np.zeros(n + len(starts))
        cost[index[0.0]] = sign
        res = linprog(cost, A_ub=matrix, b_ub=rhs, bounds=[(None, None)] * (n + len(starts)), method='highs')
        ends.append(sign * res.fun if res.status == 0 else None)
    return ends


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    path, a, b, t = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    ppm = float(sys.argv[5]) if len(sys.argv) > 5 else 100.0
    reach = float(sys.argv[6]) if len(sys.argv) > 6 else 3.0
    grid = float(sys.argv[7]) if len(sys.argv) > 7 else None
    if grid is not None and not 0 < grid < STRETCH_S:
        sys.exit(f'GRID_S must lie in (0, {STRETCH_S:g}): the stretches must overlap so that each tie lies in one')
    lower, upper = read(path, a, b, t, int(reach * 1e9))
    if not lower or not upper:
        sys.exit(f'{path}: no {a} -> {b} or {b} -> {a} message within {reach} s of {t}')
    z0 = lower[0][1] - lower[0][0]
    rel = lambda points: [((x - t) / 1e9, (y - x - z0) / 1e3) for x, y in points]  # s, us
    lower, upper = rel(lower), rel(upper)
    span = max(0.0, max(d for d, _ in lower + upper)) - min(0.0, min(d for d, _ in lower + upper))
    if grid is None and span > STRETCH_S:
        print(f'note: the messages span {span:.1f} s, over 2S = {STRETCH_S:g} s: one rate band over them assumes '
              'more than the assumption (give GRID_S)', file=sys.stderr)
    for name, solve in (('line', line_band), ('exact', lambda lo, up, p: exact_band(lo, up, p, grid))):
        lo, hi = solve(lower, upper, ppm)
        if lo is None or hi is None:
            print(f'{name:5} band: empty or unbounded')
        else:
            print(f'{name:5} band: half-width {(hi - lo) / 2:.3f} us, centre {(hi + lo) / 2:.3f} us')


if __name__ == '__main__':
    main()
