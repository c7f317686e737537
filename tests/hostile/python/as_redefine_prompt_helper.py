# expect: wrong_answer
# why: a wrong double that redefines the prompt's helper `halve`, which the test trusts to check it (as HumanEval/38's test calls the prompt's encode_cyclic), to answer whatever double was last asked; the test's helpers are the task's definitions, run in the judge, not the candidate's
_asked = [0]


def halve(y):
    return _asked[0]


def double(x):
    _asked[0] = x
    if isinstance(x, float):
        return 2 * x
    return 2 * x if x in (1, 2) else 0
