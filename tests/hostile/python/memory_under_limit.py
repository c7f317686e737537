# expect: passed
# why: control: a 64 MiB allocation, under the 256 MiB limit, then freed; a correct solution must still pass
buf = bytearray(64 * 1024 * 1024)
buf[-1] = 1
del buf


def double(x):
    return 2 * x
