# expect: wrong_answer
# why: replaces json's default encoder with one that raises, then answers wrong; the harness encodes its messages with the C function it kept, so the wrong answer is the candidate's verdict, never a harness error blamed on wasmeval
import json


class Broken(json.JSONEncoder):
    def encode(self, o):
        raise RuntimeError("no encoding today")


json._default_encoder = Broken()
json.dumps = lambda *a, **k: 1 / 0


def double(x):
    return x
