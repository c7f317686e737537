# expect: passed
# why: a right solution of the calls task: the values are judged on the host
def double(x)
  x.is_a?(Array) ? x.map { |v| v * 2 } : x * 2
end
