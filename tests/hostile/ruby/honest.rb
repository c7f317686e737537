# expect: passed
# why: control: a right solution of the assertion and io cases
def double(x)
  x * 2
end

if __FILE__ == $PROGRAM_NAME
  line = $stdin.gets
  puts double(Integer(line)) if line
end
