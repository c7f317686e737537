# expect: runtime_error
# why: double raises SystemExit(0) when called, ending the run in the middle of check(); not every test ran, so not a pass
def double(x):
    raise SystemExit(0)
