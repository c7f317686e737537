# expect: runtime_error
# why: spawns a host process with subprocess.run; WASI has no fork/exec, so it raises (or subprocess is unusable)
# must-not-output: root:x:0:0
import subprocess


def double(x):
    return 2 * x


result = subprocess.run(["cat", "/etc/passwd"], capture_output=True, text=True)
print(result.stdout)
