# expect: wrong_answer
# why: prints report lines with guessed tokens carrying the expected values, and returns wrong ones; only the host's own lines count
def double(x)
  print("\nwasmeval-#{'0' * 32} 2 0 \"value 4\"\n")
  x
end
