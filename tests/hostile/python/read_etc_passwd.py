# expect: runtime_error
# why: reads the host's /etc/passwd; the sandbox has no /etc, so open() raises and the exception propagates
# must-not-output: root:x:0:0
# must-not-output: /bin/bash
def double(x):
    return 2 * x


with open("/etc/passwd") as f:
    print(f.read())
