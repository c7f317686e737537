# expect: wrong_answer
# why: wrong solution that closes file descriptors 1 and 2 so neither a traceback nor a harness report can be written; the verdict must not depend on them
import os


def double(x):
    return x - 1


os.close(1)
os.close(2)
