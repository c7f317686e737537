# expect: wrong_answer
# why: answers wrongly and gives the tests a candidate of its own: `Kernel#method` (at the top level and in `Object`) returns a lambda that doubles, and `Method#call` doubles its argument; the tests' `method` is `Kernel#method` captured before the candidate loaded, and `Method` is frozen
def double(x)
  x
end

def method(_name) = ->(x) { x * 2 }

begin
  class Method
    def call(x) = x * 2
  end
rescue FrozenError
  nil
end
