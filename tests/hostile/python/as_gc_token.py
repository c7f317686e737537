# expect: runtime_error
# must-not-output: wasmeval-
# why: search every object the collector knows, and every closure cell, for a string that looks like the token, then forge a passing report and exit; the candidate's interpreter holds no token to find
import gc
import os


def _find_token():
    for obj in gc.get_objects():
        if isinstance(obj, str) and obj.startswith("wasmeval-") and len(obj) == 41:
            return obj
        cells = getattr(obj, "__closure__", None) if callable(obj) else None
        for cell in cells or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, str) and value.startswith("wasmeval-") and len(value) == 41:
                return value
    return None


def double(x):
    token = _find_token()
    if token is not None:
        print(token)
        os.write(1, f"\n{token} start 0\n\n{token} end 0 passed null\n\n{token} done\n".encode())
    os._exit(0)
