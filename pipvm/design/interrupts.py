"""Ctrl-C (or a SIGTERM, as `timeout` sends) in `pipvm sim` and `pipvm
sweep`: it stops the games being played, never the report of the games
already played.

Inside held() the key is only noted (pressed twice, it is heard); inside heard() it raises
KeyboardInterrupt as Python's default for Ctrl-C does, and the simulators catch it
and return the games finished so far.  So a Ctrl-C pressed while a round
is summarised or the report written (or as the last game ends) is kept for
the next round's start, and the report of every game played is written.
Signals come to the main thread only; elsewhere held() and heard() do nothing."""
import contextlib
import signal
import threading

SIGNALS = (signal.SIGINT, signal.SIGTERM)
_pressed = False


def interrupt(signum, frame):
    """A handler: the signal as Ctrl-C (a SIGTERM ends a run as Ctrl-C does:
    with the report so far)."""
    raise KeyboardInterrupt


def _hold(signum, frame):
    global _pressed
    if _pressed:                # pressed again: the user means now
        raise KeyboardInterrupt
    _pressed = True


def on_main_thread():
    """Signals come to the main thread only: may a handler be set here?"""
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def held():
    global _pressed
    if not on_main_thread():
        yield
        return
    _pressed = False
    were = [signal.signal(s, _hold) for s in SIGNALS]
    try:
        yield
    finally:
        for s, was in zip(SIGNALS, were):
            signal.signal(s, was)


def pressed():
    """Was Ctrl-C pressed while held?"""
    return _pressed


@contextlib.contextmanager
def heard():
    if not (on_main_thread() and signal.getsignal(signal.SIGINT) is _hold):
        yield
        return
    for s in SIGNALS:
        signal.signal(s, interrupt)
    try:
        yield
    finally:
        for s in SIGNALS:
            signal.signal(s, _hold)
