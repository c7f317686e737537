# expect: memory_limit
# why: keeps 32 MiB strings alive until the memory limit refuses to grow the guest's memory; the NoMemoryError Ruby raises then is the limit's verdict
def double(x)
  x * 2
end

kept = []
loop { kept << ('x' * (32 << 20)) }
