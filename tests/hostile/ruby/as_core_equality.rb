# expect: wrong_answer
# why: answers wrongly and makes core values equal to anything: `Integer#==`, `Float#==`, `Array#==`, `BasicObject#==`, `Comparable#==`, and `Float#<=`, `Float#abs`, `Numeric#-` for `assert_in_delta`; the stand-in's assertions compare core values with the methods captured before the candidate loaded
def double(x)
  x
end

class Integer
  def ==(_other) = true
end

class Float
  def ==(_other) = true
  def <=(_other) = true
  def -(_other) = 0.0
  def abs = 0.0
end

class Array
  def ==(_other) = true
end

class BasicObject
  def ==(_other) = true
end

module Comparable
  def ==(_other) = true
end
