# expect: wrong_answer
# why: answers wrongly and redefines `raise` (in `Kernel`, at the top level and as `Kernel.raise`) and `fail`, so that a failed assertion would raise nothing; the stand-in's assertions and the tests' top-level code raise through `Kernel#raise` captured before the candidate loaded
def double(x)
  x
end

module Kernel
  def raise(*) = nil
  def fail(*) = nil
  def self.raise(*) = nil
end

def raise(*) = nil
def fail(*) = nil

class Exception
  def self.exception(*) = nil
end
