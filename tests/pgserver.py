"""A real PostgreSQL server for the tests: a fresh cluster in a temporary directory, run by an
unprivileged user on a free port, stopped (and its directory removed) at the end, even on failure.

PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user that Debian's
package creates (`runuser`), otherwise to whoever runs the tests. Connections over TCP need a
password (scram-sha-256), so that a wrong one can be tested; the local socket trusts its user.

As root, `namespaces(n)` also gives n network namespaces, each joined to this one by a veth pair, so
that workers reach PostgreSQL over a network of their own, as on other hosts would.

Several test processes of one machine (xdist's workers, or two checkouts' `make test`) each start a
server of their own: the directory is a fresh temporary one, the port is the kernel's choice (tried
again if another process took it first), the namespaces and veths are named by this process's pid,
and their addresses are chosen under a lock among those no interface uses. A watchdog process stops
the server and removes the namespaces if this process dies without closing them (a killed worker).
"""
from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

USER, PASSWORD, DATABASE = "versus", "versus-test", "lab"


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Namespace:
    name: str
    host_address: str  # this side of the veth: where PostgreSQL listens for the namespace
    address: str  # the namespace's side

    def argv(self, command: list[str]) -> list[str]:
        return ["ip", "netns", "exec", self.name, *command]


class PgServer:
    def __init__(self) -> None:
        bindir = _bindir()
        if bindir is None:
            raise RuntimeError("PostgreSQL's server programs are not installed: make installs Debian's postgresql")
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="versus-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.listen = ["127.0.0.1"]
        self.namespaces: list[Namespace] = []
        self.owner = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        self.namespace_note = ""
        self._watchdog: subprocess.Popen[bytes] | None = None
        try:  # a failed initdb leaves no temporary directory behind
            if os.geteuid() == 0:
                user = pwd.getpwnam(self.owner)
                os.chown(self.root, user.pw_uid, user.pw_gid)
            self._run(["initdb", "-D", str(self.data), "-U", USER, "--auth-local=trust", "--auth-host=scram-sha-256",
                       "--pwfile", str(self._pwfile()), "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
            with open(self.data / "pg_hba.conf", "a") as hba:
                hba.write("host all all 10.0.0.0/8 scram-sha-256\n")
        except BaseException:
            shutil.rmtree(self.root, ignore_errors=True)
            raise

    def _pwfile(self) -> Path:
        path = self.root / "password"
        path.write_text(PASSWORD + "\n")
        if os.geteuid() == 0:
            user = pwd.getpwnam(self.owner)
            os.chown(path, user.pw_uid, user.pw_gid)
        return path

    def _run(self, argv: list[str], check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", self.owner, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=check, timeout=120, cwd=self.root)

    def start(self) -> None:
        for attempt in range(5):
            options = (f"-p {self.port} -k {self.root} -c listen_addresses='{','.join(self.listen)}'"
                       " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
            done = self._run(["pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60",
                              "start"], check=False)
            if done.returncode == 0:
                self._watch()
                return
            log = self.log.read_text() if self.log.exists() else ""
            # free_port's port is free when asked, not necessarily when the server binds it: another test
            # process of this machine may have taken it in between
            if "Address already in use" not in log or attempt == 4:
                raise RuntimeError(f"PostgreSQL did not start: {done.stderr}{log}")
            self.log.unlink()
            self.port = free_port()

    def stop(self, mode: str = "fast") -> None:
        self._run(["pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop"], check=False)

    def restart(self, pause: float = 0.0) -> None:
        """Down and up again, as an administrator restarting it would: every connection is cut."""
        self.stop("fast")
        time.sleep(pause)
        self.start()

    def create_database(self, name: str) -> str:
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def psql(self, sql: str, database: str = "postgres") -> str:
        done = self._run(["psql", "-h", str(self.root), "-p", str(self.port), "-U", USER, "-d", database, "-At", "-c", sql])
        return done.stdout

    def url(self, database: str = DATABASE, password: str = PASSWORD, host: str = "127.0.0.1") -> str:
        return f"postgresql://{USER}:{password}@{host}:{self.port}/{database}"

    # network namespaces ---------------------------------------------------------------------------
    def make_namespaces(self, count: int) -> list[Namespace]:
        """`count` namespaces reaching this one over veth pairs (root only); [] where that fails, with
        the reason in `self.namespace_note`. Call before start(): PostgreSQL listens on their addresses."""
        if os.geteuid() != 0 or shutil.which("ip") is None:
            self.namespace_note = "network namespaces need root and iproute2; workers share the loopback"
            return []
        try:
            with _lock(Path(tempfile.gettempdir()) / "versus-test-netns.lock"):
                self._add_namespaces(count, _free_subnet())
        except (subprocess.SubprocessError, OSError) as error:
            detail = getattr(error, "stderr", "") or str(error)
            self.namespace_note = f"network namespaces could not be made here ({detail.strip()}); workers share the loopback"
            self.remove_namespaces()
            self.listen = ["127.0.0.1"]
            return []
        return self.namespaces

    def _add_namespaces(self, count: int, subnet: str) -> None:
        """`count` namespaces named by this process's pid (unique among live processes, and within a network
        interface's 15 characters), each with a /30 of `subnet`."""
        tag = os.getpid()
        for index in range(count):
            name, outside, inside = f"vs{tag}n{index}", f"vs{tag}a{index}", f"vs{tag}b{index}"
            # one a killed test run left behind under this name (pids come round again) would make the
            # add fail, and the workers share the loopback instead
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)
            subprocess.run(["ip", "link", "del", outside], capture_output=True, timeout=30)
            host, peer = f"{subnet}.{4 * index + 1}", f"{subnet}.{4 * index + 2}"
            self.namespaces.append(Namespace(name, host, peer))  # before it is made: removed if it fails half-way
            for argv in (["ip", "netns", "add", name],
                         ["ip", "link", "add", outside, "type", "veth", "peer", "name", inside],
                         ["ip", "link", "set", inside, "netns", name],
                         ["ip", "addr", "add", f"{host}/30", "dev", outside],
                         ["ip", "link", "set", outside, "up"],
                         ["ip", "netns", "exec", name, "ip", "addr", "add", f"{peer}/30", "dev", inside],
                         ["ip", "netns", "exec", name, "ip", "link", "set", inside, "up"],
                         ["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"]):
                subprocess.run(argv, check=True, capture_output=True, text=True, timeout=30)
            self.listen.append(host)

    def remove_namespaces(self) -> None:
        for namespace in self.namespaces:
            subprocess.run(["ip", "netns", "del", namespace.name], capture_output=True, timeout=30)
        self.namespaces = []

    def close(self) -> None:
        self.stop("immediate")
        pid_file = self.data / "postmaster.pid"
        if pid_file.exists():  # pg_ctl could not stop it: end it by its own pid
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
        self.remove_namespaces()
        shutil.rmtree(self.root, ignore_errors=True)
        if self._watchdog is not None and self._watchdog.stdin is not None:
            with contextlib.suppress(OSError):
                self._watchdog.stdin.write(b"closed\n")
                self._watchdog.stdin.close()
            self._watchdog.wait(timeout=30)
            self._watchdog = None

    def _watch(self) -> None:
        """A process that does close()'s work if this one dies without it (a killed xdist worker, or one
        its controller ended): it waits, without polling, for the end of a pipe only this process holds."""
        if self._watchdog is not None:
            return
        owner = ["runuser", "-u", self.owner, "--"] if os.geteuid() == 0 else []
        stop = [*owner, str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "-t", "60", "stop"]
        names = [namespace.name for namespace in self.namespaces]
        self._watchdog = subprocess.Popen([sys.executable, "-c", _WATCHDOG, repr((stop, names, str(self.root)))],
                                          stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          start_new_session=True)  # a Ctrl-C to the test run does not end it


_WATCHDOG = """
import ast, shutil, subprocess, sys
stop, names, root = ast.literal_eval(sys.argv[1])
if sys.stdin.buffer.read() != b"closed\\n":
    subprocess.run(stop, capture_output=True, timeout=120)
    for name in names:
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)
    shutil.rmtree(root, ignore_errors=True)
"""


def _free_subnet() -> str:
    """A /24 of 10.64.0.0/10 (`10.B.C`) in which no interface of this namespace has an address: not another
    test process's veths, nor anything else. Chosen under the machine-wide lock, held until the veths of
    this one have their addresses."""
    shown = subprocess.run(["ip", "-o", "-4", "addr", "show"], check=True, capture_output=True, text=True, timeout=30)
    used = set(re.findall(r"inet (10\.\d+\.\d+)\.\d+", shown.stdout))
    start = os.getpid() % (64 * 256)
    for offset in range(64 * 256):
        number = (start + offset) % (64 * 256)
        subnet = f"10.{64 + number // 256}.{number % 256}"
        if subnet not in used:
            return subnet
    raise OSError("no /24 of 10.64.0.0/10 is free for the namespaces' veths")


@contextlib.contextmanager
def _lock(path: Path):  # noqa: ANN202
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
