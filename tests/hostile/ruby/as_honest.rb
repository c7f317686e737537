# expect: passed
# why: control for `assertion_task.json`, and a right answer that uses what a program may: it adds methods to core classes (`Integer#twice`, `Array#total`), keeps state in a top-level instance variable and a global, and defines a helper class
class Integer
  def twice = self * 2
end

class Array
  def total = sum
end

class Doubler
  def call(x) = x.is_a?(Integer) ? x.twice : x * 2
end

@calls = 0
$doubler = Doubler.new

def double(x)
  raise 'broken' unless [1, 2].total == 3

  $doubler.call(x)
end
