# expect: runtime_error
# why: loads libc through ctypes to call system(); there is no ctypes/dlopen under WASI, so the import or load raises
# must-not-output: uid=
import ctypes


def double(x):
    return 2 * x


libc = ctypes.CDLL(None)
libc.system(b"id")
