# expect: runtime_error
# why: answers wrongly and ends the process with `exit!(0)` before any test; the steps it cut short have no host line, so every case fails
def double(x)
  x
end

exit!(0)
