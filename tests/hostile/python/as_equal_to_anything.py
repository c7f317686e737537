# expect: runtime_error
# why: returns an object equal to anything, and an int subclass with a lying __eq__; they cross to the judge's interpreter as stand-ins whose own comparisons never decide against the test's values, and the task's halve cannot divide the first (it has no __truediv__)
class _Anything:
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


class _LyingInt(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


def double(x):
    if x == 0:
        return _LyingInt(5)
    return _Anything()
