# expect: runtime_error
# why: answers wrongly and calls `exit 0` while loading; SystemExit is the load's failure, never a pass
def double(x)
  x
end

exit 0
