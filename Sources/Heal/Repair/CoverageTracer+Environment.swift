import Foundation
import Signals
import Support

/// How a traced run finds the plugin, and what to tell the user when it did not.
extension CoverageTracer {
    /// The user base (`PYTHONUSERBASE`) kept in the plugin's directory: its user site holds a
    /// `.pth` naming the directory.
    public static let userBaseName = "userbase"

    /// The Python versions whose user site gets the `.pth` (`lib/python3.N/site-packages`, and
    /// `python3.Nt` for free-threaded builds): whichever interpreter the command runs finds its own.
    static let userSiteVersions: [String] = (6...19).map { "3.\($0)" } + (13...19).map { "3.\($0)t" }

    /// Writes, below `directory/userbase`, a user site for every version in `userSiteVersions`
    /// holding `<module>.pth`, whose one line is `directory`: Python's `site` adds it to
    /// `sys.path` at start-up whatever `PYTHONPATH` the command sets, when the interpreter uses
    /// user sites (not in a virtual environment without system site packages, not under
    /// `-I`, `-E` or `-s`). `directory` must be the path the sandbox shows it at (it is bound
    /// read-only at its own path).
    public static func installUserSite(in directory: String, module: String) throws {
        for version in userSiteVersions {
            let site = "\(directory)/\(userBaseName)/lib/python\(version)/site-packages"
            try PreparedOutputFile(path: "\(site)/\(module).pth", createParents: true).write(directory + "\n")
        }
    }

    /// `environment` with what a traced run adds: `directory` first on `PYTHONPATH` (what was
    /// there stays after it), `PYTHONUSERBASE` at its user base, and `rootEnvironmentVariable`
    /// at `workspace`.
    public static func environment(directory: String, workspace: String, merging environment: [String: String])
        -> [String: String]
    {
        var environment = environment
        environment[rootEnvironmentVariable] = workspace
        environment["PYTHONPATH"] = directory + (environment["PYTHONPATH"].map { ":" + $0 } ?? "")
        environment["PYTHONUSERBASE"] = directory + "/" + userBaseName
        return environment
    }

    /// Whether pytest said it could not import the plugin (`-p sentinel_heal_trace`): the
    /// command's Python saw neither `PYTHONPATH` nor the user site.
    public static func pluginNotImported(in output: String, module: String = moduleName) -> Bool {
        output.contains("No module named '\(module)'")
    }

    /// Why a traced run that printed no document did not, in words for the user: the plugin was
    /// not importable, the run timed out or was killed, the command is not pytest, or pytest
    /// ended before its session did.
    public static func missingReason(output: String, run: Verification, module: String = moduleName) -> String {
        if pluginNotImported(in: output, module: module) {
            return "the verify command's Python cannot import the tracer plugin \(module) (the command's own PYTHONPATH "
                + "replaces the tracer's, and a virtual environment, python -I, -E or -s, or its own PYTHONUSERBASE hides "
                + "the tracer's user site)"
        }
        if run.reason == .timeout { return "the traced run of the verify command timed out" }
        if run.reason != .exited { return "the traced run of the verify command ended: \(run.reason.rawValue) (exit \(run.exitCode))" }
        let report = PytestReport(output: output)
        if !report.recognized {
            return "the verify command's output is not pytest's (the tracer is a pytest plugin)"
        }
        // `-rA`, given with the plugin, names every passed test: without the names, neither came.
        if (report.counts["passed"] ?? 0) > 0, report.passed.isEmpty {
            return "pytest ran without the options heal gives it in PYTEST_ADDOPTS (the command clears or replaces "
                + "that variable, env -i for one)"
        }
        return "pytest exited with status \(run.exitCode) without printing the tracer's document"
    }
}
