"""PgQueuer drain benchmark: the peer figure for deploy/bench/queue.sh.

Our queue benchmark (`relay-bench queue`) times how fast workers claim and complete
no-op jobs in PostgreSQL with fsync on. PgQueuer is a Python job queue built on
PostgreSQL the same way (FOR UPDATE SKIP LOCKED plus LISTEN/NOTIFY), so running it
against the same cluster with the same number of jobs gives a fair yardstick.

For each (processes, batch size): install PgQueuer's tables if they are missing,
empty its queue and log, enqueue N no-op jobs in one bulk INSERT, then start P OS
processes, each with one QueueManager on one asyncpg connection in drain mode.
The clock starts when every process is connected and ready, and stops when all
processes have exited (drain mode exits once the queue is empty); the queue is
then checked to be empty and every job to have run. PgQueuer's defaults are kept
(durable tables, no concurrency cap) except the batch size.

PgQueuer's objects live in their own PostgreSQL schema (pgqueuer_bench), so the
project's own tables, `jobs` included, are never touched. Each run has a time
limit; past it the workers are stopped and the script exits with status 1.

    python pgqueuer_drain.py --dsn postgres://... [--jobs 20000]
        [--batch-sizes 10,50] [--processes 1,4] [--time-limit 300]
"""
import argparse
import asyncio
import multiprocessing as mp
import os
import signal
import sys
import threading
import time

# PgQueuer reads its object names once, from the environment, on first use.
os.environ["PGQUEUER_SCHEMA"] = "pgqueuer_bench"

import asyncpg  # noqa: E402
from pgqueuer import AsyncpgDriver, Queries, QueueManager  # noqa: E402
from pgqueuer.types import QueueExecutionMode  # noqa: E402

ENTRYPOINT = "noop"


def worker(dsn, batch, barrier, counts, index, limit):
    """One OS process: a QueueManager on one connection, draining until the queue is empty."""
    async def main():
        conn = await asyncpg.connect(dsn, timeout=30)
        try:
            qm = QueueManager(Queries(AsyncpgDriver(conn)))
            done = 0

            @qm.entrypoint(ENTRYPOINT)
            async def noop(job):
                nonlocal done
                done += 1

            barrier.wait(timeout=60)  # every process connected: the clock starts now
            await asyncio.wait_for(qm.run(mode=QueueExecutionMode.drain, batch_size=batch), limit)
            counts[index] = done
        finally:
            await conn.close()

    try:
        asyncio.run(main())
    except asyncio.TimeoutError:
        sys.exit(f"pgqueuer worker {index}: not drained within {limit:.0f} s")


async def prepare(dsn, jobs):
    """Installs PgQueuer's schema when missing, empties its tables, enqueues the jobs."""
    conn = await asyncpg.connect(dsn, timeout=30)
    try:
        queries = Queries(AsyncpgDriver(conn))
        if not await queries.schema_is_installed():
            await queries.install()
        await queries.clear_queue()
        await queries.clear_queue_log()
        await queries.clear_statistics_log()
        await queries.enqueue([ENTRYPOINT] * jobs, [None] * jobs, [0] * jobs)
    finally:
        await conn.close()


async def left_in_queue(dsn):
    conn = await asyncpg.connect(dsn, timeout=30)
    try:
        table = Queries(AsyncpgDriver(conn)).qbe.settings.qualified.queue_table
        return await conn.fetchval(f"SELECT count(*) FROM {table}")
    finally:
        await conn.close()


def drain(dsn, jobs, processes, batch, limit):
    """One run; returns jobs/s. Raises SystemExit when it fails or overruns the limit."""
    asyncio.run(prepare(dsn, jobs))
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(processes + 1)
    counts = ctx.Array("q", processes)
    procs = [ctx.Process(target=worker, args=(dsn, batch, barrier, counts, i, limit), daemon=True)
             for i in range(processes)]
    try:
        for p in procs:
            p.start()
        try:
            barrier.wait(timeout=60)
        except threading.BrokenBarrierError:
            sys.exit(f"pgqueuer: {processes} worker process(es) did not start within 60 s")
        start = time.perf_counter()
        deadline = start + limit
        for p in procs:
            p.join(max(0.0, deadline - time.perf_counter()))
        elapsed = time.perf_counter() - start
    finally:
        stuck = [p for p in procs if p.is_alive()]
        for p in stuck:
            p.terminate()
        for p in stuck:
            p.join(5)
            if p.is_alive():
                p.kill()
                p.join()
    if stuck:
        sys.exit(f"pgqueuer: {processes} process(es), batch {batch}: not drained within {limit:.0f} s")
    if any(p.exitcode != 0 for p in procs):
        sys.exit(f"pgqueuer: a worker failed (exit codes {[p.exitcode for p in procs]})")
    left, ran = asyncio.run(left_in_queue(dsn)), sum(counts)
    if left or ran != jobs:
        sys.exit(f"pgqueuer: {left} jobs left in the queue, {ran} of {jobs} jobs ran")
    return jobs / elapsed


def int_list(text):
    return [int(x) for x in text.split(",") if x.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsn", required=True, help="postgres:// URL of the benchmark database")
    parser.add_argument("--jobs", type=int, default=20000)
    parser.add_argument("--batch-sizes", type=int_list, default=[10, 50])
    parser.add_argument("--processes", type=int_list, default=[1, 4])
    parser.add_argument("--time-limit", type=float, default=300, help="seconds per run")
    args = parser.parse_args()
    # A TERM (e.g. from the calling script) still runs the cleanup that stops the workers.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("pgqueuer: terminated"))
    best = {}
    for processes in args.processes:
        for batch in args.batch_sizes:
            rate = drain(args.dsn, args.jobs, processes, batch, args.time_limit)
            print(f"pgqueuer: {processes} process(es), batch {batch}: {args.jobs} no-op jobs, "
                  f"{rate:.0f} jobs/s", flush=True)
            best[processes] = max(best.get(processes, 0.0), rate)
    for processes, rate in best.items():
        print(f"pgqueuer-best: P={processes} {rate:.0f}", flush=True)


if __name__ == "__main__":
    main()
