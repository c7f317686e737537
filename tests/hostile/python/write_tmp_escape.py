# expect: runtime_error
# why: writes /tmp/wasmeval_escape; /tmp is not mapped, so open() raises (the suite should also check the host file was not created)
def double(x):
    return 2 * x


with open("/tmp/wasmeval_escape", "w") as f:
    f.write("escaped\n")
