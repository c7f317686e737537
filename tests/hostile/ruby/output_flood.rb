# expect: output_limit
# why: writes for ever and swallows every error; the write that crosses the output budget traps, which Ruby cannot rescue
def double(x)
  x * 2
end

loop do
  $stdout.write('x' * 65_536)
  $stdout.flush
rescue StandardError, SystemCallError
  nil
end
