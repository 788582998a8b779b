"""CPython's test.test_queue with fastcond.patch() active.

queue.Queue builds its Conditions in __init__ (threading.Condition(mutex)),
so patching in setUp, before each test makes its queues, is enough.
"""
import queue
import unittest

import pytest

import fastcond

tq = pytest.importorskip("test.test_queue")


class Patched:
    def setUp(self):
        fastcond.patch()
        self.addCleanup(fastcond.unpatch)
        super().setUp()


for _name in dir(tq):
    _obj = getattr(tq, _name)
    if (isinstance(_obj, type) and issubclass(_obj, unittest.TestCase)
            and _obj.__module__ == tq.__name__):
        globals()["Patched" + _name] = type("Patched" + _name, (Patched, _obj), {})
del _name, _obj


class TestPatchReachesQueue(Patched, unittest.TestCase):
    def test_queue_uses_fastcond(self):
        q = queue.Queue()
        for c in (q.not_empty, q.not_full, q.all_tasks_done):
            self.assertIs(type(c), fastcond.Condition)
            self.assertIs(c._lock, q.mutex)

    def test_unpatch_restores(self):
        fastcond.unpatch()
        self.assertFalse(fastcond.is_patched())
        self.assertIsNot(type(queue.Queue().not_empty), fastcond.Condition)
        fastcond.patch()
        self.assertTrue(fastcond.is_patched())
