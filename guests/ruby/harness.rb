# frozen_string_literal: true

# The Ruby guest's harness, loaded by the host's first evaluation (runner/src/languages/ruby.rs).
# The host then evaluates one call of this module per step; each returns a String, which the
# host itself reports after the token it never gives the guest (runner/src/sandbox/ruby_abi.rs):
#
# - `load_program(path)`: the candidate (with the task's setup), at the top level;
# - `assertion_case(path)`: a case's test code, then the `Test::Unit::TestCase` tests it defined;
# - `call(name, args)`: the candidate's function called with the case's arguments, its return
#   value as plain data (JSON with `$dict`, `$set` and `$float` tags; docs/formats.md);
# - `main(path)`: a whole program, which ends the process with its exit status.
#
# Step results: `ok`, `value <json>`, `assertion <message>` or `error <class>: <message>`. The
# candidate shares this interpreter and could rewrite this module: assertion cases are judged by
# the guest (`judged_by: guest`); `calls` values are compared on the host with expected values
# that never enter the guest.
$LOAD_PATH.unshift('/job/lib')

# Bundled gems (prime, matrix, minitest, ...) without RubyGems, which the interpreter starts
# without: their lib folders join the load path, after the standard library's, when a `require`
# first misses (every require after that pays for the longer path: about 20 M fuel a run).
module Kernel
  alias_method :__wasmeval_require, :require
  private :__wasmeval_require

  private

  def require(feature)
    __wasmeval_require(feature)
  rescue LoadError
    gems = Dir.glob('/usr/local/lib/ruby/gems/*/gems/*/lib') - $LOAD_PATH
    raise if gems.empty?

    $LOAD_PATH.concat(gems)
    __wasmeval_require(feature)
  end
end
require 'test/unit'

module Wasmeval
  # Blocks given to `at_exit` by the program, run (last first) at the end of the step that
  # registered them: a reactor's interpreter never exits, so Ruby itself would never run them.
  EXIT_BLOCKS = []

  class << self
    def load_program(path)
      step do
        TOPLEVEL_BINDING.eval(File.read(path), path, 1)
        'ok'
      end
    end

    def assertion_case(path)
      step do
        known = Test::Unit::TestCase::CLASSES.size if defined?(Test::Unit::TestCase)
        TOPLEVEL_BINDING.eval(File.read(path), path, 1)
        if defined?(Test::Unit::TestCase)
          Test::Unit::TestCase::CLASSES.drop(known || 0).each { |klass| run_tests(klass) }
        end
        'ok'
      end
    end

    def call(name, args)
      step { "value #{plain(TOPLEVEL_BINDING.receiver.send(name, *args), 0)}" }
    end

    def main(path)
      status = 0
      begin
        # Relative paths are the program's /tmp, as for a program run from its own folder.
        Dir.chdir('/tmp') if File.directory?('/tmp')
        $PROGRAM_NAME = path
        TOPLEVEL_BINDING.eval(File.read(path), path, 1)
        run_exit_blocks
      rescue SystemExit => e
        status = e.status
      rescue Exception => e # rubocop:disable Lint/RescueException
        $stderr.write(e.full_message(highlight: false))
        status = 1
      end
      flush
      exit!(status)
    end

    private

    # Runs a step, its `at_exit` blocks included; its result, or how it failed.
    def step
      result = yield
      run_exit_blocks
      result
    rescue Test::Unit::AssertionFailedError => e
      "assertion #{e.message}"
    rescue Exception => e # rubocop:disable Lint/RescueException
      "error #{e.class}: #{e.message}"
    ensure
      EXIT_BLOCKS.clear
      flush
    end

    def run_exit_blocks
      EXIT_BLOCKS.pop.call until EXIT_BLOCKS.empty?
    end

    def flush
      $stdout.flush
      $stderr.flush
    rescue StandardError
      nil
    end

    def run_tests(klass)
      klass.test_names.each do |name|
        test = klass.new
        test.setup
        begin
          test.public_send(name)
        ensure
          test.teardown
        end
      end
    end

    # `value` as JSON in the plain-data form of `calls` values.
    def plain(value, depth)
      raise TypeError, 'a value nested more than 100 deep is not plain data' if depth > 100

      case value
      when nil then 'null'
      when true then 'true'
      when false then 'false'
      when Integer then value.to_s
      when Float
        if value.nan? then '{"$float":"nan"}'
        elsif value.infinite? then value.positive? ? '{"$float":"inf"}' : '{"$float":"-inf"}'
        else value.to_s
        end
      when String then string(value)
      when Array then "[#{value.map { |item| plain(item, depth + 1) }.join(',')}]"
      when Hash
        pairs = value.map { |k, v| "[#{plain(k, depth + 1)},#{plain(v, depth + 1)}]" }
        "{\"$dict\":[#{pairs.join(',')}]}"
      when Set then "{\"$set\":[#{value.map { |item| plain(item, depth + 1) }.join(',')}]}"
      else raise TypeError, "a #{value.class} is not plain data"
      end
    end

    def string(value)
      text = value.dup.force_encoding(Encoding::UTF_8).scrub
      escaped = text.gsub(/["\\\u0000-\u001f\u007f]/) do |c|
        case c
        when '"' then '\\"'
        when '\\' then '\\\\'
        when "\n" then '\\n'
        else format('\\u%04x', c.ord)
        end
      end
      "\"#{escaped}\""
    end
  end
end

# The harness and the test framework cannot be rewritten by the candidate, which loads after this
# (a rewrite raises FrozenError). Core classes stay open: a candidate may extend them, and
# assertion cases stay forgeable through them (`Integer#==`), which is why `calls` exist.
[Wasmeval, Test, Test::Unit, Test::Unit::Assertions, Test::Unit::TestCase].each do |mod|
  mod.singleton_class.freeze
  mod.freeze
end

module Kernel
  private

  # `at_exit` keeps the block for the harness (see `Wasmeval::EXIT_BLOCKS`).
  def at_exit(&block)
    Wasmeval::EXIT_BLOCKS << block
    block
  end
end
