# frozen_string_literal: true

# wasmeval's stand-in for test-unit (`require 'test/unit'`), put first on the Ruby guest's load
# path as test/unit.rb. The real gem costs about 930 M fuel to load (six times the interpreter's
# start-up) and runs its tests from `at_exit`, which a reactor never reaches; this one has the
# assertions MultiPL-E's and hand-written Ruby tests use, registers every `Test::Unit::TestCase`
# subclass, and leaves running them to the harness (guests/ruby/harness.rb), which reports each
# case to the host.
module Test
  module Unit
    # A failed assertion (test-unit's class of the same name): a wrong answer.
    class AssertionFailedError < StandardError; end

    # The assertions, as test-unit defines them (`expected` first).
    module Assertions
      def assert_block(message = 'assertion failed')
        raise AssertionFailedError, message unless yield
        true
      end

      def assert(value, message = nil)
        assert_block(message || "<#{value.inspect}> is not true") { value }
      end

      def assert_true(value, message = nil)
        assert_block(message || "<true> expected but was <#{value.inspect}>") { value == true }
      end

      def assert_false(value, message = nil)
        assert_block(message || "<false> expected but was <#{value.inspect}>") { value == false }
      end

      def assert_equal(expected, actual, message = nil)
        assert_block(message || "<#{expected.inspect}> expected but was <#{actual.inspect}>") do
          expected == actual
        end
      end

      def assert_not_equal(expected, actual, message = nil)
        assert_block(message || "<#{expected.inspect}> was expected to be != to <#{actual.inspect}>") do
          expected != actual
        end
      end
      alias refute_equal assert_not_equal

      def assert_nil(value, message = nil)
        assert_block(message || "<nil> expected but was <#{value.inspect}>") { value.nil? }
      end

      def assert_not_nil(value, message = nil)
        assert_block(message || "<#{value.inspect}> was expected to not be nil") { !value.nil? }
      end

      def assert_in_delta(expected, actual, delta = 0.001, message = nil)
        assert_block(message || "<#{expected.inspect}> and <#{actual.inspect}> differ by more than #{delta}") do
          (expected - actual).abs <= delta
        end
      end

      def assert_raise(*classes, message: nil)
        classes = [StandardError] if classes.empty?
        begin
          yield
        rescue *classes => e
          return e
        end
        raise AssertionFailedError, message || "#{classes.map(&:inspect).join(', ')} expected but nothing was raised"
      end
      alias assert_raises assert_raise

      def assert_nothing_raised(*)
        yield
      end

      def refute(value, message = nil)
        assert_block(message || "<#{value.inspect}> is not false") { !value }
      end

      def flunk(message = 'Flunked')
        raise AssertionFailedError, message
      end
    end

    # A test case: its public `test*` methods are the tests.
    class TestCase
      include Assertions

      # Every subclass, in the order they were defined, for the harness to run.
      CLASSES = []

      def self.inherited(subclass)
        super
        CLASSES << subclass
      end

      def self.test_names
        public_instance_methods(true).map(&:to_s).select { |name| name.start_with?('test') }.sort
      end

      def setup; end

      def teardown; end
    end
  end
end
