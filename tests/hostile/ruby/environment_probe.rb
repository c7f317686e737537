# expect: passed
# why: prints the environment, the arguments and everything the interpreter knows of its process: the environment is empty and nothing names the host or the run's token
# must-not-output: "HOME"
# must-not-output: "PATH"
# must-not-output: TOKEN-FOUND
def double(x)
  x * 2
end

$stderr.puts(ENV.to_h.inspect, ARGV.inspect, $0, Process.pid, (Etc.getlogin rescue 'no login'))
# A token-shaped string anywhere in the interpreter's heap (the harness removes
# `ObjectSpace.each_object` before the program loads; the search stays for a build that has it).
found = ObjectSpace.respond_to?(:each_object) &&
        ObjectSpace.each_object(String).find { |s| s.match?(/wasmeval-\h{32}/) }
$stderr.puts("TOKEN-FOUND #{found}") if found

if __FILE__ == $PROGRAM_NAME
  line = $stdin.gets
  puts double(Integer(line)) if line
end
