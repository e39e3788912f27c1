"""Known-secrets redaction benchmark.

    python -m benchmarks.redaction [--lines 1000]

For 20, 64, 65 and 4,096 remembered keys (random, 32 characters): how long remembering them
takes, the first redaction (a compiled pattern is built then, up to 64 values), and the time
per redaction of a 237-character log line — against ``str.replace`` of one key over the same
line as the baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import secrets
import time

from server.known_secrets import KnownSecrets

LINE = "the agent loop could not time out actions of session 1234 because of something " * 3


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=1000)
    args = parser.parse_args()
    key = "sk-" + secrets.token_urlsafe(24)
    started = time.perf_counter()
    for _ in range(args.lines):
        LINE.replace(key, "[redacted]")
    baseline = (time.perf_counter() - started) / args.lines
    print(f"baseline str.replace of one key: {baseline * 1e6:.2f} µs a line")
    print("values   remember ms   first redact ms   per line µs   of baseline")
    for count in (20, 64, 65, 4096):
        known = KnownSecrets()
        started = time.perf_counter()
        for _ in range(count):
            known.remember("sk-" + secrets.token_urlsafe(24))
        remembered = time.perf_counter() - started
        started = time.perf_counter()
        known.redact("a first text to redact")
        first = time.perf_counter() - started
        started = time.perf_counter()
        for _ in range(args.lines):
            known.redact(LINE)
        per_line = (time.perf_counter() - started) / args.lines
        print(
            f"{count:>6}   {remembered * 1e3:>11.1f}   {first * 1e3:>15.1f}   "
            f"{per_line * 1e6:>11.1f}   {per_line / baseline:>10.0f}x"
        )


if __name__ == "__main__":
    main()
