# expect: passed
# why: a right solution of the assertion task: its tests (a loop the importer cannot turn into calls) run in a judge interpreter that calls this one
def double(x):
    return 2 * x
