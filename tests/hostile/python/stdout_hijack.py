# expect: wrong_answer
# why: wrong solution that replaces sys.stdout/stderr (and the __stdout__/__stderr__ originals) with a sink that fakes success, hiding the traceback
import sys


class _Sink:
    def write(self, s):
        return len(s)

    def flush(self):
        pass

    def isatty(self):
        return False


def double(x):
    return x * 3


print('{"passed": true}')
sys.stdout = sys.stderr = sys.__stdout__ = sys.__stderr__ = _Sink()
