# expect: runtime_error
# why: sys.setrecursionlimit(10**6) then unbounded Python recursion; ends in RecursionError (or a wasm stack-overflow trap), never a host crash
import gc
import sys

gc.disable()  # keep the million-frame descent cheap so it is the recursion, not the GC, that ends it
sys.setrecursionlimit(10 ** 6)


def double(x):
    return 2 * x


def dive():
    dive()


dive()
