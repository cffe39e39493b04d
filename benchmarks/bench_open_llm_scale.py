"""`leaderboard` over an Open-LLM-Leaderboard-sized folder of per-item logs (issue 31).

Generates once, into ``--folder``, lighteval details in
the layout ``details/<org>/<model>/<date>/details_<task>_<date>.parquet`` (the nested
schema of lighteval 0.11+: ``doc`` with query/choices/gold_index/id, ``model_response``
with text and log-probabilities, ``metric`` with ``acc``): ``--models`` models x 6 tasks x
``--items`` 0/1 items, one file per model and task (default
/tmp/outperform-open-llm-<models>). Correctness follows a Rasch model
(ability of the model minus difficulty of the item, abilities spread so that ranks are
partly resolved); one model in ten has its rows in another order.

Then, each in a fresh process (its own peak RSS, ``resource.getrusage``), alternating:
- ours: ``outperform.compare.leaderboard(folder)`` (rank sets, tiers, letters, 1,000
  resamples), the time split into read (Parquet, projected), pair (ids to codes, packing,
  and the unpacking to the float64 items x models matrix), bootstrap (``rank_sets``) and
  the rest (all-pairs McNemar, letters, Hsu's MCB);
- peer (up to ``--peer-models`` models, as a user would do it):
  ``pandas.read_parquet`` of each file, the id and score out of the structs, ``concat``,
  ``pivot``; its read+pair time against ours on the same models.

    nice python benchmarks/bench_open_llm_scale.py --models 200 --rounds 2
    nice python benchmarks/bench_open_llm_scale.py --models 2000 --rounds 1 --peer-models 200
    nice python benchmarks/bench_open_llm_scale.py --models 2000 --peer-models 0 --dask
        # also on a 2-worker Dask LocalCluster (processes), its leaderboard asserted equal
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

DATE = "2025-06-01T12-00-00.000000"
TASKS = ("leaderboard|arc:challenge|25", "leaderboard|hellaswag|10", "leaderboard|mmlu|5",
         "leaderboard|truthfulqa:mc|0", "leaderboard|winogrande|5", "leaderboard|gsm8k|5")


def generate(folder: Path, models: int, items: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    done = folder / f".done-{models}-{items}"
    if done.exists():
        return
    rng = np.random.default_rng(31)
    ability = np.sort(rng.normal(0.0, 1.0, models))[::-1]
    t0 = time.perf_counter()
    for t, task in enumerate(TASKS):
        difficulty = rng.normal(0.0, 1.5, items)
        docs = pa.StructArray.from_arrays(
            [pa.array([f"Q{t}.{i}: which?" for i in range(items)]),
             pa.array([["A", "B", "C", "D"]] * items), pa.array(rng.integers(0, 4, items)),
             pa.array([str(i) for i in range(items)]), pa.array([task] * items)],
            ["query", "choices", "gold_index", "id", "task_name"])
        responses = pa.StructArray.from_arrays(
            [pa.array([["B"]] * items), pa.array([[-0.7]] * items)], ["text", "logprobs"])
        for m in range(models):
            p = 1.0 / (1.0 + np.exp(-(ability[m] - difficulty)))
            acc = (rng.random(items) < p).astype(float)
            table = pa.table({"doc": docs, "model_response": responses,
                              "metric": pa.StructArray.from_arrays([pa.array(acc)], ["acc"])})
            if m % 10 == 9:
                table = table.take(rng.permutation(items))
            out = folder / "details" / "org" / f"model-{m:04d}" / DATE
            out.mkdir(parents=True, exist_ok=True)
            pq.write_table(table, out / f"details_{task}_{DATE}.parquet")
        print(f"  generated task {t + 1}/{len(TASKS)} ({time.perf_counter() - t0:.0f} s)",
              flush=True)
    done.touch()


def files_of(folder: Path, models: int) -> list[Path]:
    return [folder / "details" / "org" / f"model-{m:04d}" / DATE /
            f"details_{task}_{DATE}.parquet" for m in range(models) for task in TASKS]


def run_ours(folder: Path, models: int, resamples: int, dask: bool = False) -> dict:
    import outperform.compare._details_input as di
    import outperform.compare._leaderboard as lb
    import outperform.compare._leaderboard_inputs as li
    from outperform.compare import leaderboard

    split = {}
    stream, scores, ranks = di.stream_details, li.details_scores, lb.rank_sets

    def timed_stream(*args, **kwargs):
        res = stream(*args, **kwargs)
        split["read"] = res.timings["read"]
        return res

    def timed_scores(*args, **kwargs):      # read + pair (ids to codes, packing, unpacking)
        t0 = time.perf_counter()
        res = scores(*args, **kwargs)
        split["pair"] = time.perf_counter() - t0 - split["read"]
        return res

    def timed_ranks(*args, **kwargs):
        t0 = time.perf_counter()
        res = ranks(*args, **kwargs)
        split["bootstrap"] = time.perf_counter() - t0
        return res

    di.stream_details, li.details_scores, lb.rank_sets = timed_stream, timed_scores, timed_ranks
    paths = (folder if models == count_models(folder) else files_of(folder, models))
    workers_mb = None
    if dask:        # a 2-worker LocalCluster of processes, one thread each, started first
        from dask.distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    t0 = time.perf_counter()
    board = leaderboard(paths, n_resamples=resamples, scheduler=client if dask else None)
    total = time.perf_counter() - t0
    if dask:
        workers_mb = sorted(client.run(
            lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024).values())
        client.close()
        cluster.close()
    frame = board.to_frame()
    frame.to_parquet(folder.parent / f"{folder.name}-frame-{'dask' if dask else 'local'}.parquet")
    return {"total": total, **split, "rest": total - sum(split.values()),
            "workers_mb": workers_mb,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "models": len(board.names), "tiers": int(frame["tier"].max()),
            "top": frame["model"].iloc[0], "set_width": float(
                (frame["simultaneous_high"] - frame["simultaneous_low"]).median())}


def run_ours_read(folder: Path, models: int) -> dict:
    from outperform.compare._details_input import details_scores

    t0 = time.perf_counter()
    scores, names, _, _ = details_scores(files_of(folder, models), metric=None, cluster=None,
                                         task=None, progress=False, notes=[])
    return {"total": time.perf_counter() - t0, "shape": list(scores.shape),
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "checksum": float(scores.sum())}


def run_peer(folder: Path, models: int) -> dict:
    import pandas as pd

    t0 = time.perf_counter()
    frames = []
    for path in files_of(folder, models):
        d = pd.read_parquet(path)
        frames.append(pd.DataFrame({
            "model": path.parts[-3], "task": path.name.split("_")[1],
            "item": d["doc"].map(lambda x: x["id"]),
            "score": d["metric"].map(lambda x: x["acc"])}))
    wide = pd.concat(frames).pivot(index=["task", "item"], columns="model", values="score")
    scores = wide.to_numpy()
    return {"total": time.perf_counter() - t0, "shape": list(scores.shape),
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "checksum": float(scores.sum())}


def count_models(folder: Path) -> int:
    return sum(1 for _ in (folder / "details" / "org").iterdir())


def child(kind: str, args) -> dict:
    out = subprocess.run([sys.executable, __file__, "--folder", str(args.folder), "--models",
                          str(args.models if kind.startswith("ours") else args.peer_models),
                          "--resamples", str(args.resamples), "--child", kind],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=None,
                        help="cache of the generated files (default "
                             "/tmp/outperform-open-llm-<models>)")
    parser.add_argument("--models", type=int, default=2000)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--peer-models", type=int, default=200,
                        help="models read by the pandas peer (0: no peer run)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--dask", action="store_true",
                        help="also run ours with scheduler= a 2-worker Dask LocalCluster and "
                             "assert the same leaderboard as the local run")
    parser.add_argument("--child", choices=("ours", "ours-dask", "ours-read", "peer"))
    args = parser.parse_args()
    args.folder = args.folder or Path(f"/tmp/outperform-open-llm-{args.models}")
    if args.child:
        run = {"ours": lambda: run_ours(args.folder, args.models, args.resamples),
               "ours-dask": lambda: run_ours(args.folder, args.models, args.resamples, True),
               "ours-read": lambda: run_ours_read(args.folder, args.models),
               "peer": lambda: run_peer(args.folder, args.models)}[args.child]
        print(json.dumps(run()))
        return
    import os

    generate(args.folder, args.models, args.items)
    peer = min(args.peer_models, args.models)
    print(f"{args.models} models x {len(TASKS)} tasks x {args.items:,} items; "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    for r in range(args.rounds):
        ours = child("ours", args)
        print(f"round {r + 1} ours leaderboard: total {ours['total']:.1f} s = read "
              f"{ours['read']:.1f} + pair {ours['pair']:.1f} + bootstrap "
              f"{ours['bootstrap']:.1f} + rest {ours['rest']:.1f}; peak RSS "
              f"{ours['peak_mb']:.0f} MB; {ours['models']} models, {ours['tiers']} tiers, "
              f"median simultaneous rank-set width {ours['set_width']:.0f}", flush=True)
        if args.dask:
            import pandas as pd

            on = child("ours-dask", args)
            same = pd.read_parquet(args.folder.parent / f"{args.folder.name}-frame-dask.parquet").equals(
                pd.read_parquet(args.folder.parent / f"{args.folder.name}-frame-local.parquet"))
            print(f"round {r + 1} ours on a 2-worker Dask LocalCluster: total {on['total']:.1f} s"
                  f" = read {on['read']:.1f} + pair {on['pair']:.1f} + bootstrap "
                  f"{on['bootstrap']:.1f} + rest {on['rest']:.1f}; peak RSS {on['peak_mb']:.0f}"
                  f" MB here, workers {on['workers_mb']} MB; the same leaderboard as the local "
                  f"run: {same}", flush=True)
            assert same, "the Dask run's leaderboard differs from the local run's"
        if not peer:
            continue            # --peer-models 0: ours only
        args.peer_models = peer
        mine = child("ours-read", argparse.Namespace(**{**vars(args), "models": peer}))
        theirs = child("peer", args)
        assert mine["shape"] == theirs["shape"] and mine["checksum"] == theirs["checksum"]
        print(f"round {r + 1} read + pair of {peer} models: ours {mine['total']:.1f} s "
              f"(peak {mine['peak_mb']:.0f} MB), pandas read_parquet + concat + pivot "
              f"{theirs['total']:.1f} s (peak {theirs['peak_mb']:.0f} MB); ratio "
              f"{mine['total'] / theirs['total']:.3f}; load {os.getloadavg()[0]:.1f}",
              flush=True)


if __name__ == "__main__":
    main()
