"""Many jobs at once: a local pool of worker processes, or a Ray cluster, with resumable output.

A *job* is a JSON value (usually a small dict: a game to play, a position to analyse) and ``fn``
a module-level function that turns one job into a JSON-serialisable result. :func:`run_jobs`
fans the jobs out and yields the results **in job order**, whatever order they finish in, so a
run with any number of workers gives exactly what a sequential run gives (for jobs whose
result depends only on the job: seed everything from it).

* ``workers``: how many processes (default: every core, ``os.cpu_count()``). ``workers=1``
  runs the jobs in this process: the sequential reference.
* ``out``: a JSON-lines file. Each result is appended (and flushed) as soon as it finishes, as
  ``{"key": ..., "result": ...}``; the key of a job is its canonical JSON (or ``key(job)``).
  Running again with the same file skips every job whose key is already there, so an interrupted
  run (Ctrl-C, ``kill -9``, a crash) resumes where it stopped, losing and doubling nothing. A
  torn last line, from a kill in the middle of a write, is dropped and its job run again.
* A job that fails (its worker process dies, or ``fn`` raises) is reported and retried once;
  a second failure stops the run with :class:`BatchError` (finished results stay in ``out``).
* ``ray``: run on a Ray cluster instead (``pip install -e '.[cluster]'``): ``""`` for
  ``ray.init()``'s default (the cluster this machine belongs to, else a new local instance),
  or an address such as ``"ray://head:10001"``. An already initialised Ray is used as it is.
* ``progress``: a rich progress bar on stderr (done, rate, time left); default when stderr is
  a terminal. Ctrl-C stops the workers and raises :class:`BatchInterrupted`, whose message
  says how to resume.

>>> list(run_jobs(_square, [{"x": 2}, {"x": 3}], workers=1))
[{'x': 2, 'square': 4}, {'x': 3, 'square': 9}]

Self-play data for training, on every core, resumable (``zip`` pairs each job with its result)::

    jobs = [{"seed": 7, "game": i} for i in range(10_000)]
    for job, record in zip(jobs, run_jobs(play_one, jobs, out="selfplay.jsonl")):
        ...
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "BatchError",
    "BatchInterrupted",
    "default_workers",
    "job_key",
    "run_jobs",
]

Job = Any
JobFn = Callable[[Job], Any]
# A chunk: jobs sent to a worker together, as (index, job) pairs; its results come back together.
Chunk = list[tuple[int, Job]]

PREFETCH = 2  # chunks queued per worker, so a worker never waits for the coordinator
MAX_CHUNK = 1000


class BatchError(RuntimeError):
    """A run that cannot go on: a job failed twice, a bad results file, Ray missing."""


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: the message says what was kept and how to resume."""

    def __init__(self, done: int, total: int, out: Path | None, label: str = "jobs") -> None:
        self.done, self.total, self.out = done, total, out
        if out is not None:
            how = f"the finished ones are in {out}: run the same command again to resume"
        else:
            how = "nothing was saved (give an output file, --out FILE, to be able to resume)"
        super().__init__(f"interrupted after {done} of {total} {label}; {how}")

    def __str__(self) -> str:
        return str(self.args[0])


def default_workers() -> int:
    """The number of cores of this machine (at least 1)."""
    return os.cpu_count() or 1


def job_key(job: Job) -> str:
    """The stable identity of a job: its canonical JSON.

    >>> job_key({"seed": 1, "game": 2}) == job_key({"game": 2, "seed": 1})
    True
    """
    return json.dumps(job, sort_keys=True, separators=(",", ":"))


def _square(job: dict) -> dict:
    """A tiny job for examples and tests."""
    return {"x": job["x"], "square": job["x"] ** 2}


def _run_chunk(fn: JobFn, chunk: Chunk) -> tuple[list[str], float]:
    """Run a chunk: its results as JSON text (encoded by the worker, not the coordinator) and
    the seconds it took."""
    start = time.perf_counter()
    lines = [json.dumps(fn(job), separators=(",", ":")) for _, job in chunk]
    return lines, time.perf_counter() - start


class _Queue:
    """The jobs still to send, cut into chunks of about ``target`` seconds of work each.

    The first jobs go one at a time; once their cost is known, cheap jobs travel in chunks, so
    that a millisecond game does not cost a message each way. Near the end the chunks shrink
    again (at least two per worker are left) so that no worker idles while another finishes.
    A chunk that failed or was never started goes back whole, ahead of the rest.
    """

    def __init__(
        self, items: list[tuple[int, Job]], chunksize: int | None, target: float, parallel: int
    ) -> None:
        self.jobs = deque(items)
        self.again: deque[Chunk] = deque()
        self.fixed, self.target, self.parallel = chunksize, target, parallel
        self.count, self.seconds = 0, 0.0

    def __bool__(self) -> bool:
        return bool(self.jobs or self.again)

    def record(self, jobs: int, seconds: float) -> None:
        self.count += jobs
        self.seconds += seconds

    def put_back(self, chunk: Chunk) -> None:
        self.again.append(chunk)

    def take(self) -> Chunk:
        if self.again:
            return self.again.popleft()
        size = self.fixed or self._size()
        return [self.jobs.popleft() for _ in range(min(size, len(self.jobs)))]

    def _size(self) -> int:
        if not self.count:
            return 1
        per_job = max(self.seconds / self.count, 1e-9)
        tail = len(self.jobs) // (2 * self.parallel)
        return max(1, min(int(self.target / per_job), tail, MAX_CHUNK))


# --- the results file --------------------------------------------------------------------------
class ResultStore:
    """The JSON-lines file of finished jobs: read once at the start, appended as jobs finish."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.handle = None

    def load(self) -> dict[str, Any]:
        """The results already in the file, by key; a torn last line is cut off."""
        if not self.path.exists():
            return {}
        try:
            data = self.path.read_bytes()
        except OSError as error:
            raise BatchError(f"{self.path}: cannot read the file ({error.strerror})") from None
        # Every line is written whole with its newline: text after the last newline is a write
        # cut short by a kill, dropped here so that its job runs again.
        end = data.rfind(b"\n") + 1
        found: dict[str, Any] = {}
        for number, line in enumerate(data[:end].split(b"\n")[:-1], 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                found.setdefault(record["key"], record["result"])
            except (ValueError, KeyError, TypeError):
                raise BatchError(
                    f"{self.path} line {number} is not a result line: not a results file of"
                    " this program? (use another --out)"
                ) from None
        if end < len(data):
            with self.path.open("r+b") as handle:
                handle.truncate(end)
        return found

    def open(self) -> None:
        """Open for appending now, so that an unwritable path fails before any work."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.handle = self.path.open("a", encoding="utf-8")
        except OSError as error:
            raise BatchError(f"{self.path}: cannot write the file ({error.strerror})") from None

    def append(self, key: str, result_json: str) -> None:
        assert self.handle is not None, "open() first"
        # One write per line, flushed at once: a kill loses at most the line being written.
        self.handle.write(f'{{"key":{json.dumps(key)},"result":{result_json}}}\n')
        self.handle.flush()

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None


# --- progress ------------------------------------------------------------------------------------
class _Progress:
    """A rich progress bar on stderr, or nothing; messages go above the bar."""

    def __init__(self, enabled: bool, label: str, total: int, done: int, workers: str) -> None:
        self.bar = None
        self.started = time.perf_counter()
        self.new = 0
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
        )
        resumed = f", {done} from the file" if done else ""
        self.task = self.bar.add_task(
            f"{label} ({workers}{resumed})", total=total, completed=done, rate=""
        )
        self.bar.start()

    def advance(self, count: int) -> None:
        self.new += count
        if self.bar is not None:
            per_second = self.new / max(1e-9, time.perf_counter() - self.started)
            rate = f"{per_second:.1f}/s" if per_second >= 1 else f"{3600 * per_second:.0f}/h"
            self.bar.update(self.task, advance=count, rate=rate)

    def say(self, message: str) -> None:
        if self.bar is not None:
            self.bar.console.print(message, markup=False, highlight=False)
        else:
            print(message, file=sys.stderr, flush=True)

    def stop(self, erase: bool = False) -> None:
        if self.bar is not None:
            if erase:  # after Ctrl-C: the terminal's "^C" would leave a second copy of the bar
                self.bar.live.transient = True
            self.bar.stop()


# --- the run -------------------------------------------------------------------------------------
def run_jobs(
    fn: JobFn,
    jobs: Iterable[Job],
    *,
    workers: int | None = None,
    out: str | Path | None = None,
    ray: str | None = None,
    key: Callable[[Job], str] = job_key,
    chunksize: int | None = None,
    progress: bool | None = None,
    label: str = "jobs",
    report: Callable[[str], None] | None = None,
) -> Iterator[Any]:
    """Run ``fn`` on every job in parallel; yield the results in job order (see the module).

    Results come back as their JSON would read (tuples become lists), whether computed now or
    read from ``out``, so a resumed run yields exactly what an uninterrupted one does.
    Jobs travel to the workers in chunks sized from their measured cost (about 50 ms of work
    each, 200 ms on Ray), or exactly ``chunksize`` at a time if given; the results do not
    depend on it. ``report`` receives the one-line notes about failed jobs (default: stderr).
    """
    jobs = list(jobs)
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise BatchError(f"workers must be at least 1, not {workers}")
    if chunksize is not None and chunksize < 1:
        raise BatchError(f"chunksize must be at least 1, not {chunksize}")
    keys = [key(job) for job in jobs]
    index_of: dict[str, int] = {}
    for i, k in enumerate(keys):
        if index_of.setdefault(k, i) != i:
            raise BatchError(f"jobs {index_of[k]} and {i} have the same key {k}")
    store = ResultStore(Path(out)) if out is not None else None
    ready: dict[int, Any] = {}
    if store is not None:
        for k, result in store.load().items():
            if k in index_of:
                ready[index_of[k]] = result
        store.open()
    todo = [(i, jobs[i]) for i in range(len(jobs)) if i not in ready]
    if ray is not None:
        where = "Ray cluster"
    elif workers == 1 or len(todo) <= 1:
        where = "1 process"
    else:
        where = f"{min(workers, len(todo))} workers"
    done = len(ready)
    bar = _Progress(
        sys.stderr.isatty() if progress is None else progress, label, len(jobs), done, where
    )
    say = report or bar.say
    next_index = 0
    finished: Iterator[tuple[Chunk, list[str]]] | Iterator[Any] | None = None
    try:
        while next_index in ready:
            yield ready.pop(next_index)
            next_index += 1
        if not todo:  # all read back from the file: no workers, no cluster
            finished = iter(())
        elif ray is not None:
            finished = _ray_run(fn, todo, chunksize, ray, say, keys)
        elif where == "1 process":
            finished = _in_process(fn, todo, say, keys)
        else:
            finished = _pool_run(fn, todo, chunksize, workers, say, keys)
        for chunk, lines in finished:
            for (i, _), line in zip(chunk, lines, strict=True):
                if store is not None:
                    store.append(keys[i], line)
                ready[i] = json.loads(line)
            done += len(chunk)
            bar.advance(len(chunk))
            while next_index in ready:
                yield ready.pop(next_index)
                next_index += 1
    except KeyboardInterrupt:
        bar.stop(erase=True)
        raise BatchInterrupted(done, len(jobs), store and store.path, label) from None
    finally:
        if isinstance(finished, Generator):
            finished.close()  # stops the workers now, not when the generator is collected
        bar.stop()
        if store is not None:
            store.close()


def _describe(keys: Sequence[str], chunk: Chunk) -> str:
    if len(chunk) == 1:
        return f"job {keys[chunk[0][0]]}"
    return f"jobs {keys[chunk[0][0]]} to {keys[chunk[-1][0]]}"


def _in_process(
    fn: JobFn, todo: list[tuple[int, Job]], say: Callable[[str], None], keys: Sequence[str]
) -> Iterator[tuple[Chunk, list[str]]]:
    failures = _Failures(say, keys)
    for item in todo:
        chunk = [item]
        while True:
            try:
                lines, _ = _run_chunk(fn, chunk)
                break
            except Exception as error:
                why = f"{type(error).__name__}: {error}"
                failures.retry(chunk, why, error)
        yield chunk, lines


class _Failures:
    """Each chunk may fail once; the second failure ends the run."""

    def __init__(self, say: Callable[[str], None], keys: Sequence[str]) -> None:
        self.say, self.keys, self.failed = say, keys, set()

    def retry(self, chunk: Chunk, why: str, error: BaseException | None = None) -> None:
        what = _describe(self.keys, chunk)
        first = chunk[0][0]
        if first in self.failed:
            raise BatchError(f"{what} failed twice, giving up: {why}") from error
        self.failed.add(first)
        self.say(f"{what} failed ({why}); retrying it once")


# --- the local pool ------------------------------------------------------------------------------
def _worker_main(conn, fn: JobFn) -> None:
    """A worker process: run chunks until told to stop (None) or the pipe closes."""
    import queue

    # Ctrl-C reaches the whole process group: the coordinator alone handles it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (already ignored since the start)
    # A thread keeps reading the chunks sent ahead, so that the coordinator never blocks on a
    # full pipe while this process blocks sending it a large result: no deadlock either way.
    inbox: queue.SimpleQueue = queue.SimpleQueue()

    def read() -> None:
        while True:
            try:
                chunk = conn.recv()
            except (EOFError, OSError):
                chunk = None
            inbox.put(chunk)
            if chunk is None:
                return

    threading.Thread(target=read, daemon=True).start()
    conn.send(("ready", None, 0.0))
    while (chunk := inbox.get()) is not None:
        try:
            message = ("ok", *_run_chunk(fn, chunk))
        except Exception:
            message = ("error", traceback.format_exc(limit=-3).strip().splitlines()[-1], 0.0)
        try:
            conn.send(message)
        except OSError:  # the coordinator is gone (killed): nobody to report to
            return


class _Worker:
    def __init__(self, context, fn: JobFn) -> None:
        parent, child = context.Pipe()
        self.conn = parent
        self.process = context.Process(target=_worker_main, args=(child, fn), daemon=True)
        # Started with Ctrl-C ignored, which the new interpreter keeps: a Ctrl-C while it is
        # still importing would otherwise print its traceback over the progress bar.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            self.process.start()
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
        child.close()
        self.queued: deque[Chunk] = deque()
        self.ready = False

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def _check_picklable(fn: JobFn) -> None:
    try:
        pickle.dumps(fn)
    except Exception:
        raise BatchError(
            f"{getattr(fn, '__qualname__', fn)!s} cannot be sent to worker processes:"
            " use a module-level function"
        ) from None


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with a stderr it can keep open.

    The tracker is started with the first worker and handed ``sys.stderr.fileno()``; under a
    full-screen app (Textual) ``sys.stderr`` is a capture whose file number is -1, and starting
    any worker then fails with "bad value(s) in fds_to_keep". With no usable stderr the tracker
    is started here, once per process, with the null device standing in for it (the tracker
    still writes to the process's own file descriptor 2, as the workers do).
    """
    from multiprocessing import resource_tracker

    try:
        usable = sys.stderr is not None and sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable:
        return
    with open(os.devnull, "w") as sink:
        saved, sys.stderr = sys.stderr, sink
        try:
            resource_tracker.ensure_running()
        finally:
            sys.stderr = saved


def _pool_run(
    fn: JobFn,
    todo: list[tuple[int, Job]],
    chunksize: int | None,
    workers: int,
    say: Callable[[str], None],
    keys: Sequence[str],
) -> Iterator[tuple[Chunk, list[str]]]:
    """Jobs on ``workers`` processes; yields each chunk with its results as it finishes."""
    import multiprocessing
    import selectors

    _check_picklable(fn)
    # spawn, not fork: a fresh interpreter per worker, like a Ray worker, and safe with the
    # progress bar's thread; the imports cost about a quarter of a second once per worker.
    context = multiprocessing.get_context("spawn")
    count = min(workers, len(todo))
    queue = _Queue(todo, chunksize, target=0.05, parallel=count)
    failures = _Failures(say, keys)
    events = selectors.DefaultSelector()  # kept for the whole run: cheaper than wait() each time

    def start() -> _Worker:
        worker = _Worker(context, fn)
        events.register(worker.conn, selectors.EVENT_READ, worker)
        events.register(worker.process.sentinel, selectors.EVENT_READ, worker)
        return worker

    def feed(worker: _Worker) -> None:
        while queue and len(worker.queued) < PREFETCH:
            chunk = queue.take()
            worker.queued.append(chunk)
            worker.conn.send(chunk)

    def replace(worker: _Worker) -> _Worker:
        """A worker died: its running chunk failed, the others go back untouched."""
        worker.process.join(timeout=5)
        code = worker.process.exitcode
        if not worker.ready and (code or 0) > 0:  # an error at start-up, not a signal
            raise BatchError(
                f"a worker process could not start (exit code {code}): a script that runs"
                " jobs in parallel must guard its main code with `if __name__ == '__main__':`"
                " (see the error above)"
            )
        if worker.queued:
            running = worker.queued.popleft()
            failures.retry(running, f"its worker process died, exit code {code}")
            for chunk in (running, *worker.queued):
                queue.put_back(chunk)
            worker.queued.clear()
        events.unregister(worker.conn)
        events.unregister(worker.process.sentinel)
        worker.stop()
        return start()

    start_resource_tracker()
    pool = [start() for _ in range(count)]
    try:
        for worker in pool:
            feed(worker)
        while any(w.queued for w in pool):
            woken = {id(key.data): key.data for key, _ in events.select()}
            for worker in woken.values():
                dead = False
                while True:
                    try:
                        if not worker.conn.poll():
                            break
                        kind, payload, seconds = worker.conn.recv()
                    except (EOFError, OSError):
                        dead = True
                        break
                    if kind == "ready":
                        worker.ready = True
                        continue
                    chunk = worker.queued.popleft()
                    if kind == "ok":
                        queue.record(len(chunk), seconds)
                        yield chunk, payload
                    else:
                        failures.retry(chunk, payload)
                        queue.put_back(chunk)
                if dead or not worker.process.is_alive():
                    new = replace(worker)
                    pool[pool.index(worker)] = new
            # Feed every worker: a chunk put back may be waiting while another worker idles.
            for worker in pool:
                feed(worker)
    finally:
        for worker in pool:
            worker.stop()
        events.close()


# --- Ray -----------------------------------------------------------------------------------------
def _ray_run(
    fn: JobFn,
    todo: list[tuple[int, Job]],
    chunksize: int | None,
    address: str,
    say: Callable[[str], None],
    keys: Sequence[str],
) -> Iterator[tuple[Chunk, list[str]]]:
    """Chunks as Ray tasks, at most two per CPU of the cluster in flight."""
    try:
        import ray
    except ImportError:
        raise BatchError(
            "--ray needs Ray, an optional extra: pip install -e '.[cluster]'"
        ) from None
    import logging

    started = False
    if not ray.is_initialized():
        try:
            ray.init(
                address=address or None,
                include_dashboard=False,
                logging_level=logging.WARNING,
                log_to_driver=False,
            )
        except Exception as error:  # noqa: BLE001 - Ray raises many kinds; one line for all
            raise BatchError(
                f"cannot start or reach Ray at {address or 'default'}: {_first_line(error)}"
            ) from None
        started = True
    try:
        yield from _ray_chunks(ray, fn, todo, chunksize, say, keys)
    except BatchError:
        raise
    except Exception as error:  # noqa: BLE001 - the cluster itself failed (a task's failure
        # is retried inside): one line, and how to resume
        raise BatchError(
            f"Ray stopped answering ({_first_line(error)}); the games already written to --out"
            " are kept, and the same command resumes"
        ) from None
    finally:
        if started:
            with contextlib.suppress(Exception):
                ray.shutdown()


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return (lines[0] if lines else type(error).__name__)[:200]


def _ray_chunks(
    ray: Any,
    fn: JobFn,
    todo: list[tuple[int, Job]],
    chunksize: int | None,
    say: Callable[[str], None],
    keys: Sequence[str],
) -> Iterator[tuple[Chunk, list[str]]]:
    # No automatic retry: a failed task comes back here, is reported and is resubmitted once.
    task = ray.remote(max_retries=0)(_run_chunk)
    fn_ref = ray.put(fn)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    # A Ray task costs about a millisecond of the driver's time: chunks of 0.2 s of work.
    queue = _Queue(todo, chunksize, target=0.2, parallel=cpus)
    failures = _Failures(say, keys)
    flight: dict[Any, Chunk] = {}
    try:
        while queue or flight:
            while queue and len(flight) < 2 * cpus:
                chunk = queue.take()
                flight[task.remote(fn_ref, chunk)] = chunk
            finished, rest = ray.wait(list(flight), num_returns=1)
            if rest:  # everything else already done, in one call rather than one call each
                finished += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
            for ref in finished:
                chunk = flight.pop(ref)
                try:
                    lines, seconds = ray.get(ref)
                except ray.exceptions.RayError as error:
                    failures.retry(chunk, str(error).strip().splitlines()[-1][:200])
                    queue.put_back(chunk)
                    continue
                queue.record(len(chunk), seconds)
                yield chunk, lines
    finally:
        for ref in flight:
            with contextlib.suppress(Exception):  # the cluster may be gone
                ray.cancel(ref, force=True)
