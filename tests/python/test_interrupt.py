"""Ctrl-C during a sweep: SIGINT sets the engine's stop flag and the call
raises KeyboardInterrupt promptly, as the CLI stops (tests/cli/interrupt.sh)."""
import os
import signal
import threading
import time

import pytest

from conftest import PAPER16
import ecmpsim


def test_sigint_interrupts_a_long_sweep():
    cfg = ecmpsim.load(PAPER16)
    # The sweep's rate, measured (the difference of two sizes, without the
    # set-up), to show the long sweep would run far past the signal.
    took = []
    for n in (2000, 20000):
        t0 = time.monotonic()
        cfg.sweep(seeds=range(0, n), threads=2)
        took.append(time.monotonic() - t0)
    rate = 18000 / max(took[1] - took[0], 1e-3)
    seeds = 10_000_000
    predicted = seeds / rate
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        cfg.sweep(seeds=range(0, seeds), threads=2, force=True)
    elapsed = time.monotonic() - t0
    timer.join()
    # Negative control: without the signal the sweep would have run at least 10x longer.
    assert predicted > 10 * elapsed, (predicted, elapsed)
    assert elapsed < 5, elapsed
    # The module works after the interrupt: the next sweep completes.
    assert len(cfg.sweep(seeds=range(0, 10))) == 10


def test_a_signal_handler_raising_stops_the_sweep():
    """Any Python signal handler runs during the sweep, and its exception ends it."""
    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop()

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(Stop):
            ecmpsim.load(PAPER16).sweep(seeds=range(0, 20_000_000), threads=2, force=True)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
