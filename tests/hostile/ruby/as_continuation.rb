# expect: wrong_answer
# why: answers wrongly and captures a continuation (`callcc`) while the program loads, then jumps back to it from inside the test, so that the load step, which answered `ok`, would answer the test's evaluation; the harness removes `callcc` before the candidate loads
$resume = nil
begin
  require 'continuation'
  callcc { |c| $resume = c }
rescue Exception # rubocop:disable Lint/RescueException
  nil
end

def double(x)
  if $resume
    k = $resume
    $resume = nil
    k.call
  end
  x
end
