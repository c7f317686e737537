# expect: wrong_answer
# why: makes every Integer and Array equal to anything; the host compares the reported plain data, and Ruby's `==` plays no part
class Integer
  def ==(_other) = true
end

class Array
  def ==(_other) = true
end

def double(x)
  x
end
