# expect: runtime_error
# why: answers wrongly and registers an at_exit block that ends the process with status 0; the harness runs at_exit blocks itself, and the exit leaves the cases without their lines
def double(x)
  x
end

at_exit { exit!(0) }
