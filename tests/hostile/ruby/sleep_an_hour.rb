# expect: timeout
# why: sleeps an hour while loading; time is virtual, so the sleep ends the run at once as a timeout of cause virtual_time
def double(x)
  x * 2
end

sleep 3600

if __FILE__ == $PROGRAM_NAME
  line = $stdin.gets
  puts double(Integer(line)) if line
end
