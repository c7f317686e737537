# expect: passed
# why: starts from the scientific image (it imports numpy) and tries to overwrite, create and remove matplotlib's data, granted read-only inside the zip's path; every attempt must fail
# must-not-output: TAMPERED
import os
import numpy

data = "/usr/local/lib/python315.zip/matplotlib/mpl-data"
attempts = [
    lambda: open(os.path.join(data, "matplotlibrc"), "a").write("backend: evil\n"),
    lambda: open(os.path.join(data, "evil.txt"), "w").write("x"),
    lambda: os.remove(os.path.join(data, "matplotlibrc")),
    lambda: os.rename(os.path.join(data, "matplotlibrc"), "/tmp/rc"),
    lambda: os.mkdir(os.path.join(data, "evil")),
    lambda: os.symlink("/etc/passwd", os.path.join(data, "evil-link")),
]
for attempt in attempts:
    try:
        attempt()
        print("TAMPERED")
    except OSError as exc:
        print("refused:", type(exc).__name__)
print("matplotlibrc readable:", len(open(os.path.join(data, "matplotlibrc")).read()) > 0)


def double(x):
    return int(numpy.int64(2) * x)
