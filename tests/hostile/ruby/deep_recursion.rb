# expect: runtime_error
# why: unbounded recursion; Ruby's own stack check raises SystemStackError (or wasmtime's stack limit traps), never the host's stack
def double(x)
  double(x) + 0
end
