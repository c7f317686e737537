# expect: passed
# why: dumps os.environ then answers correctly; only the sandbox's own variables (PYTHON*, TMPDIR, HOME=/tmp) may exist, none of the host's
# must-not-output: env:HOME=/root
# must-not-output: env:PATH=
# must-not-output: env:USER=
# must-not-output: 'PATH'
# must-not-output: /root
import os

print(repr(os.environ))
for key, value in sorted(os.environ.items()):
    print("env:%s=%s" % (key, value))


def double(x):
    return 2 * x
