"""The Python test files' one runner: unittest's own report of a module's
tests, then cmocka's summary lines and the plain "N passed, N failed, N
skipped" that tests/test_python.sh sums."""
import sys
import unittest


def run(module_name):
    """Runs the tests of the module; 0 when none failed, else 1."""
    runner = unittest.TextTestRunner(verbosity=2, stream=sys.stdout)
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[module_name])
    result = runner.run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped
    print(f"[==========] {result.testsRun} test(s) run.")
    print(f"[  PASSED  ] {passed} test(s).")
    if failed:
        print(f"[  FAILED  ] {failed} test(s), listed below:")
        for test, _ in result.failures + result.errors:
            print(f"[  FAILED  ] {test.id()}")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 0 if failed == 0 else 1
