"""A real PostgreSQL server for the tests: a fresh cluster in a temporary directory, run by an
unprivileged user on a free port, stopped (and its directory removed) at the end, even on failure.

PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user that Debian's
package creates (`runuser`), otherwise to whoever runs the tests. Connections over TCP need a
password (scram-sha-256), so that a wrong one can be tested; the local socket trusts its user.

As root, `namespaces(n)` also gives n network namespaces, each joined to this one by a veth pair, so
that workers reach PostgreSQL over a network of their own, as on other hosts would.
"""
from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
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
        options = (f"-p {self.port} -k {self.root} -c listen_addresses='{','.join(self.listen)}'"
                   " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
        done = self._run(["pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start"],
                         check=False)
        if done.returncode != 0:
            raise RuntimeError(f"PostgreSQL did not start: {done.stderr}{self.log.read_text() if self.log.exists() else ''}")

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
        self.namespace_note = ""
        if os.geteuid() != 0 or shutil.which("ip") is None:
            self.namespace_note = "network namespaces need root and iproute2; workers share the loopback"
            return []
        tag = os.getpid() % 100000
        second, third = 64 + (os.getpid() >> 8) % 64, os.getpid() % 256
        made: list[Namespace] = []
        try:
            for index in range(count):
                name, outside, inside = f"vs{tag}n{index}", f"vs{tag}a{index}", f"vs{tag}b{index}"
                # one a killed test run left behind under this name (pids come round again) would make the
                # add fail, and the workers share the loopback instead
                subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)
                subprocess.run(["ip", "link", "del", outside], capture_output=True, timeout=30)
                base = f"10.{second}.{third}.{4 * index}"
                host, peer = base[:base.rindex(".") + 1] + str(4 * index + 1), base[:base.rindex(".") + 1] + str(4 * index + 2)
                for argv in (["ip", "netns", "add", name],
                             ["ip", "link", "add", outside, "type", "veth", "peer", "name", inside],
                             ["ip", "link", "set", inside, "netns", name],
                             ["ip", "addr", "add", f"{host}/30", "dev", outside],
                             ["ip", "link", "set", outside, "up"],
                             ["ip", "netns", "exec", name, "ip", "addr", "add", f"{peer}/30", "dev", inside],
                             ["ip", "netns", "exec", name, "ip", "link", "set", inside, "up"],
                             ["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"]):
                    subprocess.run(argv, check=True, capture_output=True, text=True, timeout=30)
                made.append(Namespace(name, host, peer))
                self.listen.append(host)
        except (subprocess.SubprocessError, OSError) as error:
            detail = getattr(error, "stderr", "") or str(error)
            self.namespace_note = f"network namespaces could not be made here ({detail.strip()}); workers share the loopback"
            self.namespaces = made
            self.remove_namespaces()
            self.listen = ["127.0.0.1"]
            return []
        self.namespaces = made
        return made

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
