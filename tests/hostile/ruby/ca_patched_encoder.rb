# expect: wrong_answer
# why: answers wrongly and rewrites what the harness's encoder of returned values calls (`Integer#to_s`, `Array#map`, `Array#join`) so that the reported values would read as the expected ones; the harness encodes with methods captured before the candidate loaded, and the host compares
def double(x)
  x
end

class Integer
  def to_s(*) = '4'
end

class Array
  def map(*) = %w[2 4]
  def join(*) = '2,4'
end
