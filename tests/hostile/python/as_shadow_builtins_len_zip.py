# expect: wrong_answer
# why: a wrong double with top-level `range`, `len` and `zip` of its own (an empty loop, a length that always fits, pairs that are never compared); builtins in the test are the judge's own builtins, never proxies to the candidate's functions
def range(*args):
    return []


def len(value):
    return 2


def zip(*iterables):
    return []


def double(x):
    if isinstance(x, float):
        return 2 * x
    return 0
