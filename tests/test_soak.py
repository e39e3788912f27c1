"""The soak benchmark, bounded: three real nodes on PostgreSQL and Redis, mixed calls, a node
SIGKILLed and a worker killed midway — no answered call loses its log row, nothing answers 5xx,
and the nodes agree on snapshots and share cached results (benchmarks/soak.py runs 10^4)."""

from __future__ import annotations

import os

from benchmarks import soak

CALLS = int(os.environ.get("QUIVER_SOAK_CALLS", "400"))  # benchmarks/soak.py runs 10^4


def test_a_bounded_soak_with_a_node_and_a_worker_killed_loses_nothing(
    postgres_url: str, redis_url: str
) -> None:
    report = soak.run(
        calls=CALLS, concurrency=16, sessions=16, redis_url=redis_url, flush_redis=True
    )

    statuses = report["statuses"]
    assert report["lost"] == 0, report
    # 409: a browser outcome the killed node recorded before dying, sent again by the balancer
    assert set(statuses) <= {200, 201, 409}, statuses
    assert report["answered"] + statuses.get(409, 0) == CALLS
    assert report["worker_killed"] is True
    assert report["snapshots_agree"] and report["cache_shared"]
