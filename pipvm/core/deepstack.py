"""Running deeply recursive work (the front end's passes, nested actions)."""
import sys
import threading

# Nesting depth is limited only by memory: the work runs on a thread with a
# large stack and a high recursion limit.
_STACK_BYTES = 1 << 29
_RECURSION_LIMIT = 2_000_000


def deep(fn, *args):
    """Run fn(*args) on a thread whose stack fits very deep recursion."""
    result, error = [], []

    def target():
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(_RECURSION_LIMIT)
        try:
            result.append(fn(*args))
        except BaseException as e:   # handed to the calling thread
            error.append(e)
        finally:
            sys.setrecursionlimit(old)

    old_size = threading.stack_size(_STACK_BYTES)
    try:
        t = threading.Thread(target=target, name='pip-deep', daemon=True)
        t.start()
    finally:
        threading.stack_size(old_size)
    t.join()
    if error:
        raise error[0]
    return result[0]
