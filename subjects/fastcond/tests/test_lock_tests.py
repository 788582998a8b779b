"""CPython's own test.lock_tests run against fastcond.

Condition tests use fastcond.Condition directly; Event, Barrier, Semaphore
and BoundedSemaphore are the stdlib classes built while fastcond.patch() is
active, so their internal Condition is fastcond's.
"""
import threading
import unittest

import pytest

import fastcond

lock_tests = pytest.importorskip("test.lock_tests")


class Patched:
    def setUp(self):
        fastcond.patch()
        self.addCleanup(fastcond.unpatch)
        super().setUp()


class FastcondConditionTests(lock_tests.ConditionTests):
    condtype = staticmethod(fastcond.Condition)


class FastcondConditionAsRLockTests(lock_tests.RLockTests):
    # like the stdlib's Condition, it exports its default RLock's API
    locktype = staticmethod(fastcond.Condition)

    def test_recursion_count(self):
        self.skipTest("Condition does not expose _recursion_count()")


class FastcondEventTests(Patched, lock_tests.EventTests):
    eventtype = staticmethod(lambda: threading.Event())

    def test_uses_fastcond(self):
        self.assertIs(type(self.eventtype()._cond), fastcond.Condition)


class FastcondSemaphoreTests(Patched, lock_tests.SemaphoreTests):
    semtype = staticmethod(lambda *a, **k: threading.Semaphore(*a, **k))

    def test_uses_fastcond(self):
        self.assertIs(type(self.semtype()._cond), fastcond.Condition)


class FastcondBoundedSemaphoreTests(Patched, lock_tests.BoundedSemaphoreTests):
    semtype = staticmethod(lambda *a, **k: threading.BoundedSemaphore(*a, **k))

    def test_uses_fastcond(self):
        self.assertIs(type(self.semtype()._cond), fastcond.Condition)


class FastcondBarrierTests(Patched, lock_tests.BarrierTests):
    barriertype = staticmethod(lambda *a, **k: threading.Barrier(*a, **k))

    def test_uses_fastcond(self):
        self.assertIs(type(self.barriertype(2)._cond), fastcond.Condition)


if __name__ == "__main__":
    unittest.main()
