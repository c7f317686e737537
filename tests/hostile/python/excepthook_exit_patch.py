# expect: wrong_answer
# why: wrong solution that silences sys.excepthook/unraisablehook and turns sys.exit into a no-op, so the failure is neither printed nor reported
import sys


def double(x):
    return x + 2


sys.excepthook = lambda *args: None
sys.unraisablehook = lambda *args: None
sys.exit = lambda *args: None
