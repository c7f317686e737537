# expect: runtime_error
# why: returns an object equal to anything, and an int subclass with a lying __eq__; only plain data crosses to the judge's interpreter, where the comparison happens, so such a value is the candidate's error
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
