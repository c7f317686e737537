# expect: wrong_answer
# why: double returns an object whose __eq__ is always True (python3 passes the asserts); it is not plain data, so its host-judged case is judged again in the isolated judge, where the candidate's own __eq__ never decides against the test's value: 4 is not that object
class _Anything:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__


def double(x):
    return _Anything()
