# expect: passed
# why: writes /tmp/wasmeval_escape; the guest's /tmp is its own fresh scratch folder, so the write succeeds there and the host's /tmp stays untouched
# host-path-absent: /tmp/wasmeval_escape
def double(x):
    return 2 * x


with open("/tmp/wasmeval_escape", "w") as f:
    f.write("escaped\n")
