# expect: passed
# why: tries every way Ruby has of starting a process; WASI has no processes, so each fails or does nothing, and no file appears on the host
# host-path-absent: /tmp/wasmeval-ruby-spawned
def double(x)
  x * 2
end

attempts = {
  system: -> { system('touch /tmp/wasmeval-ruby-spawned') },
  backticks: -> { `touch /tmp/wasmeval-ruby-spawned` },
  spawn: -> { spawn('touch', '/tmp/wasmeval-ruby-spawned') },
  fork: -> { fork { File.write('/tmp/wasmeval-ruby-spawned', 'x') } },
  popen: -> { IO.popen(%w[touch /tmp/wasmeval-ruby-spawned]).read },
  open3: -> { require 'open3'; Open3.capture2('touch /tmp/wasmeval-ruby-spawned') },
  thread: -> { Thread.new { 1 }.join }
}
attempts.each do |name, attempt|
  $stderr.puts("#{name}: #{attempt.call.inspect}")
rescue NotImplementedError, StandardError => e
  $stderr.puts("#{name}: #{e.class}")
end

if __FILE__ == $PROGRAM_NAME
  line = $stdin.gets
  puts double(Integer(line)) if line
end
