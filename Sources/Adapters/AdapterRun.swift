import Findings
import Foundation
import Sandbox
import ScanCore
import Support

/// The steps every external-tool adapter shares: run the invocation, reject runs that did not
/// end normally, read the report, and record how long it took.
public enum AdapterRun {
    /// The whole scan of an adapter: refuses when the tool cannot run here, returns an empty
    /// output when nothing was selected for it, otherwise reports progress, runs `invocation`
    /// (see `run`) and keeps the findings of the selected files, with paths under the scan root.
    /// - Parameters:
    ///   - plan: the invocation, the files it names and the workspace it runs over.
    ///   - parse: reads the tool's report; its second argument is the workspace's host path.
    static func scan(
        tool: ToolName, informationURI: String, plan: (ToolInvocation, ToolTargets, AdapterWorkspace),
        unavailableReason: String?, context: ScanContext, executor: (any ToolExecutor)?,
        failureDetail: (Data) -> String? = { _ in nil },
        parse: (Data, String) throws -> ScannerOutput
    ) throws -> ScannerOutput {
        if let unavailableReason {
            throw SentinelError(.toolFailed, unavailableReason)
        }
        let (invocation, targets, workspace) = plan
        if targets.arguments.isEmpty {
            return ScannerOutput(tool: ToolRun(name: tool, informationURI: informationURI))
        }
        context.progress(.started(tool: tool, files: targets.filter?.count ?? targets.arguments.count))
        let output = try run(
            tool: tool, invocation: invocation, executor: executor ?? SandboxToolExecutor(runner: context.sandbox),
            failureDetail: failureDetail
        ) { data in
            try parse(data, workspace.host)
        }
        let rebased = workspace.rebased(keepingSelected(output, targets: targets))
        context.progress(.finished(tool: tool, findings: rebased.findings.count))
        return rebased
    }

    /// Runs `invocation` with `executor`: a run that could not start, timed out or was killed
    /// throws `.toolFailed` naming `tool`; any exit status is returned for the caller to judge.
    public static func execute(tool: ToolName, invocation: ToolInvocation, executor: any ToolExecutor) throws -> RunResult {
        let result: RunResult
        do {
            result = try executor.execute(invocation)
        } catch {
            throw ToolFailure.launchFailed(error, tool: tool)
        }
        try ToolFailure.checkTermination(result, tool: tool, timeout: invocation.timeout)
        return result
    }

    /// Runs `invocation` with `executor` and parses its stdout with `parse`.
    /// - Parameters:
    ///   - tool: the tool's name, which starts every error message.
    ///   - failureDetail: reads a tool-reported reason out of the output of a run that exited
    ///     with a failing status (Semgrep's `errors[]`), preferred over stderr.
    static func run(
        tool: ToolName, invocation: ToolInvocation, executor: any ToolExecutor,
        failureDetail: (Data) -> String? = { _ in nil },
        parse: (Data) throws -> ScannerOutput
    ) throws -> ScannerOutput {
        let result = try execute(tool: tool, invocation: invocation, executor: executor)
        guard ToolFailure.reportingExitCodes.contains(result.exitCode) else {
            if let detail = failureDetail(result.stdout) {
                throw SentinelError(.toolFailed, "\(tool) failed: \(ToolFailure.oneLine(detail))")
            }
            throw ToolFailure.failed(result, tool: tool, detail: nil)
        }
        var output: ScannerOutput
        do {
            output = try parse(result.stdout)
        } catch let error as SentinelError {
            // A report that does not parse after a failing exit: the tool's own words say why.
            if result.exitCode != 0, let line = ToolFailure.reasonLine(of: result.stderr) {
                throw SentinelError(.toolFailed, "\(tool) failed: \(line)")
            }
            throw error
        }
        output.tool.durationSeconds = Double(result.wallMilliseconds) / 1000
        return output
    }

    /// `output` without the findings outside the selection (when the tool scanned the whole
    /// workspace) and without descriptors of rules no remaining finding uses.
    static func keepingSelected(_ output: ScannerOutput, targets: ToolTargets) -> ScannerOutput {
        guard targets.filter != nil else { return output }
        var output = output
        output.findings.removeAll { !targets.keeps($0.location.file) }
        let used = Set(output.findings.map(\.ruleId))
        output.rules.removeAll { !used.contains($0.id) }
        return output
    }
}
