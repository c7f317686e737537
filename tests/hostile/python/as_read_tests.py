# expect: wrong_answer
# must-not-output: halve(candidate(x)) == x
# why: read the tests (and their expected values) from the job folder to answer from them; the candidate's interpreter gets the program only, so there is nothing to read and the fallback answer is wrong
import os


def _tests():
    found = []
    for folder in ("/job", ".", "/tmp", "/"):
        try:
            for name in os.listdir(folder):
                if name.endswith(".json"):
                    with open(os.path.join(folder, name)) as f:
                        found.append(f.read())
        except OSError:
            pass
    return found


_FOUND = _tests()
print(_FOUND)


def double(x):
    return x + 2
