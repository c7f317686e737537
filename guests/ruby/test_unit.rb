# frozen_string_literal: true

# wasmeval's stand-in for test-unit (`require 'test/unit'`), put first on the Ruby guest's load
# path as test/unit.rb. The real gem costs about 930 M fuel to load (six times the interpreter's
# start-up) and runs its tests from `at_exit`, which a reactor never reaches; this one has the
# assertions MultiPL-E's and hand-written Ruby tests use and leaves finding and running the
# `Test::Unit::TestCase` subclasses to the harness (guests/ruby/harness.rb), which loads this file
# before the candidate and reports each case to the host.
#
# The candidate shares the interpreter: the assertions compare with the harness's captured
# methods (`Wasmeval.same?`, `within?`) and fail with its captured `Kernel#raise`, so that
# redefining `Integer#==`, `Array#==` or `raise` changes nothing here; these modules and classes
# are frozen before the candidate loads.
module Test
  module Unit
    # The harness, under a name of this frozen module (not `::Wasmeval`, which the program could
    # replace).
    H = ::Wasmeval

    # A failed assertion (test-unit's class of the same name): a wrong answer. Raising one calls
    # `exception`, `initialize`, `backtrace`, `message` and `to_s`, which are Exception's as they
    # were before the candidate loaded.
    class AssertionFailedError < StandardError
      singleton_class.define_method(:exception, ::Exception.singleton_class.instance_method(:exception))
      %i[initialize backtrace message to_s].each do |name|
        define_method(name, ::Exception.instance_method(name))
      end
    end

    # The assertions, as test-unit defines them (`expected` first).
    module Assertions
      def assert_block(message = 'assertion failed')
        H.fail_test(message) unless yield
        true
      end

      def assert(value, message = nil)
        H.fail_test(message || "<#{H.show(value)}> is not true") unless value
        true
      end

      def assert_true(value, message = nil)
        H.fail_test(message || "<true> expected but was <#{H.show(value)}>") unless H::IDENTICAL.bind_call(value, true)
        true
      end

      def assert_false(value, message = nil)
        H.fail_test(message || "<false> expected but was <#{H.show(value)}>") unless H::IDENTICAL.bind_call(value, false)
        true
      end

      def assert_equal(expected, actual, message = nil)
        unless H.same?(expected, actual)
          H.fail_test(message || "<#{H.show(expected)}> expected but was <#{H.show(actual)}>")
        end
        true
      end

      def assert_not_equal(expected, actual, message = nil)
        if H.same?(expected, actual)
          H.fail_test(message || "<#{H.show(expected)}> was expected to be != to <#{H.show(actual)}>")
        end
        true
      end
      alias refute_equal assert_not_equal

      def assert_nil(value, message = nil)
        H.fail_test(message || "<nil> expected but was <#{H.show(value)}>") unless H::IDENTICAL.bind_call(value, nil)
        true
      end

      def assert_not_nil(value, message = nil)
        H.fail_test(message || "<#{H.show(value)}> was expected to not be nil") if H::IDENTICAL.bind_call(value, nil)
        true
      end

      def assert_in_delta(expected, actual, delta = 0.001, message = nil)
        unless H.within?(expected, actual, delta)
          H.fail_test(message ||
                      "<#{H.show(expected)}> and <#{H.show(actual)}> differ by more than #{H.show(delta)}")
        end
        true
      end

      def assert_raise(*classes, message: nil)
        classes = [H::StandardError] if H::ARY_EMPTY.bind_call(classes)
        begin
          yield
        rescue H::ANY => e
          H::ARY_EACH.bind_call(classes) { |klass| return e if H::KIND_OF.bind_call(e, klass) }
          H::RAISE.bind_call(self, e)
        end
        H.fail_test(message || "#{H.show(classes)} expected but nothing was raised")
      end
      alias assert_raises assert_raise

      def assert_nothing_raised(*)
        yield
      end

      def refute(value, message = nil)
        H.fail_test(message || "<#{H.show(value)}> is not false") if value
        true
      end

      def flunk(message = 'Flunked')
        H.fail_test(message)
      end
    end

    # A test case: its public `test*` methods are the tests.
    class TestCase
      include Assertions

      # What test methods call on themselves: Kernel's, as the harness found them, not what the
      # program put in Object (a top-level `def method`), which comes after this class.
      define_method(:method, H::METHOD)
      define_method(:raise, H::RAISE)
      define_method(:fail, H::FAIL)
      private :raise, :fail

      # No hook of the program's (a redefined `Class#inherited` or `Module#method_added`) runs
      # when the tests define a test class or its methods.
      def self.inherited(_subclass) = nil
      def self.method_added(_name) = nil
      def self.singleton_method_added(_name) = nil

      def setup; end

      def teardown; end
    end
  end
end
