# expect: runtime_error
# why: unbounded recursion at import under the default recursion limit -> uncaught RecursionError
def double(x):
    return 2 * x


def dive(n):
    return dive(n + 1) + 1


dive(0)
