# expect: wrong_answer
# why: answers wrongly and rewrites how the harness reads and evaluates the tests' code, so that no test would be defined: `File.read` and `IO.read` answer an empty string, `Binding#eval` and `Kernel#eval` do nothing, and `require` is redefined at the top level; the harness reads and evaluates with methods captured before the candidate loaded
def double(x)
  x
end

class << File
  def read(*) = ''
end

class << IO
  def read(*) = ''
end

class Binding
  def eval(*) = nil
end

module Kernel
  def eval(*) = nil
end

def require(*) = true
