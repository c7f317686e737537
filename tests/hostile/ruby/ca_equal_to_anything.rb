# expect: runtime_error
# why: returns an object equal to anything (`==`, `eql?`, `===` all true); it is not plain data, so it cannot cross to the host's comparison
class Anything
  def ==(_other) = true
  alias eql? ==
  alias === ==
  def to_s = '4'
  def inspect = '4'
end

def double(_x)
  Anything.new
end
