# expect: timeout
# why: infinite loop that catches BaseException and keeps going; a fuel/epoch trap is not a Python exception and cannot be swallowed
def double(x):
    return 2 * x


while True:
    try:
        while True:
            pass
    except BaseException:
        # try to survive KeyboardInterrupt, SystemExit, MemoryError, ...
        continue
