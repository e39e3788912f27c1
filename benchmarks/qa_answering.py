"""Does ``qa_lookup`` know when it does not know?

    python -m benchmarks.qa_answering [--threshold 0.5] [--other-languages 40]

On chatterbot-corpus, per language: the topic files are split in two (alternately, by name).
The first half is the FAQ — every answer an entry with its first question — and the other
questions sharing an answer are the in-domain queries (paraphrases). Out-of-domain queries are
the questions of the other half's topics (another FAQ's questions, chit-chat among them) and
``--other-languages`` questions from each other language. Printed per language and in all:
MRR@10 and the answered rate on in-domain queries, and the false-answer rate — out-of-domain
queries answered (``answered: true``) — at the threshold. Target (issue 48): at most 10 %
false answers at an MRR@10 of at least 0.45.
"""

from __future__ import annotations

import argparse
import importlib.resources
import random
import statistics
from collections import defaultdict
from typing import Any

import yaml

from server.skills.indexes import Faq
from server.skills.search import EmptyQuery


def corpus() -> dict[str, list[list[tuple[str, str]]]]:
    """Per language, per topic file: its (question, answer) pairs."""
    root = importlib.resources.files("chatterbot_corpus") / "data"
    out: dict[str, list[list[tuple[str, str]]]] = {}
    for lang in sorted(p.name for p in root.iterdir() if p.is_dir()):
        files = []
        for path in sorted((root / lang).iterdir(), key=lambda p: p.name):
            if not path.name.endswith(".yml"):
                continue
            pairs = []
            for conversation in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("conversations") or []:  # fmt: skip
                if len(conversation) >= 2 and all(isinstance(x, str) for x in conversation[:2]):
                    question, answer = conversation[0].strip(), conversation[1].strip()
                    if question and answer:
                        pairs.append((question, answer))
            if pairs:
                files.append(pairs)
        if len(files) >= 2:
            out[lang] = files
    return out


def split(files: list[list[tuple[str, str]]]) -> tuple[list[dict[str, Any]], list[tuple[str, str]], list[str]]:  # fmt: skip
    """The FAQ entries, the in-domain (query, right id) pairs, the out-of-domain questions."""
    by_answer: dict[str, list[str]] = defaultdict(list)
    for pairs in files[0::2]:
        for question, answer in pairs:
            if question not in by_answer[answer]:
                by_answer[answer].append(question)
    entries, queries = [], []
    for i, (answer, questions) in enumerate(by_answer.items()):
        entries.append({"id": f"a{i}", "question": questions[0], "answer": answer})
        queries.extend((q, f"a{i}") for q in questions[1:])
    known = {q for qs in by_answer.values() for q in qs}
    outside = sorted({q for pairs in files[1::2] for q, _ in pairs} - known)
    return entries, queries, outside


def answer(faq: Faq, query: str, threshold: float) -> tuple[list[Any], bool]:
    try:
        return faq.answer(query, 10, threshold)
    except EmptyQuery:  # no words: no candidates
        return [], False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--other-languages", type=int, default=40)
    args = parser.parse_args()
    data = corpus()
    rng = random.Random(7)
    foreign = {lang: rng.sample([q for pairs in files for q, _ in pairs], min(args.other_languages, sum(map(len, files)))) for lang, files in data.items()}  # fmt: skip
    rows = []
    all_rr, all_in, all_out, all_same = [], [], [], []
    for lang, files in data.items():
        entries, queries, outside = split(files)
        if not queries:
            continue
        faq = Faq.build(entries)
        rr, answered_in = [], []
        for query, right in queries:
            found, answered = answer(faq, query, args.threshold)
            ids = [e["id"] for e, _, _ in found]
            rr.append(1 / (ids.index(right) + 1) if right in ids else 0.0)
            answered_in.append(answered and bool(ids) and ids[0] == right)
        same = len(outside)
        outside += [q for other, qs in foreign.items() if other != lang for q in qs]
        answered_out = [answer(faq, q, args.threshold)[1] for q in outside]
        all_same += answered_out[:same]
        rows.append((lang, len(entries), len(queries), len(outside), statistics.mean(rr), statistics.mean(answered_in), statistics.mean(answered_out)))  # fmt: skip
        all_rr += rr
        all_in += answered_in
        all_out += answered_out
    print(f"qa_lookup answering on chatterbot-corpus, threshold {args.threshold}")
    print(f"{'language':<20}{'entries':>8}{'in':>6}{'out':>6}{'MRR@10':>9}{'answered right':>16}{'false answers':>15}")  # fmt: skip
    for lang, n, q, o, mrr, right, false in rows:
        print(f"{lang:<20}{n:>8}{q:>6}{o:>6}{mrr:>9.3f}{right:>16.1%}{false:>15.1%}")
    print(
        f"false answers to questions of the same language's other topics only: {statistics.mean(all_same):.1%} of {len(all_same)}"
    )
    print(f"{'all':<20}{'':>8}{len(all_rr):>6}{len(all_out):>6}{statistics.mean(all_rr):>9.3f}{statistics.mean(all_in):>16.1%}{statistics.mean(all_out):>15.1%}")  # fmt: skip


if __name__ == "__main__":
    main()
