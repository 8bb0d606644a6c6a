import Support

/// What a `-t` payload writes is a stream of terminal commands for the *caller's* terminal. Most
/// only draw (text, colours, cursor movement, clearing), but some reach past the screen: OSC 52
/// writes the caller's clipboard, OSC 0/1/2 and screen's `ESC k` set a title (which `CSI 21 t`
/// then types back into whatever reads the terminal next, the caller's shell included), DCS/APC/PM
/// strings drive terminal features, `CSI … t` and DECSCPP/DECSNLS resize the window, DECRQCRA
/// reports a checksum of the screen. This filter is an allow-list: it passes what it understands
/// and knows to act on the screen alone (`TerminalSequencePolicy`) and drops everything else,
/// as the stream arrives. A sequence split across reads is held until it is complete (at most
/// `heldLimit` bytes; a longer one is dropped whole), and one still incomplete when the payload
/// ends is never written, so the caller's next output cannot complete it. Each byte is looked
/// at once (a held CSI once more, when its final byte decides it): linear in the input.
///
/// Passed: well-formed UTF-8 text except what `DisplayText.actsOnTerminal` calls a command (the
/// C1 code points U+0080–U+009F, bidi overrides, embeddings, isolates and marks: the same
/// definition as for what Sentinel prints itself, which escapes them visibly where this drops
/// them); the C0 controls of `TerminalSequencePolicy.passesControl`; the escapes and CSI
/// sequences it allows. Dropped: OSC (hyperlinks included), DCS, SOS, PM, APC and `ESC k`
/// strings whole; C1 controls raw or UTF-8 encoded (`C2 9B` is CSI to some terminals); bidi
/// controls (a terminal that implements bidi would reorder a line with them); malformed UTF-8
/// (overlong forms of C1 controls among it); every other escape, control or CSI sequence.
struct TerminalOutputFilter {
    /// The most bytes held for one incomplete sequence (a CSI; SGR with true colours stays far below).
    static let heldLimit = 256

    private enum State: Equatable {
        case ground
        /// Inside a UTF-8 character (`held` so far): `needed` more bytes, the next one in `next`.
        case utf8(needed: Int, next: ClosedRange<UInt8>)
        /// After ESC; `held` is ESC and its first intermediates.
        case escape
        /// Inside CSI; `held` is the sequence so far.
        case csi
        /// A CSI being dropped (too long): skip to its final byte.
        case csiDropped
        /// A string (OSC, DCS, SOS, PM, APC, `ESC k`) being dropped until its terminator.
        case string
        /// An ESC inside a string: `\` ends it (ST); anything else aborts it and starts anew.
        case stringEscape
    }

    private var state = State.ground
    private var held: [UInt8] = []

    private static let esc: UInt8 = 0x1B

    /// Filters `bytes`, appending what may reach the terminal to `output`.
    mutating func filter(_ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                // Runs of plain text and line endings, most of any output, are copied whole.
                if state == .ground {
                    var end = index
                    while end < buffer.count, Self.isPlain(buffer[end]) { end += 1 }
                    if end != index {
                        output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<end]))
                        index = end
                        continue
                    }
                }
                step(buffer[index], &output)
                index += 1
            }
        }
    }

    /// `filter(_:into:)` for a whole array.
    mutating func filter(_ bytes: [UInt8], into output: inout [UInt8]) {
        filter(bytes[...], into: &output)
    }

    /// `filter(_:into:)` returning the bytes.
    mutating func filter(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        filter(bytes, into: &output)
        return output
    }

    /// `filter(_:into:)` returning the bytes, for a whole array.
    mutating func filter(_ bytes: [UInt8]) -> [UInt8] {
        filter(bytes[...])
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        (0x20...0x7E).contains(byte) || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Bytes held for an incomplete sequence (bounded by `heldLimit`).
    var heldCount: Int { held.count }

    private mutating func step(_ byte: UInt8, _ output: inout [UInt8]) {
        switch state {
        case .ground: ground(byte, &output)
        case .utf8(let needed, let next): utf8(byte, needed: needed, next: next, &output)
        case .escape: escape(byte, &output)
        case .csi, .csiDropped: csi(byte, &output)
        case .string:
            switch byte {
            case 0x07, 0x18, 0x1A: reset()  // BEL ends it (as for OSC), CAN and SUB cancel it
            case Self.esc: state = .stringEscape
            default: break
            }
        case .stringEscape:
            reset()
            if byte != UInt8(ascii: "\\") { startEscape(byte, &output) }
        }
    }

    private mutating func reset() {
        state = .ground
        held.removeAll(keepingCapacity: true)
    }

    private mutating func startEscape(_ byte: UInt8, _ output: inout [UInt8]) {
        state = .escape
        held = [Self.esc]
        escape(byte, &output)
    }

    private mutating func ground(_ byte: UInt8, _ output: inout [UInt8]) {
        // Lead bytes and the range of the byte after them (Unicode Table 3-7): no overlong form,
        // surrogate or code point past U+10FFFF.
        switch byte {
        case 0x20...0x7E: output.append(byte)
        case Self.esc:
            state = .escape
            held = [byte]
        case 0xC2...0xDF: startCharacter(byte, needed: 1, next: 0x80...0xBF)
        case 0xE0: startCharacter(byte, needed: 2, next: 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: startCharacter(byte, needed: 2, next: 0x80...0xBF)
        case 0xED: startCharacter(byte, needed: 2, next: 0x80...0x9F)
        case 0xF0: startCharacter(byte, needed: 3, next: 0x90...0xBF)
        case 0xF1...0xF3: startCharacter(byte, needed: 3, next: 0x80...0xBF)
        case 0xF4: startCharacter(byte, needed: 3, next: 0x80...0x8F)
        default:
            // C0 controls off the list, DEL, and bytes that start no character: raw C1 controls
            // (0x80–0x9F), stray continuation bytes, 0xC0, 0xC1, 0xF5–0xFF.
            if TerminalSequencePolicy.passesControl(byte) { output.append(byte) }
        }
    }

    private mutating func startCharacter(_ lead: UInt8, needed: Int, next: ClosedRange<UInt8>) {
        state = .utf8(needed: needed, next: next)
        held = [lead]
    }

    private mutating func utf8(_ byte: UInt8, needed: Int, next: ClosedRange<UInt8>, _ output: inout [UInt8]) {
        guard next.contains(byte) else {
            // Malformed: the bytes so far are dropped, this one is read afresh.
            reset()
            ground(byte, &output)
            return
        }
        held.append(byte)
        guard needed == 1 else {
            state = .utf8(needed: needed - 1, next: 0x80...0xBF)
            return
        }
        // A C1 control (U+0080–U+009F, C2 80 – C2 9F) or a bidi control is a command, not text:
        // `DisplayText` escapes the same scalars in what Sentinel prints itself.
        if !DisplayText.actsOnTerminal(Self.scalar(held)) { output += held }
        reset()
    }

    /// The scalar of a complete, well-formed UTF-8 character of two to four bytes.
    private static func scalar(_ bytes: [UInt8]) -> UInt32 {
        let lead = UInt32(bytes[0]) & (bytes.count == 2 ? 0x1F : bytes.count == 3 ? 0x0F : 0x07)
        return bytes.dropFirst().reduce(lead) { $0 << 6 | UInt32($1 & 0x3F) }
    }

    /// A C0 control inside a sequence: terminals act on it at once and carry on with the
    /// sequence; CAN and SUB cancel the sequence instead; ESC starts a new one.
    /// Returns true when the byte was handled here.
    private mutating func controlInSequence(_ byte: UInt8, _ output: inout [UInt8]) -> Bool {
        guard byte < 0x20 else { return false }
        switch byte {
        case 0x18, 0x1A: reset()
        case Self.esc:
            reset()
            state = .escape
            held = [byte]
        default: if TerminalSequencePolicy.passesControl(byte) { output.append(byte) }
        }
        return true
    }

    private mutating func escape(_ byte: UInt8, _ output: inout [UInt8]) {
        if controlInSequence(byte, &output) { return }
        switch byte {
        case 0x20...0x2F:
            // Two intermediates already refuse the escape: more need not be kept.
            if held.count < 3 { held.append(byte) }
        case 0x30...0x7E:
            if held.count == 1 {
                switch byte {
                case UInt8(ascii: "["):
                    held.append(byte)
                    state = .csi
                    return
                // OSC, DCS, SOS, PM, APC, and screen's and tmux's title string `ESC k … ST`.
                case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"),
                    UInt8(ascii: "k"):
                    held.removeAll(keepingCapacity: true)
                    state = .string
                    return
                default: break
                }
            }
            if TerminalSequencePolicy.allowsEscape(intermediates: held.dropFirst(), final: byte) { output += held + [byte] }
            reset()
        case 0x7F:
            break  // DEL is ignored inside sequences
        default:
            reset()  // not a sequence after all: drop what was held, read the byte afresh
            ground(byte, &output)
        }
    }

    private mutating func csi(_ byte: UInt8, _ output: inout [UInt8]) {
        if controlInSequence(byte, &output) { return }
        let dropping = state == .csiDropped
        switch byte {
        case 0x20...0x3F:
            guard !dropping else { return }
            held.append(byte)
            if held.count >= Self.heldLimit {
                held.removeAll(keepingCapacity: true)
                state = .csiDropped
            }
        case 0x40...0x7E:
            if !dropping && TerminalSequencePolicy.allowsCSI(held.dropFirst(2), final: byte) { output += held + [byte] }
            reset()
        case 0x7F:
            break
        default:
            reset()
            ground(byte, &output)
        }
    }
}
