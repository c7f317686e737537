# expect: wrong_answer
# why: answers wrongly and defines the tests' class first (`TestHumanEval < Test::Unit::TestCase`) with a prepended module whose tests and assertions do nothing, so that the tests' `class TestHumanEval` would reopen it; before each case the harness removes the constants naming test classes that exist, so the tests' code defines a fresh class
def double(x)
  x
end

class TestHumanEval < Test::Unit::TestCase
  prepend(Module.new do
    def test_double = nil
    def test_negative = nil
    def assert_equal(*) = true
    def assert_in_delta(*) = true
  end)
end
