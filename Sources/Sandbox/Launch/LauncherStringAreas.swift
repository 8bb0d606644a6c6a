import FoundationEssentials
import Support

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
        guard let data = try? BoundedFile.read("/proc/self/stat", limit: 1 << 16) else { return nil }
        return parse(Array(data))
    }()

    /// Fields 48–51 of a `/proc/PID/stat` line (proc(5)); the command name before them, in
    /// parentheses, may itself hold spaces and parentheses, so fields count from the last `)`.
    static func parse(_ stat: String) -> LauncherStringAreas? {
        parse(Array(stat.utf8))
    }

    /// `parse(_:)` on the line's bytes: decimal fields read in place, with no substring or
    /// collection of them built (this runs in every launch).
    static func parse(_ stat: [UInt8]) -> LauncherStringAreas? {
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // The field after `)` is field 3 (state); fields 48-51 follow at indices 45-48 from it.
        var values: [UInt] = []
        var index = close + 1
        var field = 0
        while index < stat.count, values.count < 4 {
            while index < stat.count, stat[index] == UInt8(ascii: " ") || stat[index] == UInt8(ascii: "\n") { index += 1 }
            guard index < stat.count else { break }
            let start = index
            while index < stat.count, stat[index] != UInt8(ascii: " "), stat[index] != UInt8(ascii: "\n") { index += 1 }
            if field >= 45 {
                guard let value = decimal(stat[start..<index]) else { return nil }
                values.append(value)
            }
            field += 1
        }
        guard values.count == 4, values[0] <= values[1], values[2] <= values[3] else { return nil }
        return LauncherStringAreas(arguments: values[0]..<values[1], environment: values[2]..<values[3])
    }

    private static func decimal(_ digits: ArraySlice<UInt8>) -> UInt? {
        guard !digits.isEmpty, digits.count <= 20 else { return nil }
        var value: UInt = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(UInt(digit - UInt8(ascii: "0")))
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        return value
    }
}
