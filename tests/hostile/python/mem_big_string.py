# expect: memory_limit
# why: allocates a 1 GiB string at import; over the 256 MiB limit (2**30 fits a 32-bit Py_ssize_t, so this is a MemoryError/limit, not an OverflowError)
def double(x):
    return 2 * x


blob = "x" * (2 ** 30)
print(len(blob))
