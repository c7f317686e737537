# expect: timeout
# must-not-output: done
# why: reads the interpreter's 54 MB standard-library zip again and again, host work that used to cost no fuel; every byte a file call moves is paid in fuel, so the loop runs out of its budget (a fuel timeout, the same on any host) instead of burning host CPU
import os

path = "/usr/local/lib/python315.zip"
fd = os.open(path, os.O_RDONLY)
for _ in range(10000):
    os.lseek(fd, 0, 0)
    while os.read(fd, 1 << 24):
        pass
print("done")


def double(x):
    return 2 * x
