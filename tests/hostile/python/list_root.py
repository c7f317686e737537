# expect: passed
# why: prints what it can list of /, .. and ../.. (errors are caught), then answers correctly; host-only top-level dirs must not show up
# must-not-output: 'proc'
# must-not-output: 'etc'
# must-not-output: 'root'
# must-not-output: 'boot'
import os

for where in ("/", "..", "../.."):
    try:
        print(where, sorted(os.listdir(where)))
    except OSError as exc:
        print(where, "not listable:", type(exc).__name__)


def double(x):
    return 2 * x
