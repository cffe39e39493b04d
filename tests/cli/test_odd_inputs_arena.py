"""Odd-input corpus of issue 27 for Chatbot Arena's battle logs and battles at scale: each
input with its exact outcome (exit code and message through the command line)."""
import json

import pytest
from typer.testing import CliRunner

from outperform.cli import app

runner = CliRunner()


def _record(a, b, winner, **extra):
    """A record as FastChat's clean_battle_data.py writes it."""
    return {"question_id": "q", "model_a": a, "model_b": b, "winner": winner,
            "judge": "arena_user_1", "conversation_a": [{"role": "user", "content": "hi"}],
            "conversation_b": [{"role": "user", "content": "hi"}], "turn": 1,
            "anony": True, "language": "English", "tstamp": 1.7e9, **extra}


GOOD = [_record("x", "y", "model_a"), _record("y", "x", "model_a"),
        _record("x", "z", "model_b"), _record("z", "x", "tie", anony=False),
        _record("y", "z", "model_a", language="German"), _record("z", "y", "model_a"),
        _record("y", "z", "tie (bothbad)"), _record("z", "x", "model_b")]


def _json(records):
    return json.dumps(records)


def _jsonl(records, bad_line=None):
    lines = [json.dumps(r) for r in records]
    if bad_line is not None:
        lines[bad_line - 1] = lines[bad_line - 1][:-5]          # cut short
    return "\n".join(lines) + "\n"


# (id, file name, file text, extra arguments, exit code, substrings of the output)
CASES = [
    ("log read as is", "log.json", _json(GOOD), [], 0,
     ["Chatbot Arena battle log: 8 battles read; all kept (no filter", "'tie (bothbad)' (1) counted as a tie"]),
    ("jsonl read as is", "log.jsonl", _jsonl(GOOD), [], 0, ["8 battles read"]),
    ("filters stated", "log.json", _json(GOOD),
     ["--anony-only", "--language", "English", "--drop-ties", "bothbad"], 0,
     ["anonymous battles only (anony true): 7 kept", "language English: 6 kept",
      "'tie (bothbad)' votes dropped: 1, other ties kept"]),
    ("winner outside the set", "log.json",
     _json(GOOD[:2] + [_record("x", "z", "left")]), [], 1,
     ["winner must be a, b or tie", "row 3 (winner = 'left')"]),
    ("model battling itself", "log.json",
     _json(GOOD + [_record("y", "y", "model_a")]), [], 1,
     ["row 9 (model_a = 'y') battles itself"]),
    ("one model only", "log.json", _json([_record("x", "x", "model_a")]), [], 1,
     ["battles itself"]),
    ("disconnected graph", "log.json",
     _json([_record("x", "y", "model_a"), _record("y", "x", "model_a"),
            _record("u", "v", "model_a"), _record("v", "u", "model_a")]), [], 1,
     ["2 groups that never battled each other"]),
    ("all ties", "log.json", _json([_record("x", "y", "tie"), _record("y", "z", "tie")]),
     [], 1, ["every battle is a tie"]),
    ("all ties dropped", "log.json",
     _json([_record("x", "y", "tie"), _record("y", "z", "tie (bothbad)")]),
     ["--drop-ties", "all"], 1, ["no battle of positive weight left after the filters"]),
    ("missing column", "log.json",
     _json([{k: v for k, v in _record("x", "y", "model_a").items() if k != "winner"}]), [],
     1, ["no column 'winner'", "columns found: question_id, model_a, model_b"]),
    ("jsonl bad line", "log.jsonl", _jsonl(GOOD, bad_line=3), [], 1,
     ["log.jsonl: line 3 is not valid JSON"]),
    ("json not valid", "log.json", _json(GOOD)[:-3], [], 1, ["log.json is not valid JSON"]),
    ("json not a list", "log.json", json.dumps({"a": 1, "b": 2}), [], 1,
     ["not a list of battle records"]),
    ("anony missing", "log.json",
     _json([{k: v for k, v in r.items() if k != "anony"} for r in GOOD]), ["--anony-only"],
     1, ["needs a column 'anony'"]),
    ("anony not a flag", "log.json", _json(GOOD[:3] + [_record("y", "z", "tie", anony="maybe")]),
     ["--anony-only"], 1, ["anony must be true or false; row 4 has 'maybe'"]),
    ("language absent", "log.json", _json(GOOD), ["--language", "Klingon"], 1,
     ["no battle in language 'Klingon'", "'English'"]),
    ("drop-ties unknown", "log.json", _json(GOOD), ["--drop-ties", "some"], 1,
     ["--drop-ties) must be one of none, all, bothbad"]),
    ("filters without battles", "scores.csv", "model,example,correct\nA,1,1\nB,1,0\n",
     ["--anony-only"], 1, ["add --battles"]),
    ("empty log", "log.json", "[]", [], 1, ["holds no battle"]),
]


@pytest.mark.parametrize("name, text, extra, code, expected",
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_arena_logs_odd_inputs(tmp_path, name, text, extra, code, expected):
    path = tmp_path / name
    path.write_text(text)
    result = runner.invoke(app, ["leaderboard", str(path), "--n-resamples", "0", *extra])
    out = " ".join(result.output.split())
    assert result.exit_code == code, out
    assert "Traceback" not in out
    for s in expected:
        assert s in out, (s, out)
