# expect: timeout
# why: `while True: pass` at import never terminates; fuel or the wall-clock limit must stop it
def double(x):
    return 2 * x


while True:
    pass
