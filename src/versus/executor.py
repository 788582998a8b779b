"""Running processes: the real executor, with timeouts, bounded memory and no process left behind.
Tests use fake executors with the same interface.

- Output goes to temporary files, not pipes: a child that keeps a pipe open after its parent exited
  cannot stall the harness, and a program that prints a gigabyte costs disk, not memory. What is kept
  in memory is every `@versus` line (up to PROTOCOL_BYTES) and at most LOG_BYTES of the rest.
- Each process starts in its own session, so a timeout kills it and everything in its session.
- The harness is a child subreaper (Linux): a grandchild that detaches (setsid, double fork) is
  re-parented to the harness instead of init, so it is found, stopped, and reported.
- While a process is measured the harness sleeps in the kernel on a pidfd, waking when it exits (and
  four times a second, for a signal another thread received), instead of every few milliseconds as
  `Popen.wait(timeout)` does: the next process starts as soon as this one ends.
- Looking for leftovers costs a scan of /proc only when one can exist: as a subreaper, every process
  a finished run left behind is a descendant of the harness's own children, which the kernel lists.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

from . import interrupts
from .contention import Contention, read_counters

LOG_TAIL_LINES = 40
LOG_BYTES = 4 << 20  # non-protocol output kept in memory per process
PROTOCOL_BYTES = 64 << 20  # `@versus` lines kept per process; beyond this the run fails
LINE_BYTES = 1 << 20  # a longer line is cut (a protocol line that long is malformed)
PREFIX = b"@versus "
WAKE_SECONDS = 0.25  # the longest the harness sleeps in one poll while its process runs
_PR_SET_PDEATHSIG, _PR_SET_CHILD_SUBREAPER = 1, 36


@dataclass
class Completed:
    exit_code: int | None  # None when killed on timeout
    stdout: str  # every protocol line, and the log lines that fit in LOG_BYTES, in order
    stderr: str  # the tail of stderr
    wall_ns: int
    timed_out: bool = False
    leftovers: list[str] = field(default_factory=list)  # processes it left behind, stopped by the harness
    overflow: str = ""  # why output was dropped, when it was
    contention: Contention | None = None  # what else the machine did meanwhile (contention.py)


class Spawned(Protocol):
    """A background process (a server) started through an executor."""

    pid: int

    def poll(self) -> int | None: ...

    def stop(self) -> list[str]:
        """Stop it and everything it started; the processes that had to be killed beyond it."""

    def output(self) -> str:
        """The tail of what it printed so far."""


class Executor(Protocol):
    def execute(self, argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None) -> Completed:
        ...

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path | None = None) -> Spawned:
        ...


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return None


_LIBC = _libc()  # loaded once here: loading it in each forked child cost milliseconds per process run
_subreaper_pid = 0  # the process that became a child subreaper (a fork of it is not one)


def _die_with_parent() -> None:
    # A harness killed with -9 must not leave its benchmark running.
    if _LIBC is not None:
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def become_subreaper() -> bool:
    global _subreaper_pid
    if _LIBC is None or _LIBC.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        return False
    _subreaper_pid = os.getpid()
    return True


@dataclass(frozen=True)
class _Proc:
    pid: int
    ppid: int
    pgid: int
    sid: int
    state: str
    name: str


def _read(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 65536)
    except OSError:
        return None
    finally:
        os.close(fd)


def _processes() -> list[_Proc]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        raw = _read(f"/proc/{name}/stat")
        if not raw:
            continue
        text = raw.decode("utf-8", errors="replace")
        comm = text[text.index("(") + 1: text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        found.append(_Proc(int(name), int(fields[1]), int(fields[2]), int(fields[3]), fields[0], comm))
    return found


def _own_children() -> set[int] | None:
    """The harness's child processes as the kernel lists them per thread, zombies included; None where
    it does not (a kernel without CONFIG_PROC_CHILDREN)."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    found: set[int] = set()
    for task in tasks:
        raw = _read(f"/proc/self/task/{task}/children")
        if raw is None:
            return None
        found.update(int(pid) for pid in raw.split())
    return found


def children() -> set[int]:
    """The harness's own child processes now."""
    listed = _own_children()
    if listed is not None:
        return listed
    me = os.getpid()
    return {p.pid for p in _processes() if p.ppid == me}


def _none_left(root: int, keep: set[int]) -> bool:
    """True when the finished process `root` surely left nothing behind, without a scan of /proc. As a
    subreaper the harness inherits every orphan of `root`'s tree, so a leftover is a descendant of a
    child of the harness that is not among `keep`; and `root`'s process group is empty."""
    if _subreaper_pid != os.getpid():
        return False
    try:
        os.killpg(root, 0)
        return False  # a process is still in root's group
    except ProcessLookupError:
        pass
    except OSError:
        return False
    listed = _own_children()
    return listed is not None and not (listed - keep)


def leftovers(root: int, keep: set[int]) -> list[_Proc]:
    """Live processes that belong to the finished process `root`: in its session or process group, or
    re-parented to the harness (detached) and not among `keep` (what the harness ran before `root`
    started, and the servers it runs on purpose), with their descendants."""
    me = os.getpid()
    table = _processes()
    children: dict[int, list[_Proc]] = {}
    for proc in table:
        children.setdefault(proc.ppid, []).append(proc)
    kept = set(keep)
    for pid in keep:  # what the harness still runs on purpose, and its descendants, stay
        stack = list(children.get(pid, []))
        while stack:
            proc = stack.pop()
            kept.add(proc.pid)
            stack += children.get(proc.pid, [])
    picked = {p.pid: p for p in table
              if p.pid != me and p.pid not in kept and p.state != "Z"
              and (p.sid == root or p.pgid == root or p.ppid == me)}
    stack = list(picked.values())
    while stack:
        for child in children.get(stack.pop().pid, []):
            if child.pid not in picked and child.pid not in kept and child.state != "Z":
                picked[child.pid] = child
                stack.append(child)
    return sorted(picked.values(), key=lambda p: p.pid)


def _reap_zombies() -> None:
    """Detached children that exited on their own are now ours to wait for."""
    me = os.getpid()
    for proc in _processes():
        if proc.ppid == me and proc.state == "Z":
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(proc.pid, os.WNOHANG)


def stop_leftovers(root: int, keep: set[int]) -> list[str]:
    """Kill what `root` left behind; describe each as `name (pid N)`."""
    if _none_left(root, keep):
        return []
    found = leftovers(root, keep)
    for proc in found:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(proc.pid, signal.SIGKILL)
    for proc in found:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(proc.pid, 0)  # ours when it was re-parented to the harness
    _reap_zombies()
    return [f"{p.name} (pid {p.pid})" for p in found]


def _reap(process: subprocess.Popen[bytes]) -> None:
    """Wait for a killed process after Ctrl-C without `Popen.wait`: CPython's wait with a timeout takes
    its internal lock before the `try` that releases it, so a signal landing between the two leaves the
    lock held, and a second `wait()` then blocks forever (a Ctrl-C test hung so, one harness thread in
    a futex wait beside its child's zombie)."""
    if process.returncode is None:
        try:
            _, status = os.waitpid(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
        except ChildProcessError:  # the interrupted wait had reaped it
            process.returncode = -signal.SIGKILL


def _wait(process: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait for `process` to exit, at most `timeout` seconds; True when it did (and is reaped). The
    harness sleeps in the kernel on a pidfd until the exit or the deadline, in slices of WAKE_SECONDS;
    where Linux has no pidfd, `Popen.wait` polls instead."""
    try:
        pidfd = os.pidfd_open(process.pid)
    except (AttributeError, OSError):
        try:
            process.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            return False
    try:
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        deadline = time.monotonic() + timeout
        # In slices: a signal (Ctrl-C, SIGTERM) that the kernel hands to another of the harness's threads
        # does not interrupt this poll, and Python runs its handler in this thread only when it next runs
        # Python code; a quarter of a second bounds that, at four wake-ups a second.
        while not poller.poll(max(0.0, min(WAKE_SECONDS, deadline - time.monotonic())) * 1000):
            interrupts.check()
            if time.monotonic() >= deadline:
                return False
    finally:
        os.close(pidfd)
    _reap(process)
    return True


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def read_output(handle: IO[bytes]) -> tuple[str, str]:
    """(text, overflow): protocol lines and as much log as fits, reading a spooled file line by line;
    a line longer than LINE_BYTES is kept cut, its rest skipped without ever being held whole."""
    handle.seek(0)
    kept: list[str] = []
    log_bytes = protocol_bytes = dropped = 0
    tail: deque[str] = deque(maxlen=LOG_TAIL_LINES)
    overflow = ""
    while True:
        raw = handle.readline(LINE_BYTES)
        if not raw:
            break
        length, cut = len(raw), False
        while not raw.endswith(b"\n") and length % LINE_BYTES == 0:  # the line goes on: skip the rest
            more = handle.readline(LINE_BYTES)
            if not more:
                break
            length, cut = length + len(more), True
            if more.endswith(b"\n"):
                break
        line = raw.rstrip(b"\r\n").decode("utf-8", errors="replace")
        if raw.startswith(PREFIX):
            protocol_bytes += length
            if protocol_bytes > PROTOCOL_BYTES:
                overflow = f"more than {PROTOCOL_BYTES >> 20} MB of protocol lines"
                break
            if cut:
                line = line[: len(PREFIX) + 40] + " … (a protocol line longer than 1 MB)"
            kept.append(line)
        elif not dropped and log_bytes + length <= LOG_BYTES:
            log_bytes += length
            kept.append(line + (f" … ({length - len(raw)} more bytes of this line not kept)" if cut else ""))
        else:  # from the first line that does not fit on, only the last lines are kept, in order
            dropped += 1
            tail.append(line[:LINE_BYTES] + (" …" if cut else ""))
    if dropped:
        kept.append(f"… {dropped} log lines not kept in memory; the last {len(tail)}:")
        kept += list(tail)
    return "\n".join(kept), overflow


def _tail(handle: IO[bytes], lines: int = LOG_TAIL_LINES) -> str:
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    handle.seek(max(0, size - 256 * 1024))
    text = handle.read().decode("utf-8", errors="replace")
    return "\n".join(text.split("\n")[-lines - 1:]).strip("\n")


class _Background:
    def __init__(self, process: subprocess.Popen[bytes], log: IO[bytes], before: set[int]) -> None:
        self.process, self.log, self.pid = process, log, process.pid
        self.before = before  # the harness's children when it started: not this server's leftovers

    def poll(self) -> int | None:
        return self.process.poll()

    def stop(self) -> list[str]:
        """SIGTERM to the session, then SIGKILL; then whatever it left elsewhere."""
        for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 5.0)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, sig)
            try:
                self.process.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        return stop_leftovers(self.pid, self.before)

    def output(self) -> str:
        return _tail(self.log)


class SubprocessExecutor:
    """Each process in its own session, its output in files; a timeout or Ctrl-C kills it and all it started."""

    def __init__(self) -> None:
        self.subreaper = become_subreaper()
        self._background: list[_Background] = []

    def execute(self, argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None) -> Completed:
        start = time.perf_counter_ns()
        before = children()  # a library user's own children are not this process's leftovers
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            counters = read_counters()
            try:
                process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env, cwd=cwd,
                                           start_new_session=True, preexec_fn=_die_with_parent)
            except (OSError, ValueError) as error:
                return Completed(None, "", f"cannot start {argv[0] if argv else '(nothing)'}: {error}", 0)
            try:
                interrupts.check()  # a stop whose handler ran inside Popen's at-fork callbacks was dropped there
                timed_out = not _wait(process, timeout)
                if timed_out:
                    _kill_group(process.pid)
                    _reap(process)
            except BaseException:
                _kill_group(process.pid)
                _reap(process)
                stop_leftovers(process.pid, self._live() | before)
                raise
            wall = time.perf_counter_ns() - start
            contention = read_counters().since(counters)
            left = stop_leftovers(process.pid, self._live() | before)
            stdout, overflow = read_output(out)
            return Completed(None if timed_out else process.returncode, stdout, _tail(err), wall, timed_out,
                             [] if timed_out else left, overflow, contention)

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path | None = None) -> Spawned:
        before = children()
        log = tempfile.TemporaryFile()  # noqa: SIM115 (kept open while the server runs; closed with it)
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                                   cwd=cwd, start_new_session=True, preexec_fn=_die_with_parent)
        background = _Background(process, log, before)
        self._background.append(background)
        if interrupts.requested():  # as in execute: the stop may have been dropped inside Popen
            background.stop()
            interrupts.check()
        return background

    def _live(self) -> set[int]:
        self._background = [b for b in self._background if b.poll() is None]
        return {b.pid for b in self._background}


def pinned_cpus(count: int) -> list[int] | None:
    """The CPUs of a process run pinned to `count` of them: the last `count` of those this process may
    use (os.sched_getaffinity), the same every run, and within its own where the harness itself was
    pinned (a fleet worker on one core); None where it may use fewer."""
    allowed = sorted(os.sched_getaffinity(0))
    return allowed[-count:] if 0 < count <= len(allowed) else None


class Pinned:
    """An executor whose processes (and servers) run on `[method] cpus` CPUs, through util-linux's
    taskset: threads that hand work to each other run where the method says, not where the scheduler
    happened to put them that minute (docs/method.md, 'Where threads run')."""

    def __init__(self, executor: Executor, count: int) -> None:
        self.executor, self.count = executor, count

    def _argv(self, argv: list[str]) -> list[str] | str:
        cpus = pinned_cpus(self.count)
        if cpus is None:
            return (f"the method asks for cpus = {self.count} and this host lets versus use "
                    f"{len(os.sched_getaffinity(0))}: lower [method] cpus (or --cpus), or run it on a host with more")
        taskset = shutil.which("taskset")
        if taskset is None:
            return "[method] cpus needs taskset, which is not installed: apt-get install util-linux"
        return [taskset, "--cpu-list", ",".join(str(c) for c in cpus), *argv]

    def execute(self, argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None) -> Completed:
        pinned = self._argv(argv)
        if isinstance(pinned, str):  # a failed process run that says why; the other arms go on
            return Completed(2, "", f"versus: {pinned}", 0)
        return self.executor.execute(pinned, env, timeout, cwd)

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path | None = None) -> Spawned:
        pinned = self._argv(argv)
        if isinstance(pinned, str):
            raise OSError(pinned)  # the server driver reports it as a server that could not start
        return self.executor.spawn(pinned, env, cwd)


def log_tail(completed: Completed, lines: int = LOG_TAIL_LINES) -> str:
    text = [line for line in completed.stdout.split("\n") if not line.startswith("@versus ")]
    text += completed.stderr.split("\n")
    return "\n".join(line for line in text[-lines:]).strip("\n")
