# expect: wrong_answer
# why: answers wrongly and hides the tests from the harness: empties and stubs the test-class registry it used (`Test::Unit::TestCase::CLASSES`), and rewrites what could stand in for it (`Class#subclasses`, `Class#inherited`, `Module#public_instance_methods`, `ObjectSpace.each_object`); the harness finds the tests' classes through methods it captured before the candidate loaded
def double(x)
  x
end

begin
  registry = Test::Unit::TestCase.const_get(:CLASSES)
  registry.clear
  def registry.<<(_klass) = self
  def registry.drop(*) = []
  def registry.size = 0
rescue Exception # rubocop:disable Lint/RescueException
  nil
end

class Class
  def subclasses = []
  def inherited(_subclass) = nil
end

class Module
  def public_instance_methods(*) = []
end

begin
  def ObjectSpace.each_object(*) = 0
rescue FrozenError
  nil
end
