# Threads without threads: the sandbox's CPython (wasm32-wasip1) has one thread, so `Thread.start`
# raised "can't start new thread" and a blocking lock aborted the process. Programs that use
# threads only to get a big stack (`threading.stack_size(2**27)` then `Thread(target=main)`), a
# pool whose tasks do not wait for each other, or a `Timer`, run correctly if each thread runs to
# its end when it starts. `_install` makes `threading` do that, before the candidate runs (the
# host puts this file and the call at the head of the prelude of programs that mention threads,
# queues or `concurrent`, core/src/evaluation/python.rs):
#
# - `Thread.start()` runs `run()` at once, to its end; an exception in it goes to
#   `threading.excepthook` (printed "Exception in thread ..." as a real thread's is) and the
#   program goes on; `join()` returns at once, `is_alive()` is false afterwards.
# - `ThreadPoolExecutor.submit` runs the call at once and returns its finished future (patched
#   when the program mentions `concurrent` or `Executor`: importing it is costly).
# - Waiting for something no other thread can now do is a deadlock: `Lock.acquire()` on a held
#   lock, `Condition.wait()`, `Event.wait()`, `Semaphore.acquire()` and `Queue.get()` on an
#   empty queue raise RuntimeError("deadlock: ..."), naming the sandbox's single thread; with a
#   timeout they let the (virtual) time pass and give up, as they would.
#
# Python calls use no C stack here, so `sys.setrecursionlimit` alone gives deep recursion; a
# thread's `stack_size` changes nothing. A daemon thread that loops forever runs forever: the
# fuel budget ends it.


def _install(executors):
    import sys
    import threading
    import time
    import _thread

    deadlock = (
        "deadlock: this waits for another thread, but the sandbox has one thread and runs each "
        "thread to its end when it starts, so nothing else can run"
    )

    def start(self):
        if not self._initialized:
            raise RuntimeError("thread.__init__() not called")
        if self.__dict__.get("_wasmeval_state") is not None:
            raise RuntimeError("threads can only be started once")
        self._wasmeval_state = "running"
        try:
            self.run()
        except SystemExit:
            pass
        except BaseException:
            threading.excepthook(threading.ExceptHookArgs([*sys.exc_info(), self]))
        finally:
            self._wasmeval_state = "done"

    def join(self, timeout=None):
        if self.__dict__.get("_wasmeval_state") is None:
            raise RuntimeError("cannot join thread before it is started")

    def is_alive(self):
        return self.__dict__.get("_wasmeval_state") == "running"

    threading.Thread.start = start
    threading.Thread.join = join
    threading.Thread.is_alive = is_alive

    def start_new_thread(function, args, kwargs=None):
        try:
            function(*args, **(kwargs or {}))
        except SystemExit:
            pass
        except BaseException:
            import traceback

            traceback.print_exc()
        return _thread.get_ident()

    _thread.start_new_thread = start_new_thread

    allocate = _thread.allocate_lock

    class Lock:
        """A lock that says "deadlock" where the real one would wait forever."""

        __slots__ = ("_lock",)

        def __init__(self):
            self._lock = allocate()

        def acquire(self, blocking=True, timeout=-1):
            if self._lock.acquire(False):
                return True
            if not blocking:
                return False
            if timeout is not None and timeout >= 0:
                time.sleep(timeout)
                return False
            raise RuntimeError(deadlock)

        def release(self):
            self._lock.release()

        def locked(self):
            return self._lock.locked()

        def __enter__(self):
            return self.acquire()

        def __exit__(self, *exception):
            self.release()

    threading.Lock = Lock

    def wait(self, timeout=None):
        if not self._is_owned():
            raise RuntimeError("cannot wait on un-acquired lock")
        if timeout is None or timeout < 0:
            raise RuntimeError(deadlock)
        # Nothing can notify us while we wait: the time passes and the wait gives up.
        time.sleep(timeout)
        return False

    threading.Condition.wait = wait

    # concurrent.futures costs more to import than all of the above: only when the program
    # names it (the host says so: `executors`).
    if not executors:
        return
    from concurrent.futures import Future, thread as pool

    def submit(self, function, /, *args, **kwargs):
        if getattr(self, "_shutdown", False):
            raise RuntimeError("cannot schedule new futures after shutdown")
        future = Future()
        try:
            result = function(*args, **kwargs)
        except BaseException as error:
            future.set_exception(error)
        else:
            future.set_result(result)
        return future

    pool.ThreadPoolExecutor.submit = submit


