# expect: runtime_error
# why: raises an exception whose __str__ itself raises; describing it must not crash the harness: the candidate's own error is a runtime_error
class Weird(Exception):
    def __str__(self):
        raise ValueError("cannot describe me")


def double(x):
    raise Weird()
