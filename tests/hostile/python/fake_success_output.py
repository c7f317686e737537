# expect: wrong_answer
# why: wrong solution that prints likely harness success markers on stdout and stderr; output can never turn a failing assert into a pass
import sys


def double(x):
    return x + 2


for marker in ('{"passed": true}', '{"verdict": "passed", "status": "ok"}', "passed", "ok",
               "PASS", "ALL TESTS PASSED", "Ran 3 tests in 0.001s\n\nOK"):
    print(marker)
    print(marker, file=sys.stderr)
sys.stdout.flush()
