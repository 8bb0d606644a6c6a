/// The controls and sequences `TerminalOutputFilter` passes: those interactive programs (shells,
/// editors, pagers, `top`) draw with, each known to act on the screen alone. A sequence not
/// listed, or listed but with other parameters, is dropped whole.
enum TerminalSequencePolicy {
    /// BEL, BS, HT, LF, CR, and SO/SI (they switch between the G0 and G1 character sets an allowed
    /// escape designates). Not NUL, ENQ (answerback), VT, FF, DC1–DC4, ESC's kin or DEL.
    static func passesControl(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x07, 0x08, 0x09, 0x0A, 0x0D, 0x0E, 0x0F: true
        default: false
        }
    }

    /// `ESC 7`/`ESC 8` (save, restore cursor), `ESC =`/`ESC >` (keypad), `ESC D`/`E`/`H`/`M`
    /// (index, next line, tab set, reverse index), `ESC c` (reset); a character set designated
    /// to G0–G3 (`ESC ( 0`), a line's width or height and the alignment test (`ESC # 3…8`).
    static func allowsEscape(intermediates: ArraySlice<UInt8>, final: UInt8) -> Bool {
        guard let intermediate = intermediates.first else { return Array("78=>DEHMc".utf8).contains(final) }
        guard intermediates.count == 1 else { return false }
        switch intermediate {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"),
            UInt8(ascii: "."), UInt8(ascii: "/"):
            return (0x30...0x7E).contains(final)
        case UInt8(ascii: "#"): return Array("34568".utf8).contains(final)
        default: return false
        }
    }

    /// Finals of parameter-only CSI sequences that move the cursor, erase, insert, delete or
    /// scroll: CUU CUD CUF CUB CNL CPL CHA CUP CHT ED EL IL DL DCH SU ECH CBT ICH HPA HPR REP
    /// VPA VPR HVP TBC DECSTBM and `s` (save cursor, left and right margins).
    private static let drawing = Set("ABCDEFGHIJKLMPSXZ@`abdefgrs".utf8)
    /// ANSI modes (`CSI n h/l`): insert (IRM). Not keyboard lock, local echo or newline mode.
    private static let ansiModes: Set<Int> = [4]
    /// DEC private modes (`CSI ? n h/l`): cursor keys, reverse video, origin, wrap, autorepeat,
    /// X10 mouse, blinking and visible cursor, reverse wrap, the alternate screen, the keypad,
    /// mouse and focus reports, bracketed paste, synchronised output. Not 132 columns (DECCOLM
    /// resizes the window) nor anything else.
    private static let decModes: Set<Int> = [
        1, 5, 6, 7, 8, 9, 12, 25, 45, 47, 66, 1000, 1002, 1003, 1004, 1005, 1006, 1007, 1015, 1016, 1047, 1048, 1049, 2004,
        2026,
    ]

    /// Whether `ESC [ body final` passes. Besides drawing, SGR (any parameters) and the modes
    /// above: cursor style (DECSCUSR), soft reset (DECSTR), and the reports whose answer the
    /// terminal fixes (cursor position, status, device attributes); never a report of what the
    /// screen or title holds, nor the window's size or place.
    static func allowsCSI(_ body: ArraySlice<UInt8>, final: UInt8) -> Bool {
        guard let csi = ParsedCSI(body) else { return false }
        // Colours and attributes; `:` separates sub-parameters (curly underline, RGB).
        if csi.marker == nil, csi.intermediates.isEmpty, final == UInt8(ascii: "m") { return true }
        guard let values = csi.values, csi.intermediates.count <= 1 else { return false }
        // 0: no marker, no intermediate.
        let marker = csi.marker ?? 0
        let intermediate = csi.intermediates.first ?? 0
        let question = UInt8(ascii: "?")
        switch (marker, intermediate, final) {
        case (0, 0, let final) where drawing.contains(final): return true
        case (0, 0, UInt8(ascii: "T")): return values.count == 1  // SD; with five, mouse highlighting
        case (0, 0, UInt8(ascii: "u")): return values == [nil]  // restore cursor; not kitty's key flags
        case (0, 0, UInt8(ascii: "n")): return values == [5] || values == [6]
        case (0, 0, UInt8(ascii: "c")), (UInt8(ascii: ">"), 0, UInt8(ascii: "c")): return values == [nil] || values == [0]
        case (0, 0, UInt8(ascii: "h")), (0, 0, UInt8(ascii: "l")):
            return values.allSatisfy { $0.map(ansiModes.contains) ?? false }
        case (question, 0, UInt8(ascii: "h")), (question, 0, UInt8(ascii: "l")):
            return values.allSatisfy { $0.map(decModes.contains) ?? false }
        case (question, 0, UInt8(ascii: "J")), (question, 0, UInt8(ascii: "K")): return true  // selective erase
        case (0, UInt8(ascii: " "), UInt8(ascii: "q")): return values.count == 1
        case (0, UInt8(ascii: "!"), UInt8(ascii: "p")): return values == [nil]
        default: return false
        }
    }
}

/// A CSI sequence's body (what lies between `ESC [` and the final byte) as ECMA-48 shapes it:
/// an optional private marker (`<`, `=`, `>`, `?`) first, then parameters (digits, `;`, `:`),
/// then intermediates (0x20–0x2F). Anything else (a marker later, a parameter after an
/// intermediate) is malformed.
struct ParsedCSI {
    var marker: UInt8?
    var parameters: ArraySlice<UInt8>
    var intermediates: ArraySlice<UInt8>

    init?(_ body: ArraySlice<UInt8>) {
        var index = body.startIndex
        if index < body.endIndex, (0x3C...0x3F).contains(body[index]) {
            marker = body[index]
            index += 1
        }
        let parametersStart = index
        while index < body.endIndex, (0x30...0x3B).contains(body[index]) { index += 1 }
        parameters = body[parametersStart..<index]
        let intermediatesStart = index
        while index < body.endIndex, (0x20...0x2F).contains(body[index]) { index += 1 }
        intermediates = body[intermediatesStart..<index]
        guard index == body.endIndex else { return nil }
    }

    /// The `;`-separated parameters as numbers (nil for an empty one, its default); nil when one
    /// has sub-parameters (`:`) or more than five digits.
    var values: [Int?]? {
        var values: [Int?] = []
        for parameter in parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            guard parameter.count <= 5, !parameter.contains(UInt8(ascii: ":")) else { return nil }
            values.append(parameter.isEmpty ? nil : parameter.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
        }
        return values
    }
}
