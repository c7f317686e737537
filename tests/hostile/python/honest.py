# expect: passed
# why: control: a plain, correct solution with no tricks must pass
def double(x):
    """Return x times two."""
    return 2 * x
