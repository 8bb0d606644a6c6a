import Foundation
import Support
import TestSupport
import Testing

@testable import Sandbox

/// Issue 78, R6 and W5, proven on a terminal: the red team's strings go to a terminal emulator
/// (pyte, with a sequence reader of its own in Tests/Fixtures/terminal/emulate.py) raw, through
/// the `-t` relay's filter, and through `DisplayText.multiline`. Raw, the emulator sees each one
/// act (a title, the clipboard, a resize, a screen report, a DCS string, a C1 control): the
/// emulator can tell. Filtered, it sees none, keeps its 80x24 size and no title, and shows what a
/// reader should see: the text around the sequence (relay) or the sequence made visible (`\x1b`).
@Suite(
    "terminal emulator",
    .enabled(if: TerminalEmulator.python != nil, "needs pyte in the project's venv (make pip-deps)"))
struct TerminalEmulatorTests {
    struct Case: Sendable {
        var name: String
        var bytes: [UInt8]
        /// What the emulator sees the raw bytes do.
        var raw: Set<String>
        /// The screen after the relay's filter.
        var relayed: [String]
        /// The screen after `DisplayText.multiline`.
        var shown: [String]

        init(_ name: String, _ text: String, raw: Set<String>, relayed: [String], shown: [String]) {
            self.init(name, Array(text.utf8), raw: raw, relayed: relayed, shown: shown)
        }

        init(_ name: String, _ bytes: [UInt8], raw: Set<String>, relayed: [String], shown: [String]) {
            self.name = name
            self.bytes = bytes
            self.raw = raw
            self.relayed = relayed
            self.shown = shown
        }
    }

    static let cases: [Case] = [
        Case(
            "OSC 52 clipboard write", "a\u{1B}]52;c;cm0gLXJmIH4=\u{7}b", raw: ["clipboard"], relayed: ["ab"],
            shown: [#"a\x1b]52;c;cm0gLXJmIH4=\x07b"#]),
        Case(
            "OSC 0 and OSC 2 titles", "a\u{1B}]0;owned\u{7}b\u{1B}]2;title\u{1B}\\c", raw: ["title"], relayed: ["abc"],
            shown: [#"a\x1b]0;owned\x07b\x1b]2;title\x1b\c"#]),
        Case(
            "screen/tmux rename (ESC k ... ESC \\)", "a\u{1B}kpwned\u{1B}\\b", raw: ["title"], relayed: ["ab"],
            shown: [#"a\x1bkpwned\x1b\b"#]),
        Case(
            "C1 CSI as U+009B", "a\u{9B}2Jb\u{9B}8;50;50tc", raw: ["c1", "resize"], relayed: ["a2Jb8;50;50tc"],
            shown: [#"a\x9b2Jb\x9b8;50;50tc"#]),
        Case(
            "C1 OSC as U+009D (a title)", "a\u{9D}0;owned\u{7}b", raw: ["c1", "title"], relayed: ["a0;ownedb"],
            shown: [#"a\x9d0;owned\x07b"#]),
        // Overlong forms decode to U+FFFD on this terminal; a lax one reads them as U+009B.
        Case(
            "C1 CSI as overlong UTF-8 (C0 9B, E0 82 9B)", [0x61, 0xC0, 0x9B, 0x33, 0x74, 0xE0, 0x82, 0x9B, 0x62], raw: [],
            relayed: ["a3tb"], shown: ["a\u{FFFD}\u{FFFD}3t\u{FFFD}\u{FFFD}\u{FFFD}b"]),
        Case("DECSNLS resize", "a\u{1B}[24*|b", raw: ["resize"], relayed: ["ab"], shown: [#"a\x1b[24*|b"#]),
        Case("DECSCPP resize", "a\u{1B}[132$|b", raw: ["resize"], relayed: ["ab"], shown: [#"a\x1b[132$|b"#]),
        Case("DECCOLM resize", "a\u{1B}[?3hb", raw: ["resize"], relayed: ["ab"], shown: [#"a\x1b[?3hb"#]),
        Case("window resize (CSI 8 t)", "a\u{1B}[8;100;300tb", raw: ["resize"], relayed: ["ab"], shown: [#"a\x1b[8;100;300tb"#]),
        Case(
            "DECRQCRA screen checksum", "a\u{1B}[1;1;1;1;1;1*yb", raw: ["report-screen"], relayed: ["ab"],
            shown: [#"a\x1b[1;1;1;1;1;1*yb"#]),
        Case("DCS (DECRQSS)", "a\u{1B}P$qm\u{1B}\\b", raw: ["dcs"], relayed: ["ab"], shown: [#"a\x1bP$qm\x1b\b"#]),
        Case("APC (kitty graphics)", "a\u{1B}_Gf=100;AAAA\u{1B}\\b", raw: ["apc"], relayed: ["ab"], shown: [#"a\x1b_Gf=100;AAAA\x1b\b"#]),
        Case(
            "bidi override", "x = \u{202E}cba\u{202C};", raw: ["bidi"], relayed: ["x = cba;"], shown: [#"x = \u{202e}cba\u{202c};"#]),
        // What programs draw with passes the relay as it is; the display filter shows it.
        Case(
            "colours, cursor movement, erase", "\u{1B}[1;31mred\u{1B}[0m\r\nx\u{1B}[2Dy\u{1B}[K", raw: [],
            relayed: ["red", "y"], shown: [#"\x1b[1;31mred\x1b[0m\x0d"#, #"x\x1b[2Dy\x1b[K"#]),
        Case(
            "lines and tabs", "a\tb\r\nc", raw: [], relayed: ["a       b", "c"], shown: [#"a       b\x0d"#, "c"]),
    ]

    @Test func theRedTeamsStringsActRawAndNotThroughEitherFilter() throws {
        let python = try #require(TerminalEmulator.python)
        var inputs: [(String, [UInt8])] = []
        for testCase in Self.cases {
            // The relay gets the bytes one read at a time, as a payload could split them.
            var filter = TerminalOutputFilter()
            var relayed: [UInt8] = []
            for byte in testCase.bytes { filter.filter([byte], into: &relayed) }
            // LNM is off: a line feed alone keeps the column; a reader's terminal (a pty's
            // ONLCR) adds the carriage return.
            let shown = DisplayText.multiline(String(decoding: testCase.bytes, as: UTF8.self))
                .replacing("\n", with: "\r\n")
            inputs += [
                (testCase.name + " raw", testCase.bytes), (testCase.name + " relayed", relayed),
                (testCase.name + " shown", Array(shown.utf8)),
            ]
        }
        let screens = try TerminalEmulator.run(python, inputs)
        try #require(screens.count == inputs.count)
        for (index, testCase) in Self.cases.enumerated() {
            let (raw, relayed, shown) = (screens[3 * index], screens[3 * index + 1], screens[3 * index + 2])
            #expect(Set(raw.effects) == testCase.raw, "\(testCase.name): raw, the emulator sees \(raw.effects)")
            for screen in [relayed, shown] {
                #expect(screen.effects.isEmpty, "\(screen.name): \(screen.effects) reached the terminal")
                #expect(screen.title.isEmpty && screen.icon.isEmpty, "\(screen.name): title \(screen.title)")
                #expect(screen.size == [80, 24], "\(screen.name): resized to \(screen.size)")
            }
            #expect(relayed.display == testCase.relayed, "\(testCase.name)")
            #expect(shown.display == testCase.shown, "\(testCase.name)")
        }
    }
}

/// The emulator script and the venv python that runs it.
enum TerminalEmulator {
    struct Screen: Decodable {
        var name: String
        var title: String
        var icon: String
        var effects: [String]
        var display: [String]
        var size: [Int]
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// `$SENTINEL_VENV/bin/python`, else `<package root>/.venv/bin/python`, if it imports pyte.
    static let python: String? = {
        var candidates = [packageRoot + "/.venv/bin/python"]
        if let venv = ProcessInfo.processInfo.environment["SENTINEL_VENV"], !venv.isEmpty {
            candidates.insert(venv + "/bin/python", at: 0)
        }
        return candidates.first { python in
            FileManager.default.isExecutableFile(atPath: python) && (try? run(python, ["-c", "import pyte"], input: Data()))?.0 == 0
        }
    }()

    static func run(_ python: String, _ inputs: [(String, [UInt8])]) throws -> [Screen] {
        let request = inputs.map { ["name": $0.0, "hex": $0.1.map { String(format: "%02x", $0) }.joined()] }
        let (status, output) = try run(
            python, [packageRoot + "/Tests/Fixtures/terminal/emulate.py"], input: try JSONSerialization.data(withJSONObject: request))
        guard status == 0 else { throw CocoaError(.executableLoad) }
        return try JSONDecoder().decode([Screen].self, from: output)
    }

    /// The emulator's whole run is bounded (120 s, far above its fraction of a second): a hang fails the test.
    private static func run(_ program: String, _ arguments: [String], input: Data) throws -> (Int32, Data) {
        let run = try ProgramRun.run(program, arguments, input: input, timeout: 120)
        return (run.status, run.stdout)
    }
}
