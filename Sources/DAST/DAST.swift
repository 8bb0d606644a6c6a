import Findings

/// The native web scanner (`sentinel scan --dast URL`): a crawler, passive checks on every
/// response and, with `--active`, injection checks on every parameter. The engine runs as a
/// sandboxed worker whose only egress is the target; responses are parsed there, never in the
/// parent. Requests go through `WebTransport` (libcurl through the `HTTP` module).
public enum DAST {
    /// The tool name findings carry (`tool: dast`).
    public static let toolName = ToolName.dast
}
