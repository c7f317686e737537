# expect: wrong_answer
# why: answers wrongly and would watch the stand-in's frames: a `TracePoint` on calls that overwrites `assert_equal`'s and `assert_in_delta`'s `actual` with its `expected` through the frame's binding, and `set_trace_func` doing the same; the harness removes both before the candidate loads
def double(x)
  x
end

begin
  TracePoint.new(:call) do |tp|
    if %i[assert_equal assert_in_delta].include?(tp.method_id)
      tp.binding.local_variable_set(:actual, tp.binding.local_variable_get(:expected))
    end
  end.enable
rescue Exception # rubocop:disable Lint/RescueException
  nil
end

begin
  set_trace_func(proc do |event, _file, _line, id, binding, _klass|
    if event == 'call' && %i[assert_equal assert_in_delta].include?(id)
      binding.local_variable_set(:actual, binding.local_variable_get(:expected))
    end
  end)
rescue Exception # rubocop:disable Lint/RescueException
  nil
end
