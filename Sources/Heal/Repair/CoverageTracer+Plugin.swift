extension CoverageTracer {
    /// The plugin's Python source (Python 3.8+, pytest 6.2+). Tracing is `sys.settrace` (3.11
    /// has no `sys.monitoring`) kept cheap: the global tracer answers each new frame from a cache
    /// by file name and only frames of the project's own non-test files get a line tracer; the
    /// stdlib, site-packages and tests are never line-traced. Line sets are kept as ints
    /// (`file index << 32 | line`) and printed as runs. Nothing touches the filesystem: the
    /// document leaves on a duplicate of fd 1 taken when `-p` imports the plugin, before pytest's
    /// capture swaps the descriptors, and is written when pytest unconfigures (after `-x` stops
    /// a session too).
    public static let pluginSource = #"""
        """Sentinel heal: the source lines each test runs, and how the test ends.

        Loaded with `-p sentinel_heal_trace`. It writes nothing to disk: when pytest unconfigures it prints
        one JSON document between marker lines on the process's own standard output.
        """
        import json
        import os
        import sys
        import threading

        import pytest

        BEGIN = "@@SENTINEL-TRACE-BEGIN@@"
        END = "@@SENTINEL-TRACE-END@@"
        TEST_DIRS = {"test", "tests"}
        SKIP_DIRS = {"site-packages", "dist-packages", "__pycache__", ".git", ".tox", ".nox", ".venv", "venv"}


        def _dup(fd):
            try:
                return os.dup(fd)
            except OSError:
                return None


        # Taken at import: `-p` plugins load before pytest's capture redirects fd 1 and 2.
        _OUT = _dup(1)
        if _OUT is None:
            _OUT = _dup(2)


        class Recorder:
            def __init__(self, root):
                self.root = os.path.join(os.path.realpath(root), "")
                self.paths = []
                self.known = {}
                self.tracers = {}
                self.lines = None
                self.tests = {}

            def file_index(self, filename):
                index = self.known.get(filename)
                if index is None:
                    index = self.known[filename] = self.classify(filename)
                return index

            def classify(self, filename):
                # Only the project's own non-test modules: the stdlib, site-packages and tests are not traced.
                if not filename or filename.startswith("<"):
                    return -1
                path = os.path.realpath(filename)
                if not path.startswith(self.root) or not path.endswith(".py"):
                    return -1
                parts = path[len(self.root):].split(os.sep)
                name = parts[-1]
                if any(part in SKIP_DIRS or part in TEST_DIRS for part in parts[:-1]):
                    return -1
                if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
                    return -1
                self.paths.append("/".join(parts))
                return len(self.paths) - 1

            def global_trace(self, frame, event, arg):
                if self.lines is None:
                    return None
                index = self.known.get(frame.f_code.co_filename)
                if index is None:
                    index = self.file_index(frame.f_code.co_filename)
                if index < 0:
                    return None
                tracer = self.tracers.get(index)
                if tracer is None:
                    tracer = self.tracers[index] = self.local_tracer(index << 32)
                return tracer

            def local_tracer(self, key):
                recorder = self

                def trace(frame, event, arg):
                    if event == "line":
                        lines = recorder.lines
                        if lines is not None:
                            lines.add(key | frame.f_lineno)
                    return trace

                return trace

            def begin(self, nodeid):
                entry = self.tests.get(nodeid)
                if entry is None:
                    entry = self.tests[nodeid] = [None, set()]
                self.lines = entry[1]

            def end(self):
                self.lines = None

            def report(self, report):
                entry = self.tests.get(report.nodeid)
                if entry is None:
                    entry = self.tests[report.nodeid] = [None, set()]
                if report.failed:
                    # A failure in setup or call fails the test; one in teardown after a pass is an error.
                    if report.when in ("setup", "call"):
                        entry[0] = "failed"
                    elif entry[0] in (None, "passed"):
                        entry[0] = "error"
                elif report.skipped:
                    if entry[0] is None:
                        entry[0] = "skipped"
                elif report.when == "call" and entry[0] is None:
                    entry[0] = "passed"

            def document(self):
                tests = []
                for nodeid, (outcome, keys) in self.tests.items():
                    by_file = {}
                    for key in sorted(keys):
                        runs = by_file.setdefault(str(key >> 32), [])
                        line = key & 0xFFFFFFFF
                        if runs and runs[-1][1] == line - 1:
                            runs[-1][1] = line
                        else:
                            runs.append([line, line])
                    lines = {f: [a if a == b else [a, b] for a, b in runs] for f, runs in by_file.items()}
                    tests.append({"id": nodeid, "outcome": outcome or "error", "lines": lines})
                return {"version": 1, "files": self.paths, "tests": tests}


        _recorder = None
        _emitted = False


        def _gettrace_threads():
            gettrace = getattr(threading, "gettrace", None)
            return gettrace() if gettrace else None


        def pytest_configure(config):
            global _recorder
            # The loop names the workspace when the command runs pytest from a subdirectory.
            root = os.environ.get("SENTINEL_HEAL_TRACE_ROOT") or getattr(config, "rootpath", None) or config.rootdir
            _recorder = Recorder(str(root))


        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(item, nextitem):
            recorder = _recorder
            if recorder is None:
                yield
                return
            previous = sys.gettrace()
            previous_threads = _gettrace_threads()
            recorder.begin(item.nodeid)
            sys.settrace(recorder.global_trace)
            threading.settrace(recorder.global_trace)
            try:
                yield
            finally:
                sys.settrace(previous)
                threading.settrace(previous_threads)
                recorder.end()


        def pytest_runtest_logreport(report):
            if _recorder is not None:
                _recorder.report(report)


        def _emit():
            global _emitted
            if _emitted or _recorder is None or _OUT is None:
                return
            _emitted = True
            text = json.dumps(_recorder.document(), separators=(",", ":"))
            data = ("\n" + BEGIN + "\n" + text + "\n" + END + "\n").encode("ascii")
            try:
                sys.stdout.flush()
            except Exception:
                pass
            # os.write on the descriptor taken at import: pytest's capturing cannot hold this back.
            while data:
                try:
                    written = os.write(_OUT, data)
                except InterruptedError:
                    continue
                except OSError:
                    return
                data = data[written:]


        @pytest.hookimpl(trylast=True)
        def pytest_unconfigure(config):
            _emit()
        """#
}
