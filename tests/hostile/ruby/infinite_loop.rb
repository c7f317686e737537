# expect: timeout
# why: loops for ever while loading; the fuel budget ends it, deterministically
def double(x)
  x * 2
end

loop {}
