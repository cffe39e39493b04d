"""Chatbot Arena battle logs (data/_arena.py, read through data/_battles.py).

The filters are checked against the lines of FastChat's
``fastchat/serve/monitor/elo_analysis.py`` (commit 0e6d3e4beaab66f4d3f93db72541a4abab8af28d,
``report_elo_analysis_results``) written out with pandas on the same records:
``battles[battles["language"].isin(langs)]``, ``battles[battles["anony"]]`` and, with
``--exclude-tie``, ``battles[~battles["winner"].str.contains("tie")]``.
"""
import json

import numpy as np
import pandas as pd
import pytest

from outperform.compare import bradley_terry
from outperform.data import battle_counts, read_battles


def _log(n=400, seed=0):
    rng = np.random.default_rng(seed)
    names = np.array(["gpt-4", "claude-2", "llama-2-70b", "vicuna-13b"])
    a = rng.integers(0, 4, n)
    b = (a + rng.integers(1, 4, n)) % 4
    winner = rng.choice(["model_a", "model_b", "tie", "tie (bothbad)"], n,
                        p=[0.4, 0.35, 0.15, 0.1])
    return [{"question_id": f"q{i}", "model_a": names[a[i]], "model_b": names[b[i]],
             "winner": winner[i], "judge": f"arena_user_{i % 7}", "turn": int(1 + i % 3),
             "anony": bool(rng.random() < 0.8),
             "language": str(rng.choice(["English", "Chinese", "German"])),
             "tstamp": 1.7e9 + i, "conversation_a": [], "conversation_b": []}
            for i in range(n)]


@pytest.mark.parametrize("anony_only, language, drop_ties", [
    (False, None, "none"), (True, None, "none"), (True, ["English"], "none"),
    (True, ["English", "Chinese"], "all"), (False, None, "bothbad")])
def test_filters_keep_fastchats_battles(tmp_path, anony_only, language, drop_ties):
    records = _log()
    path = tmp_path / "clean_battle.json"
    path.write_text(json.dumps(records, indent=2))
    ours = read_battles(path, anony_only=anony_only, language=language, drop_ties=drop_ties)
    battles = pd.DataFrame(records)
    if language:
        battles = battles[battles["language"].isin(language)]
    if anony_only:
        battles = battles[battles["anony"]]
    if drop_ties == "all":
        battles = battles[~battles["winner"].str.contains("tie")]
    if drop_ties == "bothbad":
        battles = battles[battles["winner"] != "tie (bothbad)"]
    assert len(ours) == len(battles)
    np.testing.assert_array_equal(ours["model_a"], battles["model_a"])
    side = battles["winner"].map({"model_a": "a", "model_b": "b"}).fillna("tie")
    np.testing.assert_array_equal(ours["winner"], side)
    assert ours.attrs["notes"][0].startswith("Chatbot Arena battle log: 400 battles read; ")


def test_log_as_json_jsonl_and_csv_give_one_fit(tmp_path):
    records = _log(seed=1)
    (tmp_path / "log.json").write_text(json.dumps(records))
    (tmp_path / "log.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    pd.DataFrame(records).drop(columns=["conversation_a", "conversation_b"]).to_csv(
        tmp_path / "log.csv", index=False)
    fits = [bradley_terry(tmp_path / f, anony_only=True, interval="bootstrap",
                          n_resamples=20, random_state=0)
            for f in ("log.json", "log.jsonl", "log.csv")]
    for other in fits[1:]:
        np.testing.assert_allclose(other.abilities, fits[0].abilities, atol=1e-12)
        np.testing.assert_allclose(other.bootstrap_ratings, fits[0].bootstrap_ratings,
                                   atol=1e-9)
    assert any("anonymous battles only" in n for n in fits[0].notes)
    assert any(n.startswith("battles: 400 battles read; anonymous") for n in fits[2].notes)


def test_counts_sum_to_the_battles_kept():
    records = _log(seed=2)
    counts = battle_counts(records, drop_ties="all")
    kept = sum(r["winner"] in ("model_a", "model_b") for r in records)
    assert counts["count"].sum() == kept and set(counts["winner"]) == {"a", "b"}
    assert not counts.duplicated(["model_a", "model_b", "winner"]).any()


def test_csv_without_filters_has_no_note(tmp_path):
    df = pd.DataFrame({"model_a": ["x", "y"], "model_b": ["y", "x"], "winner": ["a", "a"]})
    assert read_battles(df).attrs["notes"] == ()
    assert bradley_terry(df).notes == ()
