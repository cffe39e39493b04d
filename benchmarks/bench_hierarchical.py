"""Benchmark of the hierarchical correlated t-test on 54 UCI data sets x 100 folds (issue 6).

hnb vs nbc (Benavoli et al. 2017), 10 runs of 10-fold cross-validation, rho = 0.1, rope = 1
(accuracy in percent). Each mode runs in its own process, so the time includes imports,
JAX compilation and sampling, and the memory is the process's peak resident set size.

    python benchmarks/bench_hierarchical.py                     # outperform, 4 x 10,000 draws
    python benchmarks/bench_hierarchical.py --chain-method sequential
    python benchmarks/bench_hierarchical.py --reference --draws 20000
        # an independent NumPyro model of baycomp's Stan code (sigma_i sampled, the full
        # 54 x 100 matrix, float64) for checking the posterior summaries
    python benchmarks/bench_hierarchical.py --baycomp --draws 1000
        # baycomp.HierarchicalTest (needs baycomp and pystan: benchmark-only dependencies)
    python benchmarks/bench_hierarchical.py --cold-start --draws 2500
        # whole-process wall time of a first process (empty JAX compilation cache) and a
        # second one (cache warm), alternating with the cache turned off
        # (OUTPERFORM_JAX_CACHE=0, the behaviour before the cache was on by default)
    python benchmarks/bench_hierarchical.py --cold-process [--drop-caches]
        # issue 31: `outperform compare cv_many_tasks.csv --hierarchical` (hnb and nbc, 53
        # distinct UCI data sets, 4 x (1,000 + 2,500) draws) as a whole fresh process:
        # shipped programs on with an empty cache folder (a first process on a new install),
        # then off with an empty folder (traced and compiled, as before) and off again with
        # that folder warm (a second process), alternating; --drop-caches empties the page
        # cache before each first process (root only: `echo 3 > /proc/sys/vm/drop_caches`)
    python benchmarks/bench_hierarchical.py --cold-start --draws 2500 --before /tmp/old/src
        # the same first / second processes, alternating the current code with an older
        # copy of the package (e.g. `git archive <commit> src | tar -x -C /tmp/old`), each
        # with its own fresh cache folder

The data file is ../shared/data/uci54_10x10cv_accuracies.txt (set OUTPERFORM_SHARED to the
shared folder otherwise); all 54 lines are used, as in baycomp's documentation.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from outperform.data import load_uci54_arrays

SHARED = Path(os.environ.get("OUTPERFORM_SHARED",
                             Path(__file__).resolve().parents[2] / "shared"))
DATA = SHARED / "data" / "uci54_10x10cv_accuracies.txt"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ess(chains: np.ndarray) -> float:
    from numpyro.diagnostics import effective_sample_size

    return float(effective_sample_size(np.asarray(chains, dtype=float)))


def run_outperform(args, a, b, names, started):
    a_name, b_name = args.pair
    from outperform.bayes import hierarchical_correlated_ttest

    import jax  # noqa: F401  (imported here to measure the memory before the call)

    before = peak_mb()
    t0 = time.perf_counter()
    res = hierarchical_correlated_ttest(a, b, rho=0.1, rope=1.0, names=names,
                                        n_chains=args.chains, n_samples=args.draws,
                                        n_warmup=args.warmup, random_state=args.seed,
                                        chain_method=args.chain_method)
    call = time.perf_counter() - t0
    total = time.perf_counter() - started
    t0 = time.perf_counter()
    hierarchical_correlated_ttest(a, b, rho=0.1, rope=1.0, n_chains=args.chains,
                                  n_samples=args.draws, n_warmup=args.warmup,
                                  random_state=args.seed + 1, chain_method=args.chain_method)
    again = time.perf_counter() - t0
    post, d = res.posterior, res.details
    ess_d0, ess_pr = ess(post.delta0), ess(post.regions[:, 2].reshape(post.delta0.shape))
    print(f"outperform hierarchical_correlated_ttest ({args.chain_method}): "
          f"{args.chains} chains x ({args.warmup} warm-up + {args.draws}) draws")
    print(f"  wall time: {total:.1f} s end to end (imports + compile + sampling); "
          f"the call itself {call:.1f} s; a second call (compiled) {again:.1f} s")
    print(f"  peak memory (max RSS): {peak_mb():.0f} MB ({before:.0f} MB after importing "
          "numpy, scipy and jax)")
    print(f"  ESS delta0 {ess_d0:.0f} ({ess_d0 / total:.0f}/s); ESS of per-draw P(right) "
          f"{ess_pr:.0f} ({ess_pr / total:.0f}/s); smallest ESS {d['ess_min']:.0f} "
          f"({d['ess_min'] / total:.0f}/s); max R-hat {d['rhat_max']:.4f}; "
          f"{d['divergent']} divergent")
    print(f"  delta0 {post.delta0.mean():.3f} (sd {post.delta0.std():.3f}), "
          f"sigma0 {post.std0.mean():.3f}, nu {post.nu.mean():.2f}")
    print(f"  P({b_name} better, rope, {a_name} better): argmax "
          f"{np.round(d['p_regions_argmax'], 4)}, averaged "
          f"{np.round(d['p_regions_averaged'], 4)}")


def _stan_model(x, n, rho, bounds):
    """baycomp's hierarchical-t-test.stan as a NumPyro model (sigma_i sampled, full x)."""
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist

    q = x.shape[0]
    delta_hi, std0_hi, std_hi = bounds
    inv_diag = (1 + (n - 2) * rho) / ((1 - rho) * (1 + (n - 1) * rho))
    inv_off = -rho / ((1 - rho) * (1 + (n - 1) * rho))
    log_det = np.log(1 + (n - 1) * rho) + (n - 1) * np.log(1 - rho)

    def model(x):
        alpha = numpyro.sample("alpha", dist.Uniform(1.0, 2.0))
        beta = numpyro.sample("beta", dist.Uniform(0.01, 0.1))
        nu_minus_one = numpyro.sample("nu_minus_one", dist.Gamma(alpha, beta))
        delta0 = numpyro.sample("delta0", dist.Uniform(-delta_hi, delta_hi))
        std0 = numpyro.sample("std0", dist.Uniform(0.0, std0_hi))
        with numpyro.plate("datasets", q):
            delta = numpyro.sample("delta", dist.StudentT(nu_minus_one + 1, delta0, std0))
            sigma = numpyro.sample("sigma", dist.Uniform(0.0, std_hi))
        r = x - delta[:, None]
        quad = (inv_diag - inv_off) * jnp.sum(r * r, axis=1) + inv_off * jnp.sum(r, axis=1) ** 2
        numpyro.factor("loglik", jnp.sum(-n * jnp.log(sigma) - 0.5 * log_det
                                          - 0.5 * quad / sigma**2))

    return model


def run_reference(args, a, b, started):
    import jax
    import numpyro
    from numpyro.infer import MCMC, NUTS
    from scipy import stats

    numpyro.enable_x64()
    x = a - b
    q, n = x.shape
    # Rows with the same difference in every fold make the posterior improper; baycomp
    # replaces them by mirrored U(-rope, rope) noise, outperform by its expected sum of
    # squares, n rope^2 / 3. Here: +-rope/sqrt(3) alternating, which has that sum of squares.
    flat = np.std(x, axis=1) == 0
    x[flat] = x[flat].mean(axis=1, keepdims=True) + np.resize([1, -1], n) / np.sqrt(3)
    scale = np.mean(np.std(x, axis=1))          # baycomp's scaling
    xs = x / scale
    bounds = (np.max(np.abs(xs)), 1000 * np.std(xs.mean(axis=1)),
              1000 * np.mean(np.std(xs, axis=1)))
    mcmc = MCMC(NUTS(_stan_model(xs, n, 0.1, bounds), target_accept_prob=0.9),
                num_warmup=args.warmup, num_samples=args.draws, num_chains=args.chains,
                chain_method="vectorized", progress_bar=False)
    mcmc.run(jax.random.PRNGKey(args.seed), jax.numpy.asarray(xs))
    draws = {k: np.asarray(v) for k, v in mcmc.get_samples(group_by_chain=True).items()}
    total = time.perf_counter() - started
    d0, s0 = draws["delta0"] * scale, draws["std0"] * scale
    nu = draws["nu_minus_one"] + 1
    left = stats.t.cdf((-1 - d0) / s0, nu)
    right = stats.t.sf((1 - d0) / s0, nu)
    regions = np.stack([left, 1 - left - right, right], axis=-1).reshape(-1, 3)
    from numpyro.diagnostics import split_gelman_rubin
    print(f"reference (NumPyro model of the Stan code, sigma_i sampled, float64), "
          f"{args.pair[0]} - {args.pair[1]}: {args.chains} x ({args.warmup} + {args.draws}) "
          f"draws, seed {args.seed}")
    print(f"  wall time {total:.0f} s, peak memory {peak_mb():.0f} MB")
    for name, v in (("delta0", d0), ("std0", s0), ("nu", nu)):
        print(f"  {name}: mean {v.mean():.4f} sd {v.std():.4f} ESS {ess(v):.0f} "
              f"R-hat {float(split_gelman_rubin(v)):.4f}")
    print(f"  averaged {np.round(regions.mean(axis=0), 4)}, argmax "
          f"{np.round(np.bincount(regions.argmax(axis=1), minlength=3) / len(regions), 4)}")


def run_baycomp(args, a, b, started):
    from baycomp import HierarchicalTest

    # baycomp's differences are y - x: x = B, y = A, so its "right" is A better.
    samples = HierarchicalTest.sample(b, a, rope=1.0, runs=10, chains=args.chains,
                                      nsamples=args.draws)
    total = time.perf_counter() - started
    per_chain = samples[:, 2].reshape(args.chains, -1)
    ess_pr = ess(per_chain)
    probs = np.bincount(samples.argmax(axis=1), minlength=3) / len(samples)
    print(f"baycomp HierarchicalTest (pystan): {args.chains} chains x {args.draws} draws")
    print(f"  wall time {total:.0f} s (compile + sampling), peak memory {peak_mb():.0f} MB")
    print(f"  ESS of per-draw P(right) {ess_pr:.0f} ({ess_pr / total:.1f}/s)")
    print(f"  argmax {np.round(probs, 4)}, averaged {np.round(samples.mean(axis=0), 4)}")


def _whole_process(args, cache: str, src: str | None = None) -> tuple[float, str]:
    """Seconds from starting a `--once` process (OUTPERFORM_JAX_CACHE=cache) to the end of
    its first call, and its summary line.

    The process then makes a second call, to tell compilation from sampling; the child
    prints the wall-clock time at which its first call ended, so that second call is not
    counted.
    """
    cmd = [sys.executable, __file__, "--once", "--draws", str(args.draws), "--warmup",
           str(args.warmup), "--chains", str(args.chains), "--seed", str(args.seed), "--pair",
           *args.pair]
    env = dict(os.environ, OUTPERFORM_JAX_CACHE=cache)
    if src is not None:         # the package from src first on the path
        env["PYTHONPATH"] = os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])
    start = time.time()
    run = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    ended, summary = run.stdout.strip().splitlines()[-2:]
    return float(ended) - start, summary


def run_cold_start(args):
    """First and second process, cache on (a fresh folder) and off, alternating, repeated."""
    print(f"hierarchical_correlated_ttest {args.pair[0]} vs {args.pair[1]}, UCI 54 data sets, "
          f"{args.chains} chains x ({args.warmup} + {args.draws}) draws; whole-process wall "
          "time (python start, imports, compilation, sampling)")
    for rep in range(args.repeats):
        with tempfile.TemporaryDirectory(prefix="outperform-jax-") as folder:
            rows = [("cache on, first process", folder), ("cache off, first process", "0"),
                    ("cache on, second process", folder), ("cache off, second process", "0")]
            times = {}
            for label, cache in rows:
                times[label], summary = _whole_process(args, cache)
                print(f"  [{rep + 1}] {label:26s} {times[label]:6.1f} s   {summary}")
            for which in ("first", "second"):
                on, off = times[f"cache on, {which} process"], times[f"cache off, {which} process"]
                print(f"  [{rep + 1}] {which} process: cache on / off = {on / off:.2f}")


def run_before_after(args):
    """First and second process of the current code and of ``--before``, alternating."""
    here = str(Path(__file__).resolve().parents[1] / "src")
    print(f"hierarchical_correlated_ttest {args.pair[0]} vs {args.pair[1]}, UCI 54 data sets, "
          f"{args.chains} chains x ({args.warmup} + {args.draws}) draws; whole-process wall "
          f"time; after = {here}, before = {args.before}; each with a fresh cache folder")
    for rep in range(args.repeats):
        with tempfile.TemporaryDirectory(prefix="outperform-jax-") as new, \
                tempfile.TemporaryDirectory(prefix="outperform-jax-") as old:
            rows = [("after, first process", new, here), ("before, first process", old,
                                                          args.before),
                    ("after, second process", new, here), ("before, second process", old,
                                                           args.before)]
            times = {}
            for label, cache, src in rows:
                times[label], summary = _whole_process(args, cache, src)
                print(f"  [{rep + 1}] {label:24s} {times[label]:6.1f} s   {summary}")
            for which in ("first", "second"):
                after, before = (times[f"{w}, {which} process"] for w in ("after", "before"))
                print(f"  [{rep + 1}] {which} process: after / before = {after / before:.2f}")


def _cli_process(table: Path, cache: str, shipped: bool, drop: bool) -> tuple[float, float,
                                                                          float]:
    """Wall and CPU seconds of one `outperform compare TABLE --hierarchical` process, and the
    seconds of its MCMC step (the line it prints on stderr)."""
    if drop:
        subprocess.run("sync", check=True)
        try:
            Path("/proc/sys/vm/drop_caches").write_text("3\n")
        except OSError as exc:
            sys.exit(f"--drop-caches needs root ({exc})")
    env = dict(os.environ, OUTPERFORM_JAX_CACHE=cache,
               OUTPERFORM_SHIPPED_PROGRAMS="1" if shipped else "0")
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "outperform.cli", "compare", str(table),
                          "--hierarchical"], capture_output=True, text=True, check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime - cpu.ru_utime + after.ru_stime - cpu.ru_stime
    step = [float(line.rsplit("done in ", 1)[1].split()[0]) for line in run.stderr.splitlines()
            if "hierarchical t-test" in line and "done in" in line]
    return wall, used, step[0] if step else float("nan")


CALIBRATION = "import time; t = time.process_time()\nwhile time.process_time() - t < 1.0: pass"


def _share_of_a_core() -> float:
    """CPU seconds a busy-looping process gets per wall second right now (1 on an idle
    machine; ~0.3 with 6 other runnable processes on 2 cores): wall x share estimates the
    wall time of a single-threaded process on the idle machine."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", CALIBRATION], check=True)
    return min(1.0, 1.0 / (time.perf_counter() - start))


def run_cold_process(args):
    """Whole `compare --hierarchical` processes: shipped programs on / off, cache cold / warm."""
    from outperform.data import load_uci54

    print(f"outperform compare cv_many_tasks.csv --hierarchical (hnb, nbc; 53 UCI data sets; "
          f"4 x (1,000 + 2,500) draws), whole process; load average "
          f"{os.getloadavg()[0]:.1f} at the start; page cache "
          f"{'dropped before each first process' if args.drop_caches else 'warm'}")
    with tempfile.TemporaryDirectory(prefix="outperform-cold-") as tmp:
        table = Path(tmp) / "cv_many_tasks.csv"
        uci = load_uci54(DATA)
        uci[uci["model"].isin(["hnb", "nbc"])].to_csv(table, index=False)
        for rep in range(args.repeats):
            shipped_cache, before_cache = (tempfile.mkdtemp(dir=tmp) for _ in range(2))
            rows = [("shipped programs, empty cache (first process)", shipped_cache, True,
                     args.drop_caches),
                    ("no shipped programs, empty cache (before)", before_cache, False,
                     args.drop_caches),
                    ("no shipped programs, warm cache (second process)", before_cache, False,
                     False)]
            for label, cache, shipped, drop in rows:
                share = _share_of_a_core()
                wall, cpu, step = _cli_process(table, cache, shipped, drop)
                share = (share + _share_of_a_core()) / 2
                print(f"  [{rep + 1}] {label:50s} wall {wall:5.1f} s, CPU {cpu:5.1f} s, "
                      f"MCMC step {step:5.1f} s; share of a core {share:.2f}, so wall x "
                      f"share {wall * share:4.1f} s (load {os.getloadavg()[0]:.1f})")


def run_once(args, a, b):
    from outperform.bayes import hierarchical_correlated_ttest

    t0 = time.perf_counter()
    res = hierarchical_correlated_ttest(a, b, rho=0.1, rope=1.0, n_chains=args.chains,
                                        n_samples=args.draws, n_warmup=args.warmup,
                                        random_state=args.seed)
    call = time.perf_counter() - t0
    ended = time.time()
    t0 = time.perf_counter()
    hierarchical_correlated_ttest(a, b, rho=0.1, rope=1.0, n_chains=args.chains,
                                  n_samples=args.draws, n_warmup=args.warmup,
                                  random_state=args.seed + 1)
    again = time.perf_counter() - t0
    print(ended)
    print(f"call {call:.1f} s (compiled: {again:.1f} s, so ~{call - again:.1f} s compiling "
          f"or loading); P(left, rope, right) = "
          f"{np.round(res.details['p_regions_averaged'], 3)} (averaged), max R-hat "
          f"{res.details['rhat_max']:.3f}")


def main():
    started = time.perf_counter()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=10_000, help="draws per chain")
    parser.add_argument("--warmup", type=int, default=1_000)
    parser.add_argument("--chains", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chain-method", default="vectorized",
                        choices=("vectorized", "sequential"))
    parser.add_argument("--pair", nargs=2, default=("hnb", "nbc"), metavar=("A", "B"),
                        help="classifiers A and B (of nbc, aode, hnb, j48, j48gr)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--reference", action="store_true")
    mode.add_argument("--baycomp", action="store_true")
    mode.add_argument("--cold-start", action="store_true")
    mode.add_argument("--cold-process", action="store_true")
    mode.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--repeats", type=int, default=2, help="rounds of --cold-start")
    parser.add_argument("--drop-caches", action="store_true",
                        help="with --cold-process: empty the page cache first (root)")
    parser.add_argument("--before", metavar="SRC",
                        help="with --cold-start: compare with the package in this folder")
    args = parser.parse_args()
    if args.cold_start and args.before:
        run_before_after(args)
        return
    if args.cold_start:
        run_cold_start(args)
        return
    if args.cold_process:
        run_cold_process(args)
        return
    uci = load_uci54_arrays(DATA, keep_duplicates=True)
    names, a = uci[args.pair[0]]
    b = uci[args.pair[1]][1]
    if args.reference:
        run_reference(args, a, b, started)
    elif args.baycomp:
        run_baycomp(args, a, b, started)
    elif args.once:
        run_once(args, a, b)
    else:
        run_outperform(args, a, b, names, started)


if __name__ == "__main__":
    main()
