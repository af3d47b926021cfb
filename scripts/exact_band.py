#!/usr/bin/python3
# SPDX-License-Identifier: EPL-2.0
"""The band at one instant that the messages and the stability assumption allow,
computed apart from tracesync (docs/local-band.md, "The limit in a load
episode"). A measuring tool, not a test: it needs python3-scipy, which CI does
not install.

    exact_band.py MATCHES A B T [PPM [REACH_S]]

MATCHES is a `simulate --write-matches` file (SENDER SEND_NS RECEIVER RECV_NS
lines; others are skipped), A and B the link's hosts, T an instant of A's
clock. f maps A's time onto B's: a message A -> B sent at x and received at y
says f(x) <= y, one B -> A says f(x) >= y at its receive x. Every message
within REACH_S seconds of T (default 3) is read. Two linear programs each, for
the least and the greatest f(T):

  line:  the local band's own program: a line g through (T, f(T)), each
         message relaxed by PPM |x - T| / 2 on its own.
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


def line_band(lower, upper, ppm):
    # Variables: g(T) and g's slope less one (us, us/s).
    rows, rhs = [], []
    for d, z in lower:
        rows.append([1, d])
        rhs.append(z + ppm * abs(d) / 2)
    for d, z in upper:
        rows.append([-1, -d])
        rhs.append(-(z - ppm * abs(d) / 2))
    ends = []
    for sign in (1, -1):
        res = linprog([sign, 0], A_ub=rows, b_ub=rhs, bounds=[(None, None)] * 2, method='highs')
        ends.append(sign * res.fun if res.status == 0 else None)
    return ends


def exact_band(lower, upper, ppm):
    # Variables: f(x) - x at every instant (us), then c - 1 (ppm, us/s).
    instants = sorted(set([0.0] + [d for d, _ in lower] + [d for d, _ in upper]))
    index = {d: i for i, d in enumerate(instants)}
    n = len(instants)
    matrix = lil_matrix((2 * (n - 1) + len(lower) + len(upper), n + 1))
    rhs = []
    row = 0
    for k in range(n - 1):
        dt = instants[k + 1] - instants[k]
        matrix[row, k + 1], matrix[row, k], matrix[row, n] = 1, -1, -dt  # rise <= (c - 1 + P) dt
        rhs.append(ppm * dt)
        matrix[row + 1, k + 1], matrix[row + 1, k], matrix[row + 1, n] = -1, 1, dt  # rise >= (c - 1) dt
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
        cost = np.zeros(n + 1)
        cost[index[0.0]] = sign
        res = linprog(cost, A_ub=matrix, b_ub=rhs, bounds=[(None, None)] * (n + 1), method='highs')
        ends.append(sign * res.fun if res.status == 0 else None)
    return ends


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    path, a, b, t = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    ppm = float(sys.argv[5]) if len(sys.argv) > 5 else 100.0
    reach = float(sys.argv[6]) if len(sys.argv) > 6 else 3.0
    lower, upper = read(path, a, b, t, int(reach * 1e9))
    if not lower or not upper:
        sys.exit(f'{path}: no {a} -> {b} or {b} -> {a} message within {reach} s of {t}')
    z0 = lower[0][1] - lower[0][0]
    rel = lambda points: [((x - t) / 1e9, (y - x - z0) / 1e3) for x, y in points]  # s, us
    lower, upper = rel(lower), rel(upper)
    for name, solve in (('line', line_band), ('exact', exact_band)):
        lo, hi = solve(lower, upper, ppm)
        if lo is None or hi is None:
            print(f'{name:5} band: empty or unbounded')
        else:
            print(f'{name:5} band: half-width {(hi - lo) / 2:.3f} us, centre {(hi + lo) / 2:.3f} us')


if __name__ == '__main__':
    main()
