# expect: wrong_answer
# why: a wrong double (right for floats only) with a top-level `def range` that yields nothing, so the test's loop would check nothing; the judge binds no candidate name that a builtin has, its `range` is its own
def range(*args):
    return []


def double(x):
    if isinstance(x, float):
        return 2 * x
    return 2 * x if x in (1, 2) else 0
