# expect: runtime_error
# why: answers wrongly and tries to rewrite the harness (its module, the test/unit stand-in) so that every step reports `ok`; both are frozen before the candidate loads
def double(x)
  x
end

module Wasmeval
  def self.assertion_case(_path) = 'ok'
end

module Test
  module Unit
    module Assertions
      def assert_equal(*) = true
    end
  end
end
