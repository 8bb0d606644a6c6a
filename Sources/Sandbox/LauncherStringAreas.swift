import Foundation

/// Where the kernel keeps this process's argv and environment strings: the sandbox init, a
/// clone of the launcher, overwrites its copy of both (see `sbx_config.argument_area`), since
/// `/proc/1/cmdline` is readable by every process in the sandbox and the launcher's arguments
/// may hold secrets (a DAST run's `--header 'Authorization: …'`).
struct LauncherStringAreas: Equatable {
    /// `arg_start..<arg_end`.
    var arguments: Range<UInt>
    /// `env_start..<env_end`.
    var environment: Range<UInt>

    /// This process's areas, read once (they never move); nil when `/proc/self/stat` is unreadable.
    static let current: LauncherStringAreas? = {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/stat") else { return nil }
        defer { try? handle.close() }
        return (try? handle.readToEnd()).flatMap { parse(String(decoding: $0, as: UTF8.self)) }
    }()

    /// Fields 48–51 of a `/proc/PID/stat` line (proc(5)); the command name before them, in
    /// parentheses, may itself hold spaces and parentheses, so fields count from the last `)`.
    static func parse(_ stat: String) -> LauncherStringAreas? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field N is fields[N - 3].
        guard fields.count > 48,
            let argStart = UInt(fields[45]), let argEnd = UInt(fields[46]),
            let envStart = UInt(fields[47]), let envEnd = UInt(fields[48].trimmedOfWhitespace()),
            argStart <= argEnd, envStart <= envEnd
        else { return nil }
        return LauncherStringAreas(arguments: argStart..<argEnd, environment: envStart..<envEnd)
    }
}
