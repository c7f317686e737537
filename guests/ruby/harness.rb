# frozen_string_literal: true

# The Ruby guest's harness, loaded by the host's first evaluation (runner/src/languages/ruby.rs,
# which compiles it to an instruction sequence once per process).
# The host then evaluates one call per step; each returns a String, which the host itself reports
# after the token it never gives the guest (runner/src/sandbox/ruby_abi.rs):
#
# - `__wasmeval_load_program(path)`: the candidate (with the task's setup), at the top level;
# - `__wasmeval_assertion_case(path)`: a case's test code, then the `Test::Unit::TestCase` tests
#   it defined;
# - `__wasmeval_call(name, args)`: the candidate's function called with the case's arguments, its
#   return value as plain data (JSON with `$dict`, `$set` and `$float` tags; docs/formats.md);
# - `__wasmeval_main(path)`: a whole program, which ends the process with its exit status.
#
# Step results: `ok`, `value <json>`, `assertion <message>` or `error <class>: <message>`.
#
# The candidate shares this interpreter, so nothing the steps or the tests rely on may be the
# candidate's to rebind. Hence:
# - the steps are private methods of the top-level object's singleton class, which is frozen
#   before the candidate loads (the host's evaluations run with that object as `self`): removing
#   or redefining the `Wasmeval` constant changes nothing;
# - every core method the harness and the `test/unit` stand-in call is captured here, before the
#   candidate loads, as an UnboundMethod (a constant of this frozen module) and called with
#   `bind_call`; `UnboundMethod` and `Method` are frozen, so that `bind_call` and a test's
#   `candidate.call` stay Ruby's. Operators (`==`, `<`, `+`, `!`) and `case`/`rescue` matching
#   dispatch to methods a candidate can redefine, so this file avoids them where it matters;
# - what could rewrite a running frame or reach any object is removed: TracePoint and
#   `set_trace_func` (a frame's binding), `callcc` (a continuation taken while the program loaded
#   would answer a later step), `ObjectSpace.each_object`/`_id2ref` and the `objspace` extension
#   (every object, the tests' expected values included), loading binary instruction sequences;
# - the tests' classes are found and checked by the harness itself (`assertion_case`), frozen
#   before they run, and their assertions compare core values with the captured methods.
#
# What stays the candidate's: core classes are open (a candidate may add or redefine methods), so
# test code that calls core methods itself (`raise '...' unless f(1) == 2`) or helpers of its
# own, rather than the stand-in's assertions, sees the candidate's versions; such cases say
# `judged_by: guest`. `calls` values are compared on the host with expected values that never
# enter the guest.
$LOAD_PATH.unshift('/job/lib')

module Wasmeval
  # Core classes under names of this (frozen) module: constant lookup in the harness's methods
  # finds these first, whatever the candidate does to Object's constants.
  Array = ::Array
  BasicObject = ::BasicObject
  Binding = ::Binding
  Class = ::Class
  Complex = ::Complex
  Dir = ::Dir
  Encoding = ::Encoding
  Exception = ::Exception
  File = ::File
  Float = ::Float
  Hash = ::Hash
  Integer = ::Integer
  IO = ::IO
  Kernel = ::Kernel
  LoadError = ::LoadError
  Method = ::Method
  Module = ::Module
  Object = ::Object
  Proc = ::Proc
  Range = ::Range
  Rational = ::Rational
  Regexp = ::Regexp
  String = ::String
  Symbol = ::Symbol
  StandardError = ::StandardError
  SystemExit = ::SystemExit
  TypeError = ::TypeError
  UnboundMethod = ::UnboundMethod

  H = self
  MAIN = ::TOPLEVEL_BINDING.receiver
  TOPLEVEL = ::TOPLEVEL_BINDING
  STDOUT = ::STDOUT
  STDERR = ::STDERR

  # A `rescue` pattern that matches every exception: `rescue X` calls `X.===`, which a candidate
  # can redefine for Exception and its subclasses, but not for this frozen module.
  ANY = Module.new
  def ANY.===(_exception) = true

  def self.instance(owner, name) = owner.instance_method(name)

  IDENTICAL = instance(BasicObject, :equal?)
  SEND = instance(BasicObject, :__send__)
  CLASS_OF = instance(Kernel, :class)
  KIND_OF = instance(Kernel, :kind_of?)
  FREEZE = instance(Kernel, :freeze)
  RAISE = instance(Kernel, :raise)
  FAIL = instance(Kernel, :fail)
  METHOD = instance(Kernel, :method)
  PUBLIC_SEND = instance(Kernel, :public_send)
  SINGLETON_CLASS = instance(Kernel, :singleton_class)
  IVAR_GET = instance(Kernel, :instance_variable_get)
  FORMAT = instance(Kernel, :format)
  REQUIRE = instance(Kernel, :require)
  EXIT = instance(Kernel, :exit!)
  ANCESTORS = instance(Module, :ancestors)
  MODULE_NAME = instance(Module, :name)
  MODULE_TO_S = instance(Module, :to_s)
  PUBLIC_METHODS = instance(Module, :public_instance_methods)
  INSTANCE_METHODS = instance(Module, :instance_methods)
  PRIVATE_METHODS = instance(Module, :private_instance_methods)
  INSTANCE_METHOD = instance(Module, :instance_method)
  CONST_DEFINED = instance(Module, :const_defined?)
  CONST_GET = instance(Module, :const_get)
  CONST_SET = instance(Module, :const_set)
  REMOVE_CONST = instance(Module, :remove_const)
  ALLOCATE = instance(Class, :allocate)
  SUBCLASSES = instance(Class, :subclasses)
  SOURCE_LOCATION = instance(UnboundMethod, :source_location)
  BINDING_EVAL = instance(Binding, :eval)
  IO_READ = instance(IO.singleton_class, :read)
  IO_FLUSH = instance(IO, :flush)
  DIR_GLOB = instance(Dir.singleton_class, :glob)
  PROC_CALL = instance(Proc, :call)
  EXCEPTION_MESSAGE = instance(Exception, :message)
  ARY_SIZE = instance(Array, :size)
  ARY_AT = instance(Array, :[])
  ARY_PUSH = instance(Array, :push)
  ARY_POP = instance(Array, :pop)
  ARY_EMPTY = instance(Array, :empty?)
  ARY_EACH = instance(Array, :each)
  ARY_JOIN = instance(Array, :join)
  ARY_SORT = instance(Array, :sort)
  ARY_MINUS = instance(Array, :-)
  ARY_CONCAT = instance(Array, :concat)
  ARY_CLEAR = instance(Array, :clear)
  HASH_SIZE = instance(Hash, :size)
  HASH_KEY = instance(Hash, :key?)
  HASH_AT = instance(Hash, :[])
  HASH_KEYS = instance(Hash, :keys)
  STR_EQ = instance(String, :==)
  STR_CMP = instance(String, :<=>)
  STR_START_WITH = instance(String, :start_with?)
  STR_SPLIT = instance(String, :split)
  STR_SCAN = instance(String, :scan)
  STR_B = instance(String, :b)
  STR_FORCE_ENCODING = instance(String, :force_encoding)
  STR_SCRUB = instance(String, :scrub)
  STR_GSUB = instance(String, :gsub)
  SYM_NAME = instance(Symbol, :name)
  INT_EQ = instance(Integer, :==)
  INT_GT = instance(Integer, :>)
  INT_LT = instance(Integer, :<)
  INT_PLUS = instance(Integer, :+)
  INT_TO_S = instance(Integer, :to_s)
  FLOAT_EQ = instance(Float, :==)
  FLOAT_TO_S = instance(Float, :to_s)
  FLOAT_NAN = instance(Float, :nan?)
  FLOAT_INFINITE = instance(Float, :infinite?)
  RATIONAL_EQ = instance(Rational, :==)
  COMPLEX_EQ = instance(Complex, :==)
  ARY_EQ = instance(Array, :==)
  HASH_EQ = instance(Hash, :==)
  RANGE_BEGIN = instance(Range, :begin)
  RANGE_END = instance(Range, :end)
  RANGE_EXCLUDE_END = instance(Range, :exclude_end?)
  # assert_in_delta's arithmetic, per numeric class.
  MINUS = [instance(Integer, :-), instance(Float, :-), instance(Rational, :-), instance(Complex, :-)].freeze
  ABS = [instance(Integer, :abs), instance(Float, :abs), instance(Rational, :abs), instance(Complex, :abs)].freeze
  AT_MOST = [instance(Integer, :<=), instance(Float, :<=), instance(Rational, :<=), nil].freeze

  # JSON's escapes of the characters a string literal cannot hold as they are.
  ESCAPES = (0..31).to_h { |c| [c.chr, format('\\u%04x', c).freeze] }
                   .merge('"' => '\\"', '\\' => '\\\\', "\n" => '\\n', "\x7f" => '\\u007f').freeze
  ESCAPED = /["\\\u0000-\u001f\u007f]/
  # A test class as the tests declare one: its name, last part.
  TEST_CLASS = /^[ \t]*class[ \t]+(?:[A-Z]\w*::)*([A-Z]\w*)[ \t]*<[ \t]*(?:::)?Test::Unit::TestCase\b/
  # Names the tests' code may use, for restoring them (see `restore_constants`).
  CAPITALIZED = /(?<![\w:$@])[A-Z]\w*/

  # Blocks given to `at_exit` by the program, run (last first) at the end of the step that
  # registered them: a reactor's interpreter never exits, so Ruby itself would never run them.
  EXIT_BLOCKS = []

  class << self
    def load_program(path)
      step do
        evaluate(read(path), path)
        'ok'
      end
    end

    def assertion_case(path)
      step do
        code = read(path)
        restore_constants(code)
        forget_test_classes
        known = test_classes
        evaluate(code, path)
        fresh = ARY_MINUS.bind_call(test_classes, known)
        check_declared(code, fresh)
        fresh = FREEZE.bind_call(ARY_SORT.bind_call(fresh) { |a, b| STR_CMP.bind_call(display(a), display(b)) })
        ARY_EACH.bind_call(fresh) { |klass| check_and_freeze(klass, path) }
        ARY_EACH.bind_call(fresh) { |klass| run_tests(klass) }
        'ok'
      end
    end

    def call(name, args)
      step { "value #{plain(SEND.bind_call(MAIN, name, *args), 0)}" }
    end

    def main(path)
      status = 0
      begin
        # Relative paths are the program's /tmp, as for a program run from its own folder.
        Dir.chdir('/tmp') if File.directory?('/tmp')
        $PROGRAM_NAME = path
        evaluate(read(path), path)
        run_exit_blocks
      rescue SystemExit => e
        status = e.status
      rescue Exception => e # rubocop:disable Lint/RescueException
        $stderr.write(e.full_message(highlight: false))
        status = 1
      end
      flush
      EXIT.bind_call(MAIN, status)
    end

    # `require` with the bundled gems (prime, matrix, minitest, ...) and without RubyGems, which
    # the interpreter starts without: their lib folders join the load path, after the standard
    # library's, when a `require` first misses (every require after that pays for the longer
    # path: about 20 M fuel a run).
    def require_feature(feature)
      REQUIRE.bind_call(MAIN, feature)
    rescue ANY => e
      RAISE.bind_call(MAIN, e) unless KIND_OF.bind_call(e, LoadError)
      gems = ARY_MINUS.bind_call(DIR_GLOB.bind_call(Dir, '/usr/local/lib/ruby/gems/*/gems/*/lib'), $LOAD_PATH)
      RAISE.bind_call(MAIN, e) if ARY_EMPTY.bind_call(gems)

      ARY_CONCAT.bind_call($LOAD_PATH, gems)
      REQUIRE.bind_call(MAIN, feature)
    end

    # Whether `expected == actual`, as Ruby answers it with its core classes as they were before
    # the candidate loaded: numbers, strings, symbols, nil, booleans, arrays, hashes, sets and
    # ranges are compared with the captured methods, element by element (the candidate's
    # `Integer#==` or `Array#==` play no part); a value of another class answers with its own
    # `==`, as in Ruby (`4 == x` asks `x == 4` when x is not a number).
    def same?(expected, actual, depth = 0)
      a = family(expected)
      b = family(actual)
      if a && b
        same_family(a, b, expected, actual, depth)
      elsif a
        one_core(a, expected, actual)
      else
        SEND.bind_call(expected, :==, actual)
      end
    end

    # Whether `actual` is within `delta` of `expected` (`(expected - actual).abs <= delta`), with
    # the captured arithmetic for core numbers.
    def within?(expected, actual, delta)
      difference = numeric(MINUS, expected, :-, actual)
      numeric(AT_MOST, numeric(ABS, difference, :abs), :<=, delta)
    end

    # An assertion's failure: Test::Unit::AssertionFailedError, raised with Kernel#raise.
    def fail_test(message)
      RAISE.bind_call(MAIN, FAILURE, message)
    end

    # `value.inspect` for a message, whatever it does.
    def show(value)
      text = SEND.bind_call(value, :inspect)
      KIND_OF.bind_call(text, String) ? text : '(an inspect that is not a String)'
    rescue ANY
      '(not inspectable)'
    end

    private

    # Runs a step, its `at_exit` blocks included; its result (frozen: the program's code may run
    # before the host reads it), or how it failed.
    def step
      result = FREEZE.bind_call(yield)
      run_exit_blocks
      result
    rescue ANY => e
      FREEZE.bind_call(failure(e))
    ensure
      ARY_CLEAR.bind_call(EXIT_BLOCKS)
      flush
    end

    def failure(error)
      message = EXCEPTION_MESSAGE.bind_call(error)
      message = '(a message that is not a String)' unless KIND_OF.bind_call(message, String)
      return "assertion #{message}" if KIND_OF.bind_call(error, FAILURE)

      "error #{display(CLASS_OF.bind_call(error))}: #{message}"
    rescue ANY
      'error (an exception that cannot be described)'
    end

    def read(path) = FREEZE.bind_call(IO_READ.bind_call(File, path))

    def evaluate(code, path) = BINDING_EVAL.bind_call(TOPLEVEL, code, path, 1)

    def run_exit_blocks
      PROC_CALL.bind_call(ARY_POP.bind_call(EXIT_BLOCKS)) until ARY_EMPTY.bind_call(EXIT_BLOCKS)
    end

    # The real standard streams (not `$stdout`, which is the program's to replace).
    def flush
      IO_FLUSH.bind_call(STDOUT)
      IO_FLUSH.bind_call(STDERR)
    rescue ANY
      nil
    end

    def display(mod)
      name = MODULE_NAME.bind_call(mod)
      KIND_OF.bind_call(name, String) ? name : MODULE_TO_S.bind_call(mod)
    end

    # Object's constants that the tests' code names and that were classes or modules when the
    # harness loaded (`Test`, `Float`, `Integer`, ...) are put back before the tests run, so that
    # `Test::Unit::TestCase` in the tests is the stand-in's, whatever the program removed or
    # replaced.
    def restore_constants(code)
      ARY_EACH.bind_call(STR_SCAN.bind_call(code, CAPITALIZED)) do |name|
        index = position(CORE_NAMES, name)
        next unless index

        value = ARY_AT.bind_call(CORE_VALUES, index)
        next if CONST_DEFINED.bind_call(Object, name, false) &&
                IDENTICAL.bind_call(CONST_GET.bind_call(Object, name, false), value)

        REMOVE_CONST.bind_call(Object, name) if CONST_DEFINED.bind_call(Object, name, false)
        CONST_SET.bind_call(Object, name, value)
      end
    end

    # Every subclass of the stand-in's TestCase, through the classes' own records (no hook of
    # theirs is involved).
    def test_classes
      found = []
      pending = [TEST_CASE]
      until ARY_EMPTY.bind_call(pending)
        ARY_EACH.bind_call(SUBCLASSES.bind_call(ARY_POP.bind_call(pending))) do |klass|
          ARY_PUSH.bind_call(found, klass)
          ARY_PUSH.bind_call(pending, klass)
        end
      end
      found
    end

    # The constants naming test classes that exist before a case's code runs (the program's, an
    # earlier case's) are removed, so that the tests' `class TestX < Test::Unit::TestCase`
    # defines a new class rather than reopening one the program prepared.
    def forget_test_classes
      ARY_EACH.bind_call(test_classes) do |klass|
        name = MODULE_NAME.bind_call(klass)
        next unless KIND_OF.bind_call(name, String)

        parts = STR_SPLIT.bind_call(name, '::')
        last = ARY_POP.bind_call(parts)
        owner = Object
        ARY_EACH.bind_call(parts) { |part| owner = CONST_GET.bind_call(owner, part, false) }
        next unless CONST_DEFINED.bind_call(owner, last, false) &&
                    IDENTICAL.bind_call(CONST_GET.bind_call(owner, last, false), klass)

        REMOVE_CONST.bind_call(owner, last)
      rescue ANY
        nil
      end
    end

    # Every `class X < Test::Unit::TestCase` of the tests' code must be one of the classes it
    # defined (a program that swapped `Test` for a module of its own while the code ran would
    # otherwise leave no test to run).
    def check_declared(code, fresh)
      ARY_EACH.bind_call(STR_SCAN.bind_call(code, TEST_CLASS)) do |match|
        wanted = ARY_AT.bind_call(match, 0)
        found = false
        ARY_EACH.bind_call(fresh) do |klass|
          last = ARY_AT.bind_call(STR_SPLIT.bind_call(display(klass), '::'), -1)
          found = true if STR_EQ.bind_call(last, wanted)
        end
        next if found

        RAISE.bind_call(MAIN, TypeError, "the tests' #{wanted} is not a Test::Unit::TestCase: the program replaced it")
      end
    end

    # A test class must be the tests' alone: nothing prepended, every method of its own defined by
    # the tests' file, and no module between it and TestCase redefining the stand-in's methods
    # (`assert_equal`, `method`, `setup`, ...) from elsewhere. Then it and its singleton class are
    # frozen, so that the program, which its tests call, cannot change it while they run.
    def check_and_freeze(klass, path)
      ancestors = ANCESTORS.bind_call(klass)
      changed = "the test class #{display(klass)} was changed by the program"
      RAISE.bind_call(MAIN, TypeError, changed) unless IDENTICAL.bind_call(ARY_AT.bind_call(ancestors, 0), klass)
      ARY_EACH.bind_call(own_methods(klass)) do |name|
        RAISE.bind_call(MAIN, TypeError, changed) unless defined_in?(klass, name, path)
      end
      index = 1
      while INT_LT.bind_call(index, ARY_SIZE.bind_call(ancestors))
        between = ARY_AT.bind_call(ancestors, index)
        break if IDENTICAL.bind_call(between, TEST_CASE)

        ARY_EACH.bind_call(own_methods(between)) do |name|
          next unless position(STAND_IN, name)

          RAISE.bind_call(MAIN, TypeError, changed) unless defined_in?(between, name, path)
        end
        index = INT_PLUS.bind_call(index, 1)
      end
      singleton = SINGLETON_CLASS.bind_call(klass)
      RAISE.bind_call(MAIN, TypeError, changed) unless IDENTICAL.bind_call(ARY_AT.bind_call(ANCESTORS.bind_call(singleton), 0), singleton)
      FREEZE.bind_call(klass)
      FREEZE.bind_call(singleton)
    end

    # The instance methods `mod` defines itself, of any visibility.
    def own_methods(mod)
      ARY_CONCAT.bind_call(INSTANCE_METHODS.bind_call(mod, false), PRIVATE_METHODS.bind_call(mod, false))
    end

    def defined_in?(mod, name, path)
      location = SOURCE_LOCATION.bind_call(INSTANCE_METHOD.bind_call(mod, name))
      location ? STR_EQ.bind_call(ARY_AT.bind_call(location, 0), path) : false
    end

    # Runs the `test*` methods of `klass`, in name order, each on a new instance whose singleton
    # class is frozen (the program cannot give it methods of its own), with `setup` and
    # `teardown`; a failed assertion or an error ends the case.
    def run_tests(klass)
      names = []
      ARY_EACH.bind_call(PUBLIC_METHODS.bind_call(klass, true)) do |symbol|
        name = SYM_NAME.bind_call(symbol)
        ARY_PUSH.bind_call(names, name) if STR_START_WITH.bind_call(name, 'test')
      end
      names = FREEZE.bind_call(ARY_SORT.bind_call(names) { |a, b| STR_CMP.bind_call(a, b) })
      ARY_EACH.bind_call(names) do |name|
        test = ALLOCATE.bind_call(klass)
        FREEZE.bind_call(SINGLETON_CLASS.bind_call(test))
        SEND.bind_call(test, :setup)
        begin
          PUBLIC_SEND.bind_call(test, name)
        ensure
          SEND.bind_call(test, :teardown)
        end
      end
    end

    # The core class whose rules compare `value` (`:identity` for nil, booleans and symbols, `:set`
    # for a set), or nil for another class's value.
    def family(value)
      return :identity if IDENTICAL.bind_call(value, nil) || IDENTICAL.bind_call(value, true) ||
                          IDENTICAL.bind_call(value, false) || KIND_OF.bind_call(value, Symbol)

      ARY_EACH.bind_call(FAMILIES) { |klass| return klass if KIND_OF.bind_call(value, klass) }
      set_members(value) ? :set : nil
    end

    # The Hash holding a set's members, or nil for a value that is not a set: an instance of a
    # class named Set (or of its subclass) with its members in `@hash`, as set.rb keeps them.
    # (Set is autoloaded: naming it here would load set.rb into every run, about 18 M fuel; the
    # members are compared, or written, as plain data whoever defined the class.)
    def set_members(value)
      members = IVAR_GET.bind_call(value, :@hash)
      return nil unless KIND_OF.bind_call(members, Hash)

      ARY_EACH.bind_call(ANCESTORS.bind_call(CLASS_OF.bind_call(value))) do |mod|
        name = MODULE_NAME.bind_call(mod)
        return members if KIND_OF.bind_call(name, String) && STR_EQ.bind_call(name, 'Set')
      end
      nil
    end

    def number?(family) = position(NUMBERS, family)

    # The index of `item` in `list` (compared as the same object, or as equal strings), or nil.
    def position(list, item)
      index = 0
      ARY_EACH.bind_call(list) do |member|
        return index if IDENTICAL.bind_call(member, item) ||
                        (KIND_OF.bind_call(member, String) && KIND_OF.bind_call(item, String) &&
                         STR_EQ.bind_call(member, item))

        index = INT_PLUS.bind_call(index, 1)
      end
      nil
    end

    def same_family(a, b, expected, actual, depth)
      if number?(a)
        number?(b) && numbers_equal(a, b, expected, actual)
      elsif IDENTICAL.bind_call(a, b)
        same_kind(a, expected, actual, depth)
      else
        false
      end
    end

    def numbers_equal(a, b, expected, actual)
      return COMPLEX_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(a, Complex)
      return COMPLEX_EQ.bind_call(actual, expected) if IDENTICAL.bind_call(b, Complex)
      return RATIONAL_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(a, Rational)
      return RATIONAL_EQ.bind_call(actual, expected) if IDENTICAL.bind_call(b, Rational)
      return INT_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(a, Integer)

      FLOAT_EQ.bind_call(expected, actual)
    end

    def same_kind(family, expected, actual, depth)
      return IDENTICAL.bind_call(expected, actual) if IDENTICAL.bind_call(family, :identity)
      return STR_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(family, String)
      # Nested past any test's values: a cycle, which Ruby's own comparison would also stop.
      return IDENTICAL.bind_call(expected, actual) if INT_GT.bind_call(depth, 100)

      depth = INT_PLUS.bind_call(depth, 1)
      return arrays_equal(expected, actual, depth) if IDENTICAL.bind_call(family, Array)
      return hashes_equal(expected, actual, depth) if IDENTICAL.bind_call(family, Hash)
      return sets_equal(expected, actual) if IDENTICAL.bind_call(family, :set)

      element_equal(RANGE_BEGIN.bind_call(expected), RANGE_BEGIN.bind_call(actual), depth) &&
        element_equal(RANGE_END.bind_call(expected), RANGE_END.bind_call(actual), depth) &&
        IDENTICAL.bind_call(RANGE_EXCLUDE_END.bind_call(expected), RANGE_EXCLUDE_END.bind_call(actual))
    end

    # Ruby's `rb_equal`, which compares an array's or a hash's items: the same object is equal.
    def element_equal(expected, actual, depth)
      IDENTICAL.bind_call(expected, actual) || same?(expected, actual, depth)
    end

    def arrays_equal(expected, actual, depth)
      return false unless INT_EQ.bind_call(ARY_SIZE.bind_call(expected), ARY_SIZE.bind_call(actual))

      index = 0
      ARY_EACH.bind_call(expected) do |item|
        return false unless element_equal(item, ARY_AT.bind_call(actual, index), depth)

        index = INT_PLUS.bind_call(index, 1)
      end
      true
    end

    def hashes_equal(expected, actual, depth)
      return false unless INT_EQ.bind_call(HASH_SIZE.bind_call(expected), HASH_SIZE.bind_call(actual))

      ARY_EACH.bind_call(HASH_KEYS.bind_call(expected)) do |key|
        return false unless HASH_KEY.bind_call(actual, key) &&
                            element_equal(HASH_AT.bind_call(expected, key), HASH_AT.bind_call(actual, key), depth)
      end
      true
    end

    def sets_equal(expected, actual)
      mine = set_members(expected)
      theirs = set_members(actual)
      return false unless INT_EQ.bind_call(HASH_SIZE.bind_call(mine), HASH_SIZE.bind_call(theirs))

      ARY_EACH.bind_call(HASH_KEYS.bind_call(mine)) { |item| return false unless HASH_KEY.bind_call(theirs, item) }
      true
    end

    # `expected == actual` when only `expected` is a core value: Ruby's own answer (the captured
    # method asks `actual` where Ruby would), false between families that never compare equal.
    def one_core(family, expected, actual)
      return IDENTICAL.bind_call(expected, actual) if IDENTICAL.bind_call(family, :identity)
      return INT_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(family, Integer)
      return FLOAT_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(family, Float)
      return RATIONAL_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(family, Rational)
      return COMPLEX_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(family, Complex)
      return STR_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(family, String)
      return ARY_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(family, Array)
      return HASH_EQ.bind_call(expected, actual) if IDENTICAL.bind_call(family, Hash)

      false
    end

    # `value.op(*args)` with the captured method of `methods` (Integer's, Float's, Rational's,
    # Complex's) for a core number, else `value`'s own.
    def numeric(methods, value, op, *args)
      index = 0
      ARY_EACH.bind_call(NUMBERS) do |klass|
        if KIND_OF.bind_call(value, klass)
          method = ARY_AT.bind_call(methods, index)
          return method ? method.bind_call(value, *args) : SEND.bind_call(value, op, *args)
        end
        index = INT_PLUS.bind_call(index, 1)
      end
      SEND.bind_call(value, op, *args)
    end

    # `value` as JSON in the plain-data form of `calls` values.
    def plain(value, depth)
      RAISE.bind_call(MAIN, TypeError, 'a value nested more than 100 deep is not plain data') if INT_GT.bind_call(depth, 100)

      return 'null' if IDENTICAL.bind_call(value, nil)
      return 'true' if IDENTICAL.bind_call(value, true)
      return 'false' if IDENTICAL.bind_call(value, false)
      return INT_TO_S.bind_call(value) if KIND_OF.bind_call(value, Integer)
      return float(value) if KIND_OF.bind_call(value, Float)
      return string(value) if KIND_OF.bind_call(value, String)

      depth = INT_PLUS.bind_call(depth, 1)
      if KIND_OF.bind_call(value, Array)
        return "[#{items(value, depth)}]"
      elsif KIND_OF.bind_call(value, Hash)
        pairs = []
        ARY_EACH.bind_call(HASH_KEYS.bind_call(value)) do |key|
          ARY_PUSH.bind_call(pairs, "[#{plain(key, depth)},#{plain(HASH_AT.bind_call(value, key), depth)}]")
        end
        return "{\"$dict\":[#{ARY_JOIN.bind_call(pairs, ',')}]}"
      elsif (members = set_members(value))
        return "{\"$set\":[#{items(HASH_KEYS.bind_call(members), depth)}]}"
      end
      RAISE.bind_call(MAIN, TypeError, "a #{display(CLASS_OF.bind_call(value))} is not plain data")
    end

    def items(array, depth)
      parts = []
      ARY_EACH.bind_call(array) { |item| ARY_PUSH.bind_call(parts, plain(item, depth)) }
      ARY_JOIN.bind_call(parts, ',')
    end

    def float(value)
      return '{"$float":"nan"}' if FLOAT_NAN.bind_call(value)

      infinite = FLOAT_INFINITE.bind_call(value)
      return FLOAT_TO_S.bind_call(value) unless infinite

      IDENTICAL.bind_call(infinite, 1) ? '{"$float":"inf"}' : '{"$float":"-inf"}'
    end

    def string(value)
      text = STR_SCRUB.bind_call(STR_FORCE_ENCODING.bind_call(STR_B.bind_call(value), Encoding::UTF_8))
      "\"#{STR_GSUB.bind_call(text, ESCAPED, ESCAPES)}\""
    end
  end

  # The classes `family` knows, most specific first, and the numbers among them (in the order of
  # MINUS, ABS and AT_MOST).
  NUMBERS = [Integer, Float, Rational, Complex].freeze
  FAMILIES = [Integer, Float, Rational, Complex, String, Array, Hash, Range].freeze

  # The steps, as the host calls them: private methods of the top-level object, where the host's
  # evaluations run. Its singleton class is frozen below, so no program can replace them.
  def MAIN.__wasmeval_load_program(path) = H.load_program(path)
  def MAIN.__wasmeval_assertion_case(path) = H.assertion_case(path)
  def MAIN.__wasmeval_call(name, args) = H.call(name, args)
  def MAIN.__wasmeval_main(path) = H.main(path)
  # The top-level code of the tests calls these; the program's own redefinitions of them (a
  # `def raise` at the top level) stay in Object, behind the top-level object's singleton class.
  MAIN.singleton_class.define_method(:raise, RAISE)
  MAIN.singleton_class.define_method(:fail, FAIL)
  MAIN.singleton_class.define_method(:method, METHOD)
  # `require 'test/unit'` in the tests' code is the stand-in, already loaded, whatever the
  # program did to `$LOAD_PATH` or `$LOADED_FEATURES`.
  def MAIN.require(feature)
    return false if KIND_OF.bind_call(feature, String) && STR_EQ.bind_call(feature, 'test/unit')

    H.require_feature(feature)
  end
  MAIN.singleton_class.send(
    :private, :__wasmeval_load_program, :__wasmeval_assertion_case, :__wasmeval_call, :__wasmeval_main,
    :raise, :fail, :require
  )

  module Requiring
    private

    def require(feature) = H.require_feature(feature)
  end
end

# Kernel#require for everyone else (the program, the standard library): the same lookup.
Kernel.send(:define_method, :require, Wasmeval::Requiring.instance_method(:require))
Kernel.send(:private, :require)
# The stand-in, compiled by the host beforehand as this file is (runner/src/languages/ruby.rs),
# then recorded as loaded, so that `require 'test/unit'` finds it.
RubyVM::InstructionSequence.load_from_binary(File.binread('/job/lib/test/unit.bin')).eval
$LOADED_FEATURES << '/job/lib/test/unit.rb'

module Kernel
  private

  # `at_exit` keeps the block for the harness (see `Wasmeval::EXIT_BLOCKS`).
  def at_exit(&block)
    Wasmeval::EXIT_BLOCKS << block
    block
  end
end

module Wasmeval
  FAILURE = Test::Unit::AssertionFailedError
  TEST_CASE = Test::Unit::TestCase
  # The stand-in's own methods (assertions, `method`, `setup`, ...), which nothing between a test
  # class and TestCase may redefine from elsewhere.
  STAND_IN = (TEST_CASE.instance_methods(false) + TEST_CASE.private_instance_methods(false) +
              Test::Unit::Assertions.instance_methods(false) +
              Test::Unit::Assertions.private_instance_methods(false)).uniq.freeze

  # The classes and modules among Object's constants now (not autoloaded ones, which would load
  # their library), for `restore_constants`.
  core = Object.constants.reject { |name| Object.autoload?(name) }
                  .map { |name| [name.name, Object.const_get(name)] }
                  .select { |_, value| value.is_a?(Module) }
  CORE_NAMES = core.map(&:first).freeze
  CORE_VALUES = core.map(&:last).freeze
end

# Before the candidate loads: what could rewrite a running frame, reach every object, or jump
# back into an earlier step goes (see the top), and what the harness relies on is frozen.
begin
  require 'continuation'
rescue LoadError
  nil
end
[Kernel, Kernel.singleton_class].product(%i[set_trace_func callcc]).each do |mod, name|
  mod.send(:undef_method, name)
rescue NameError
  nil
end
%i[set_trace_func add_trace_func].each { |name| Thread.send(:undef_method, name) }
%i[new trace allow_reentry].each { |name| TracePoint.singleton_class.send(:undef_method, name) }
TracePoint.send(:undef_method, :enable)
[ObjectSpace, ObjectSpace.singleton_class].each do |mod|
  %i[each_object _id2ref].each { |name| mod.send(:undef_method, name) }
end
%i[load_from_binary load_from_binary_extra_data].each do |name|
  RubyVM::InstructionSequence.singleton_class.send(:undef_method, name)
end
if defined?(Continuation)
  %i[call []].each { |name| Continuation.send(:undef_method, name) }
end
# Frozen with their singleton classes: the harness and the stand-in; the classes whose methods it
# calls through (UnboundMethod#bind_call, a test's Method#call); the top-level object's singleton
# class (the steps); what was emptied above (re-requiring `continuation` or `objspace` then fails
# instead of defining its methods again).
[
  Wasmeval, Wasmeval::ANY, Wasmeval::Requiring, Test, Test::Unit, Test::Unit::Assertions, Test::Unit::TestCase,
  Test::Unit::AssertionFailedError, UnboundMethod, Method, TracePoint, ObjectSpace,
  RubyVM::InstructionSequence, (Continuation if defined?(Continuation))
].compact.each do |mod|
  mod.singleton_class.freeze
  mod.freeze
end
Wasmeval::MAIN.singleton_class.freeze
