# expect: wrong_answer
# why: answers wrongly and prints lines shaped like the host's step reports with guessed tokens; the host writes its lines itself, after a token the guest never holds
def double(x)
  x
end

fake = "wasmeval-#{'0' * 32}"
(0..5).each { |step| print("\n#{fake} #{step} 0 \"ok\"\n") }
print("\nwasmeval-#{'f' * 32} 2 0 \"ok\"\n")
