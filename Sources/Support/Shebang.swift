/// The interpreter a script's first line names (`#!/usr/bin/env python3`, `#!/usr/bin/node`,
/// `#!/usr/bin/env -S deno run`), read from at most ``Shebang/headBytes`` bytes of the file: what
/// runs a file whose name says nothing (`bin/deploy`, `ping.cgi`, `deploy.prod`).
public enum Shebang {
    /// How much of a file is read to find its interpreter: the kernel reads no more of the line.
    public static let headBytes = 256

    /// The interpreter's name (`python3.12`, `node`, `bash`), the last component of its path, or of
    /// the command `env` runs (options and `NAME=value` assignments skipped); nil when `head` does
    /// not start with `#!` or names nothing.
    public static func interpreter(of head: some Collection<UInt8>) -> String? {
        guard head.starts(with: [UInt8(ascii: "#"), UInt8(ascii: "!")]) else { return nil }
        let line = head.dropFirst(2).prefix(headBytes).prefix { $0 != 0x0A && $0 != 0x0D }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let program = words.first.map(lastComponent) else { return nil }
        guard program == "env" else { return program.isEmpty ? nil : program }
        return words.dropFirst().first { !$0.hasPrefix("-") && !$0.contains("=") }.map(lastComponent)
    }

    private static func lastComponent(_ path: Substring) -> String {
        String(path.split(separator: "/").last ?? "")
    }
}
