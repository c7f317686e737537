# expect: wrong_answer
# why: wrong solution that defines its own no-op check(); the task's test defines check after the solution, replacing it
def double(x):
    return x + 2


def check(candidate):
    pass
