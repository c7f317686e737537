# expect: output_limit
# why: creates 20,000 empty files and folders, which cost the host inodes but no bytes; an execution may create 10,000
import os

for i in range(10000):
    open("/tmp/f%d" % i, "w").close()
for i in range(10000):
    os.mkdir("/tmp/d%d" % i)


def double(x):
    return 2 * x
