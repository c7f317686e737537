# expect: runtime_error
# why: does not parse; a SyntaxError is the load's failure (as for Python and JavaScript)
def double(x)
  x * 2
