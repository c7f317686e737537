# expect: runtime_error
# why: recursion through C code (map/list) with a huge recursion limit, to exhaust the native wasm stack; RecursionError or stack-overflow trap -> runtime_error
import sys

sys.setrecursionlimit(10 ** 6)


def double(x):
    return 2 * x


def dive(n):
    # every level goes Python -> list() -> map -> Python, using C stack
    return list(map(dive, [n + 1]))


dive(0)
