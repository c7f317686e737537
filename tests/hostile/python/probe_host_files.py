# expect: passed
# why: quietly probes well-known host files, printing whatever it can read, then answers correctly; nothing host-side may leak
# must-not-output: root:x:0:0
# must-not-output: PRIVATE KEY
# must-not-output: Linux version
# must-not-output: nameserver
candidates = [
    "/etc/passwd", "/etc/shadow", "/etc/hostname", "/etc/resolv.conf",
    "/proc/version", "/proc/self/cmdline", "/proc/self/maps",
    "/root/.ssh/id_rsa", "/root/.bash_history", "../../../../etc/passwd",
]
for path in candidates:
    try:
        with open(path, "rb") as f:
            print(path, f.read(4096))
    except Exception as exc:  # keep going: the point is to find any hole
        print(path, "->", type(exc).__name__)


def double(x):
    return 2 * x
