# expect: runtime_error
# why: reads /proc/self/environ to steal the host environment; there is no /proc in the sandbox, so open() raises
# must-not-output: proc-env:PATH=
# must-not-output: proc-env:HOME=
# must-not-output: proc-env:HOSTNAME=
def double(x):
    return 2 * x


with open("/proc/self/environ", "rb") as f:
    for item in f.read().split(b"\0"):
        print("proc-env:" + item.decode(errors="replace"))
