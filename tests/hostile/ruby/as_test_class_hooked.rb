# expect: runtime_error
# why: answers wrongly and reaches the tests' class as the tests define it, through hooks that run then (`Object.const_added`, `Class#inherited`, `Module#method_added`): it defines `assert_equal` and `assert_in_delta` that pass in the class and includes a module doing the same; the stand-in's TestCase answers `inherited` and `method_added` itself, and the harness checks every test class before its tests run (nothing prepended, its methods the tests' file's, no module redefining the stand-in's), so the case is an error, not a pass
def double(x)
  x
end

module Lenient
  def assert_equal(*) = true
  def assert_in_delta(*) = true
end

def tamper(klass)
  return unless klass.is_a?(Class) && klass < Test::Unit::TestCase

  klass.define_method(:assert_equal) { |*| true }
  klass.define_method(:assert_in_delta) { |*| true }
  klass.include(Lenient)
end

class Object
  def self.const_added(name)
    value = const_get(name)
    tamper(value) if value.is_a?(Class)
  end
end

class Class
  def inherited(klass) = tamper(klass)
end

class Module
  def method_added(_name) = is_a?(Class) && tamper(self)
end
