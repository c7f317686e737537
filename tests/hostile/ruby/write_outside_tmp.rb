# expect: passed
# why: writes where it can: /job is read-only, only the guest's own scratch /tmp takes files, and that /tmp is not the host's
# host-path-absent: /tmp/wasmeval-ruby-escape
def double(x)
  x * 2
end

['/job/program.rb', '/job/new.rb', '/etc/wasmeval-ruby-escape', '/tmp/wasmeval-ruby-escape', '/tmp/../wasmeval-ruby-escape'].each do |path|
  File.write(path, 'x')
  $stderr.puts("#{path}: written")
rescue SystemCallError, IOError => e
  $stderr.puts("#{path}: #{e.class}")
end

if __FILE__ == $PROGRAM_NAME
  line = $stdin.gets
  puts double(Integer(line)) if line
end
