"""A real Ray cluster on this machine, for python/tests_ray and bench/ray_bench.py: nodes
started with `ray start`, each its own set of processes (raylet, object store, agents, workers)
with its own temporary folder, one CPU and its own WASMEVAL_HOME (all sharing the machine's
compiled-module cache, so the 100 MB interpreter is not compiled again); and the processes and
sockets of a node, read from /proc.

Ray 2.60 replaces `--node-ip-address=127.0.0.1` by the machine's outward address when it has
one, and then listens on every interface; in a network namespace whose only interface is
loopback it keeps 127.0.0.1 and binds there. scripts/test-ray runs these tests in such a
namespace (`unshare --net`), and the cluster fixture refuses to start anywhere else.
"""

import ipaddress
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RAY = str(Path(sys.executable).parent / "ray")


def _machine_home() -> Path:
    if os.environ.get("WASMEVAL_HOME"):
        return Path(os.environ["WASMEVAL_HOME"])
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return Path(xdg) / "wasmeval" if xdg and os.path.isabs(xdg) else Path.home() / ".cache" / "wasmeval"


def fresh_home(root: Path, name: str) -> Path:
    """A WASMEVAL_HOME of its own (the guests are laid out in it on first use), sharing only the
    machine's module cache."""
    modules = _machine_home() / "modules"
    modules.mkdir(parents=True, exist_ok=True)
    home = root / name
    home.mkdir()
    os.symlink(modules, home / "modules")
    return home


# --- processes and sockets, read from /proc ---------------------------------------------------


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _parents() -> dict:
    """pid -> parent pid of every process."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # pid (comm) state ppid ...: comm may hold spaces and parentheses.
            parents[int(entry.name)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    return parents


def processes_of(folders) -> set:
    """The processes whose command line names one of ``folders`` (a node's temporary folder:
    its raylet, monitors, GCS), and all their descendants (agents and workers, which rename
    themselves `ray::...`)."""
    parents = _parents()
    marks = [f"{folder}/" for folder in folders]
    found = {pid for pid in parents if any(m in _cmdline(pid) for m in marks)}
    while True:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        if not more:
            return found
        found |= more


def kill(pids, grace: float = 5.0) -> None:
    """SIGTERM to ``pids``, then SIGKILL to those still there after ``grace`` seconds."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 0)):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() and not _zombie(p) for p in pids):
            time.sleep(0.1)


def _zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] == "Z"


def _address(hex_address: str):
    """An address of /proc/net/{tcp,udp}[6] as (ipaddress, port)."""
    host, port = hex_address.split(":")
    raw = bytes.fromhex(host)
    # Each 32-bit word is in the host's (little-endian) order.
    raw = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
    address = ipaddress.ip_address(raw)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address, int(port, 16)


TCP_LISTEN, TCP_ESTABLISHED = "0A", "01"


def sockets_of(pids) -> list:
    """The TCP and UDP sockets the processes ``pids`` hold: (pid, protocol, state, local
    address, local port, remote address, remote port)."""
    inodes = {}
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target.startswith("socket:["):
                    inodes[target[8:-1]] = pid
        except OSError:
            continue
    found = []
    for protocol in ("tcp", "tcp6", "udp", "udp6"):
        lines = Path(f"/proc/net/{protocol}").read_text().splitlines()[1:]
        for line in lines:
            fields = line.split()
            if fields[9] in inodes:
                local, local_port = _address(fields[1])
                remote, remote_port = _address(fields[2])
                found.append((inodes[fields[9]], protocol, fields[3], local, local_port, remote, remote_port))
    return found


def interfaces() -> list:
    """This network namespace's interfaces other than loopback."""
    return sorted(name for _, name in socket.if_nameindex() if name != "lo")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the cluster ------------------------------------------------------------------------------


def loopback_only_error():
    """Why Ray would not stay on loopback here, or None: in a network namespace whose only
    interface is loopback it does."""
    outside = interfaces()
    if outside:
        return (
            f"this machine has network interfaces besides loopback ({', '.join(outside)}), on "
            "which Ray would listen: run in a loopback-only network namespace (scripts/test-ray)"
        )
    return None


def new_root() -> Path:
    """A folder for a cluster's nodes, short: Ray's Unix socket paths under it must stay below
    108 characters."""
    return Path(tempfile.mkdtemp(prefix="wr-", dir="/tmp"))


class Cluster:
    """A head and worker nodes started with `ray start`, all on 127.0.0.1."""

    def __init__(self, root: Path):
        self.root = root
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.folders = {}  # node name -> its --temp-dir
        self._next_worker_port = 20000

    def start_node(self, name: str, head: bool = False) -> None:
        folder = self.root / name
        env = dict(os.environ)
        env["WASMEVAL_HOME"] = str(fresh_home(self.root, f"home-{name}"))
        env["RAY_USAGE_STATS_ENABLED"] = "0"
        # A node that stops answering is declared dead after about 3 s instead of 15.
        env["RAY_health_check_period_ms"] = "1000"
        env["RAY_health_check_failure_threshold"] = "3"
        args = [
            RAY, "start",
            "--node-ip-address=127.0.0.1",
            "--num-cpus=1",
            f"--temp-dir={folder}",
            f"--object-store-memory={100 * 1024 * 1024}",
            f"--min-worker-port={self._next_worker_port}",
            f"--max-worker-port={self._next_worker_port + 999}",
            f"--dashboard-agent-listen-port={_free_port()}",
            "--disable-usage-stats",
        ]
        self._next_worker_port += 1000
        if head:
            args += [
                "--head",
                f"--port={self.port}",
                "--include-dashboard=false",
                "--dashboard-host=127.0.0.1",
            ]
        else:
            args += [f"--address={self.address}"]
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
        self.folders[name] = folder
        assert done.returncode == 0, f"ray start ({name}) failed:\n{done.stdout}\n{done.stderr}"

    def pids(self, *names) -> set:
        """The processes of the named nodes (all nodes when none is named)."""
        return processes_of([self.folders[n] for n in (names or self.folders)])

    def node_id(self, name: str) -> str:
        """Ray's id of the node started as ``name``."""
        import ray

        for node in ray.nodes():
            if node["Alive"] and node["RayletSocketName"].startswith(f"{self.folders[name]}/"):
                return node["NodeID"]
        raise LookupError(f"no alive node {name}")

    def kill_node(self, name: str) -> None:
        """The node's processes killed at once (SIGKILL), as when its machine dies."""
        kill(self.pids(name), grace=0)

    def wait_alive(self, count: int, seconds: float = 60) -> None:
        import ray

        deadline = time.monotonic() + seconds
        while sum(n["Alive"] for n in ray.nodes()) != count:
            assert time.monotonic() < deadline, f"not {count} alive nodes: {ray.nodes()}"
            time.sleep(0.2)

    def stop(self) -> None:
        kill(processes_of(list(self.folders.values())))


