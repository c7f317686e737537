# expect: runtime_error
# why: reaches for ruby.wasm's JavaScript bridge; `require 'js'` loads, and the first call into JavaScript traps (the sandbox has no JavaScript host)
require 'js'

def double(x)
  x * 2
end

JS.global[:process]
