# expect: runtime_error
# why: double returns an object whose __eq__ is always True; the task's asserts are imported as host-judged calls, and the host compares only plain data: such an object is the candidate's error
class _Anything:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__


def double(x):
    return _Anything()
