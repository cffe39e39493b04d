"""Write the Inspect AI fixture logs of tests/data/evals/inspect/ (offline, no API key).

Two runs of one small task (12 arithmetic questions in 4 clusters of 3, 2 epochs, scorers
``match()`` and ``includes()``) with Inspect's built-in mock provider ``mockllm``, whose
answers come from a fixed table (``custom_outputs``): model-a answers 9 of 12 right, model-b
8 of 12, and model-b changes one answer between epochs. Run A is written as ``.eval``, run B
as ``.json``, the two formats ``inspect_ai.log.read_eval_log`` reads.

Command (from the repository root, inspect_ai installed, e.g. 0.3.285):

    pip install --target /tmp/evals_deps inspect_ai
    PYTHONPATH=/tmp/evals_deps python tests/data/evals/inspect/make_inspect_logs.py
"""
from __future__ import annotations

import glob
import os
import shutil
from collections import Counter
from pathlib import Path

from inspect_ai import Task, eval, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import includes, match
from inspect_ai.solver import generate

HERE = Path(__file__).resolve().parent
QUESTIONS = [(f"q{i:02d}", a, b) for i, (a, b) in enumerate(
    [(2, 3), (4, 5), (6, 7), (1, 8), (9, 9), (3, 4), (5, 5), (7, 2), (8, 6), (2, 9), (4, 4),
     (6, 1)])]
# Questions each model gets wrong (answers the true sum + 1); model-b's q05 flips by epoch.
WRONG = {"model-a": {"q01", "q06", "q10"}, "model-b": {"q02", "q03", "q07", "q11"}}
FLIPPING = {"model-b": {"q05"}}


@task
def addition():
    samples = [Sample(id=qid, input=f"What is {a} + {b}? Answer with the number only.",
                      target=str(a + b), metadata={"passage": f"p{int(qid[1:]) // 3}"})
               for qid, a, b in QUESTIONS]
    return Task(dataset=samples, solver=generate(), scorer=[match(), includes()],
                version=2)


def answers(name: str):
    calls: Counter = Counter()

    def respond(messages, tools, tool_choice, config) -> ModelOutput:
        text = messages[-1].text
        qid, a, b = next(q for q in QUESTIONS if text.startswith(f"What is {q[1]} + {q[2]}?"))
        calls[qid] += 1
        wrong = qid in WRONG[name] or (qid in FLIPPING.get(name, set()) and calls[qid] == 2)
        output = ModelOutput.from_content(model=name, content=str(a + b + int(wrong)))
        # Given usage: the mock then does not count tokens with tiktoken (a download).
        output.usage = ModelUsage(input_tokens=len(text.split()), output_tokens=1,
                                  total_tokens=len(text.split()) + 1)
        return output

    return respond


def main() -> None:
    out = HERE / "_tmp_logs"
    shutil.rmtree(out, ignore_errors=True)
    for name, fmt in (("model-a", "eval"), ("model-b", "json")):
        model = get_model(f"mockllm/{name}", custom_outputs=answers(name), memoize=False)
        eval(addition(), model=model, epochs=2, log_dir=str(out), log_format=fmt,
             max_samples=1, display="none", temperature=0.0)
    for path in glob.glob(str(out / "*")):
        target = HERE / ("run_a.eval" if path.endswith(".eval") else "run_b.json")
        shutil.move(path, target)
    os.rmdir(out)


if __name__ == "__main__":
    main()
