# expect: wrong_answer
# why: answers wrongly and redefines the core methods the harness used to pick and run the tests (`String#start_with?`, `Symbol#start_with?`, `Array#select`, `Array#each`, `Kernel#public_send`, `Class#new`): the harness calls the methods it captured before the candidate loaded
def double(x)
  x
end

class String
  def start_with?(*) = false
end

class Symbol
  def start_with?(*) = false
end

class Array
  alias_method :__select, :select
  def select(*) = []
end

module Kernel
  def public_send(*) = nil
end

class Class
  alias_method :__new, :new
  def new(*args, **kwargs, &block)
    object = __new(*args, **kwargs, &block)
    object.define_singleton_method(:test_double) {} if object.is_a?(Test::Unit::TestCase)
    object
  end
end
