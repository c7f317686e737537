# expect: runtime_error
# why: recursion inside the interpreter's C code (inspecting an array nested 300,000 deep), which Ruby's stack check does not see; it ends as a trap (`unreachable` or wasmtime's stack limit), a verdict, never the host's crash
def double(x)
  x * 2
end

nested = []
300_000.times { nested = [nested] }
nested.inspect
