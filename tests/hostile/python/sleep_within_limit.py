# expect: passed
# why: sleeps one virtual second, well within the time limit, then answers right; a short sleep is not a timeout and costs the host nothing
import time

time.sleep(1)


def double(x):
    return 2 * x
