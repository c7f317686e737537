# expect: passed
# why: documented limitation: double returns an object whose __eq__ is always True, so every assert genuinely holds; the sandbox cannot tell
class _Anything:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__


def double(x):
    return _Anything()
