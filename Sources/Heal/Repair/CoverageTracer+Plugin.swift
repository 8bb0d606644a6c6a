extension CoverageTracer {
    /// The plugin's Python source (Python 3.8+, pytest 6.2+). Tracing is `sys.settrace` (3.11
    /// has no `sys.monitoring`) kept cheap: the global tracer answers each new frame from a cache
    /// by file name and only frames of the project's own non-test files get a line tracer; the
    /// stdlib, site-packages and tests are never line-traced. Line sets are kept as ints
    /// (`file index << 32 | line`) and printed as runs. Each test's seconds are recorded too (the
    /// heal screens candidates on the quickest failing tests first). Nothing touches the filesystem: the
    /// document leaves on a duplicate of fd 1 taken when `-p` imports the plugin, before pytest's
    /// capture swaps the descriptors, and is written when pytest unconfigures (after `-x` stops
    /// a session too).
    public static let pluginSource = #"""
        """Sentinel heal: the source lines each test runs, and how the test ends.

        Loaded with `-p sentinel_heal_trace`. It writes nothing to disk: when pytest unconfigures it prints
        one JSON document between marker lines on the process's own standard output.
        """
        import builtins
        import json
        import os
        import sys
        import threading
        import time

        import pytest

        BEGIN = "@@SENTINEL-TRACE-BEGIN@@"
        END = "@@SENTINEL-TRACE-END@@"
        SKIP_DIRS = {"site-packages", "dist-packages", "__pycache__", ".git", ".tox", ".nox", ".venv", "venv"}
        # Heal may place this module at the project's root (when the command's Python sees no other
        # place): it is never traced or counted as the project's.
        _SELF = os.path.realpath(__file__)


        def _dup(fd):
            try:
                return os.dup(fd)
            except OSError:
                return None


        # Taken at import: `-p` plugins load before pytest's capture redirects fd 1 and 2.
        _OUT = _dup(1)
        if _OUT is None:
            _OUT = _dup(2)
        # Taken at import, before a test can patch the module's attribute (freezegun, mock).
        _clock = time.perf_counter


        class Recorder:
            def __init__(self, root):
                self.root = os.path.join(os.path.realpath(root), "")
                self.paths = []
                self.known = {}
                self.tracers = {}
                self.lines = None
                self.tests = {}
                # Seconds each test's protocol took (setup, call, teardown), under the tracer.
                self.seconds = {}
                self.current = None
                # Which files pytest collected tests from (and its conftests), who imported each
                # project module, and the files tests opened: what the tests themselves are made of.
                self.collected = set()
                self.imports = {}
                self.read = set()

            def relative(self, filename):
                if not isinstance(filename, str) or not filename or filename.startswith("<"):
                    return None
                path = os.path.realpath(filename)
                if not path.startswith(self.root) or path == _SELF:
                    return None
                parts = path[len(self.root):].split(os.sep)
                if any(part in SKIP_DIRS for part in parts[:-1]):
                    return None
                return "/".join(parts)

            def imported(self, module, importer):
                target = self.relative(getattr(module, "__file__", None))
                if target is None or len(self.imports) > 20000:
                    return
                importers = self.imports.setdefault(target, set())
                if len(importers) < 200:
                    importers.add(self.relative(importer) or "")

            def file_index(self, filename):
                index = self.known.get(filename)
                if index is None:
                    index = self.known[filename] = self.classify(filename)
                return index

            def classify(self, filename):
                # Only the project's own non-test modules: the stdlib, site-packages and tests are not traced.
                if not filename or filename.startswith("<"):
                    return -1
                relative = self.relative(filename)
                # The collected test modules and conftests are not traced (pytest says which they are).
                if relative is None or not relative.endswith(".py") or relative in self.collected:
                    return -1
                self.paths.append(relative)
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
                self.current = (nodeid, _clock())

            def end(self):
                self.lines = None
                if self.current is not None:
                    nodeid, started = self.current
                    self.seconds[nodeid] = self.seconds.get(nodeid, 0.0) + max(0.0, _clock() - started)
                    self.current = None

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
                    test = {"id": nodeid, "outcome": outcome or "error", "lines": lines}
                    if nodeid in self.seconds:
                        test["seconds"] = round(self.seconds[nodeid], 4)
                    tests.append(test)
                imports = {f: sorted(i) for f, i in sorted(self.imports.items())}
                return {"version": 1, "files": self.paths, "tests": tests, "collected": sorted(self.collected),
                        "imports": imports, "read": sorted(self.read)[:10000]}


        _recorder = None
        _emitted = False
        _import = builtins.__import__


        def _recording_import(name, globals=None, locals=None, fromlist=(), level=0):
            module = _import(name, globals, locals, fromlist, level)
            recorder = _recorder
            if recorder is not None:
                try:
                    importer = (globals or {}).get("__file__")
                    package = (globals or {}).get("__package__") or ""
                    full = name
                    if level:
                        base = package.rsplit(".", level - 1)[0] if level > 1 else package
                        full = base + ("." + name if name else "")
                    target = sys.modules.get(full, module)
                    recorder.imported(target, importer)
                    for item in fromlist or ():
                        sub = sys.modules.get(full + "." + item) if isinstance(item, str) else None
                        if sub is not None:
                            recorder.imported(sub, importer)
                except Exception:
                    pass
            return module


        builtins.__import__ = _recording_import


        def _audit(event, args):
            # Files the tests open for reading while they run (their data).
            recorder = _recorder
            if event == "open" and recorder is not None and recorder.lines is not None and len(recorder.read) < 10000:
                mode = args[1] if len(args) > 1 else "r"
                if mode is None or "r" in str(mode) and "+" not in str(mode):
                    relative = recorder.relative(args[0]) if isinstance(args[0], str) else None
                    if relative is not None and not relative.endswith((".py", ".pyc")):
                        recorder.read.add(relative)


        sys.addaudithook(_audit)


        def _gettrace_threads():
            gettrace = getattr(threading, "gettrace", None)
            return gettrace() if gettrace else None


        def pytest_configure(config):
            global _recorder
            # The loop names the workspace when the command runs pytest from a subdirectory.
            root = os.environ.get("SENTINEL_HEAL_TRACE_ROOT") or getattr(config, "rootpath", None) or config.rootdir
            _recorder = Recorder(str(root))


        def pytest_collection_modifyitems(session, config, items):
            recorder = _recorder
            if recorder is None:
                return
            for item in items:
                relative = recorder.relative(str(getattr(item, "path", None) or getattr(item, "fspath", "")))
                if relative is not None:
                    recorder.collected.add(relative)
            for plugin in config.pluginmanager.get_plugins():
                name = getattr(plugin, "__file__", None)
                if isinstance(name, str) and os.path.basename(name) == "conftest.py":
                    relative = recorder.relative(name)
                    if relative is not None:
                        recorder.collected.add(relative)


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
