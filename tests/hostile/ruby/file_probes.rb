# expect: passed
# why: reads and lists what it can: only /job (the harness and the program, read-only) and its own /tmp exist; the host's files do not
# must-not-output: root:x:0:0
# must-not-output: PRIVATE KEY
def double(x)
  x * 2
end

probes = ['/etc/passwd', '/root/.ssh/id_rsa', '/proc/self/environ', '../etc/passwd', '/job/../etc/passwd']
probes.each do |path|
  begin
    $stderr.puts(File.read(path))
  rescue SystemCallError, IOError => e
    $stderr.puts("#{path}: #{e.class}")
  end
end
$stderr.puts(Dir.glob('/**/*').first(50).inspect)
$stderr.puts((Dir.entries('/') rescue 'no /').inspect)

if __FILE__ == $PROGRAM_NAME
  line = $stdin.gets
  puts double(Integer(line)) if line
end
