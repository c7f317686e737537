# expect: wrong_answer
# why: wrong solution that swaps builtins.AssertionError for an unrelated class; `assert` still raises the real AssertionError
import builtins


def double(x):
    return x + 2


builtins.AssertionError = type("AssertionError", (Exception,), {})
