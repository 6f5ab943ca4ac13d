#!/usr/bin/env python3
"""A model of a distributed plan's step (docs/performance.md, "Distributed plans"): a
7-point star (ghost layer g = 1, elements of 8 bytes) on a cube cut over P ranks as
MPI_Dims_create cuts it. Per rank, with a part of n_x x n_y x n_z points:

  compute    T_c   = n_x n_y n_z / R                 (R: points a second of one rank)
  interior   T_in  = (n_x - 2g)(n_y - 2g)(n_z - 2g) / R, the shell T_c - T_in
  exchange   T_x   = m L + b / B                     (m messages of b bytes in all, sent
                                                      and received: 2 a dimension cut,
                                                      each a face g deep; L latency,
                                                      B bandwidth)
  a step     T     = max(T_in, T_x) + (T_c - T_in)   (the exchange behind the interior)
             T_seq = T_c + T_x                       (none of it hidden)

Weak scaling keeps the part (n^3 a rank) and grows P; strong scaling keeps the grid
(N^3) and grows P. Prints, for each P, the part, T, T_seq, the efficiency T(1)/T(P)
(weak) or the speedup T(1)/T(P) (strong), and the fraction of the exchange hidden.

    model.py --rate R [--latency L] [--bandwidth B] [--weak n:P,P,...] [--strong N:P,P,...]
    model.py --check N:P:LAUNCH_MS:EXCHANGE_MS --rate R   (a measured point: the predicted
             step from R and the exchange measured alone, against the launch measured)
"""
import argparse


def dims_create(p, nd=3):
    """MPI_Dims_create's balanced factors of p, largest first."""
    dims = [1] * nd
    factors, q, f = [], p, 2
    while q > 1:
        while q % f == 0:
            factors.append(f)
            q //= f
        f += 1
    for f in sorted(factors, reverse=True):
        dims[dims.index(min(dims))] *= f
    return sorted(dims, reverse=True)


def times(n, d, rate, latency, bandwidth, g=1, elem=8):
    """T, T_seq and the fraction of the exchange hidden, for a part of extents n on the
    process grid d."""
    tc = n[0] * n[1] * n[2] / rate
    tin = max(0.0, n[0] - 2 * g) * max(0.0, n[1] - 2 * g) * max(0.0, n[2] - 2 * g) / rate
    msgs, nbytes = 0, 0.0
    for i in range(3):
        if d[i] > 1:
            msgs += 2
            nbytes += 2 * n[(i + 1) % 3] * n[(i + 2) % 3] * g * elem
    tx = msgs * latency + nbytes / bandwidth if msgs else 0.0
    return max(tin, tx) + (tc - tin), tc + tx, (min(tin, tx) / tx if tx else 1.0)


def table(kind, base, ps, args):
    print(f"{kind} scaling, {'part' if kind == 'weak' else 'grid'} {base}^3, R {args.rate:.3g} points/s a rank, "
          f"L {args.latency * 1e6:.3g} us, B {args.bandwidth / 1e9:.3g} GB/s")
    print(f"  {'P':>6} {'process grid':>14} {'part':>16} {'T ms':>9} {'T_seq ms':>9} "
          f"{'efficiency' if kind == 'weak' else 'speedup':>10} {'hidden':>7}")
    t1 = None
    for p in ps:
        d = dims_create(p)
        n = [base] * 3 if kind == "weak" else [base / k for k in d]
        t, tseq, hidden = times(n, d, args.rate, args.latency, args.bandwidth)
        t1 = t1 or t
        part = "x".join(f"{x:.0f}" for x in n)
        print(f"  {p:>6} {'x'.join(map(str, d)):>14} {part:>16} {t * 1e3:>9.3f} {tseq * 1e3:>9.3f} "
              f"{t1 / t:>10.2f} {hidden:>7.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rate", type=float, required=True, help="points a second of one rank")
    ap.add_argument("--latency", type=float, default=1.5e-6, help="seconds a message")
    ap.add_argument("--bandwidth", type=float, default=12.5e9, help="bytes a second a rank")
    ap.add_argument("--weak", help="n:P,P,...")
    ap.add_argument("--strong", help="N:P,P,...")
    ap.add_argument("--check", action="append", default=[], help="N:P:LAUNCH_MS:EXCHANGE_MS")
    args = ap.parse_args()
    for c in args.check:
        N, p, launch, exchange = c.split(":")
        d = dims_create(int(p))
        n = [int(N) / k for k in d]
        # the exchange as measured alone stands for m L + b / B
        tc = n[0] * n[1] * n[2] / args.rate
        tin = (n[0] - 2) * (n[1] - 2) * (n[2] - 2) / args.rate
        tx = float(exchange) / 1e3
        print(f"check {N}^3 on {p} ranks ({'x'.join(map(str, d))}): predicted {(max(tin, tx) + tc - tin) * 1e3:.3f} ms "
              f"(exchange hidden) to {(tc + tx) * 1e3:.3f} ms (not), measured {float(launch):.3f} ms")
    if args.weak:
        n, ps = args.weak.split(":")
        table("weak", int(n), [int(p) for p in ps.split(",")], args)
    if args.strong:
        N, ps = args.strong.split(":")
        table("strong", int(N), [int(p) for p in ps.split(",")], args)


if __name__ == "__main__":
    main()
