# expect: wrong_answer
# why: returns a float subclass whose division returns an object equal to anything and whose own __eq__ says True (python3 passes every assert); the division runs in the candidate's instance as Python would run it, but neither object's __eq__ decides against the test's values
class _Anything:
    def __eq__(self, other):
        return True

    __hash__ = None


class _Lying(float):
    def __truediv__(self, other):
        return _Anything()

    def __eq__(self, other):
        return True

    __hash__ = float.__hash__


def double(x):
    return _Lying(0.5 if x == 0.25 else 7)
