"""APScheduler 3.x with its SQLAlchemy SQLite job store: the peer notify is measured against.

Run by the Benchmarks harnesses (see BENCHMARKS.md) with the interpreter of the venv that
`.ci/bench` makes under Benchmarks/.venv (pip install "apscheduler<4" sqlalchemy):

  apscheduler_peer.py latency DB START_USEC SPACING_USEC COUNT [BURST]
      Stores COUNT * BURST one-shot date jobs in the SQLite file DB (BURST defaults to 1),
      job j due at START + (j // BURST) * SPACING (CLOCK_REALTIME microseconds): COUNT
      instants with BURST jobs each. Then runs the scheduler. Each job writes "j\\n" on
      stdout (one write(2), like notify's stdout sink), so the harness stamps its arrival on
      the pipe exactly as it does for the daemon and the sd-event floor. Exits after the last.
      START_USEC "auto": the script picks START once it is loaded (1 s plus 3 ms per job
      ahead, doubled and tried again if storing the jobs overran it) and writes
      "start START_USEC\\n" once the jobs are stored, before the first is due.
  apscheduler_peer.py idle DB COUNT
      Stores COUNT jobs an hour away, starts the scheduler, writes "ready\\n", then idles
      until SIGTERM: the harness counts its context switches and reads its RSS.

Exit 75 when scheduling took so long that the first job would already be late.
"""

import os
import signal
import sys
import threading
import time
from datetime import datetime, timedelta, timezone

from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.background import BackgroundScheduler

done = threading.Event()
remaining = [0]
lock = threading.Lock()


def fire(index):
    """The job: one write of its index, as a sink would hand a notification over."""
    os.write(1, b"%d\n" % index)
    with lock:
        remaining[0] -= 1
        if remaining[0] == 0:
            done.set()


def idle_job(index):
    """A job that should never run during the idle window (it is an hour away)."""
    os.write(1, b"fired %d\n" % index)


def make_scheduler(db):
    # The job store every APScheduler user with persistence picks: SQLAlchemy on SQLite.
    # misfire_grace_time=None: a late job still runs (notify delivers late ones too).
    return BackgroundScheduler(
        jobstores={"default": SQLAlchemyJobStore(url="sqlite:///" + db)},
        job_defaults={"misfire_grace_time": None, "coalesce": False},
        timezone=timezone.utc,
    )


def latency(db, start_usec, spacing_usec, count, burst=1):
    scheduler = make_scheduler(db)
    scheduler.start(paused=True)
    auto = start_usec is None
    # Storing a job takes about a millisecond; a busy machine may need more: with "auto",
    # start again with twice the margin (the jobs removed) rather than measure late starts.
    total = count * burst
    margin = 1 + total * 0.003
    stored = False
    for _ in range(4):
        if auto:
            start_usec = int((time.time() + margin) * 1e6)
        for i in range(total):
            due = datetime.fromtimestamp((start_usec + (i // burst) * spacing_usec) / 1e6, tz=timezone.utc)
            scheduler.add_job(fire, "date", run_date=due, args=[i], id="b%d" % i)
        if time.time() <= start_usec / 1e6 - 0.2:
            stored = True
            break
        scheduler.remove_all_jobs()
        if not auto:
            break
        margin *= 2
    if not stored:
        sys.stderr.write("apscheduler_peer: scheduling %d jobs took too long\n" % total)
        sys.exit(75)
    if auto:
        os.write(1, b"start %d\n" % start_usec)
    remaining[0] = total
    scheduler.resume()
    last_due = (start_usec + (count - 1) * spacing_usec) / 1e6
    done.wait(max(1.0, last_due - time.time() + 10))
    scheduler.shutdown(wait=False)
    os._exit(0 if done.is_set() else 1)


def idle(db, count):
    scheduler = make_scheduler(db)
    scheduler.start(paused=True)
    later = datetime.now(timezone.utc) + timedelta(hours=1)
    for i in range(count):
        scheduler.add_job(idle_job, "date", run_date=later + timedelta(seconds=i), args=[i], id="i%d" % i)
    scheduler.resume()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    os.write(1, b"ready\n")
    # The main thread sleeps in sigwait-like fashion; the scheduler thread does its own waiting.
    while not stop.is_set():
        signal.pause()
    scheduler.shutdown(wait=False)


def main(argv):
    if len(argv) in (6, 7) and argv[1] == "latency":
        start = None if argv[3] == "auto" else int(argv[3])
        burst = int(argv[6]) if len(argv) == 7 else 1
        latency(argv[2], start, int(argv[4]), int(argv[5]), max(1, burst))
    elif len(argv) == 4 and argv[1] == "idle":
        idle(argv[2], int(argv[3]))
    else:
        sys.stderr.write(__doc__)
        sys.exit(64)


if __name__ == "__main__":
    main(sys.argv)
