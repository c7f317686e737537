# expect: runtime_error
# why: writes ../escape, outside the scratch dir; the WASI preopen forbids climbing out, so open() raises
def double(x):
    return 2 * x


with open("../escape", "w") as f:
    f.write("escaped\n")
