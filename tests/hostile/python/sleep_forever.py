# expect: passed
# why: time.sleep(10**6) then a correct answer; the sandbox clock is virtual, so the sleep returns at once and must not be a timeout
import time

time.sleep(10 ** 6)


def double(x):
    return 2 * x
