/// What a `-t` payload writes is a stream of terminal commands for the *caller's* terminal. Most
/// only draw (text, colours, cursor movement, clearing), but some reach past the screen: OSC 52
/// writes the caller's clipboard, OSC 0/1/2 set the window title (which `CSI 21 t` then types
/// back into whatever reads the terminal next, the caller's shell included), DCS/APC/PM strings
/// drive terminal features, `CSI … t` moves, resizes and reports the window. This filter passes
/// drawing and drops the rest, as the stream arrives: a sequence split across reads is held
/// until it is complete (at most `heldLimit` bytes; a longer one is dropped whole), and one
/// still incomplete when the payload ends is never written, so the caller's next output cannot
/// complete it.
///
/// Passed: printable text (UTF-8), C0 controls except ENQ (answerback), CSI sequences except
/// final `t`, two- and three-byte escapes that designate character sets or reset, OSC 8
/// hyperlinks made of printable ASCII. Dropped: every other OSC, DCS, SOS, PM, APC, CSI `… t`,
/// escapes with other intermediates (`ESC % @` would leave UTF-8 mode and arm raw C1 bytes),
/// and C1 controls, raw or UTF-8 encoded (`C2 9B` is CSI to some terminals).
struct TerminalOutputFilter {
    /// The most bytes of one sequence held while it is incomplete.
    static let heldLimit = 4096
    /// The most bytes of a CSI sequence; real ones (SGR with true colours) stay far below.
    static let csiLimit = 256

    private enum State {
        case ground
        /// A 0xC2 byte held: with 0x80–0x9F after it, it encodes a C1 control.
        case afterC2
        /// After ESC; `held` is ESC and any intermediates.
        case escape
        /// Inside CSI; `held` is the sequence so far.
        case csi
        /// A CSI being dropped (too long or refused): skip to its final byte.
        case csiDropped
        /// After ESC ]: the OSC number so far in `held`.
        case oscNumber
        /// An OSC that passes (a hyperlink), held until its terminator.
        case oscKept
        /// A string being dropped (DCS, SOS, PM, APC, or a refused OSC) until its terminator.
        case stringDropped
        /// An ESC inside a string: `\` ends it (ST); anything else aborts it.
        case stringEscape(kept: Bool)
    }

    private var state = State.ground
    private var held: [UInt8] = []
    /// UTF-8 continuation bytes still expected after a lead byte in ground.
    private var continuation = 0

    private static let esc: UInt8 = 0x1B
    private static let bel: UInt8 = 0x07
    /// Intermediates of escapes that pass: charset designation (G0–G3), DEC line attributes, ANSI conformance.
    private static let passedIntermediates: Set<UInt8> = Set("()*+-./# ".utf8)

    /// Filters `bytes`, appending what may reach the terminal to `output`.
    mutating func filter(_ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                // Runs of plain text and line endings, most of any output, are copied whole.
                if case .ground = state, continuation == 0 {
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
        case .afterC2:
            state = .ground
            if (0x80...0x9F).contains(byte) { return }  // a C1 control in UTF-8: dropped with its lead byte
            output.append(0xC2)
            continuation = 1
            ground(byte, &output)
        case .escape: escape(byte, &output)
        case .csi, .csiDropped: csi(byte, &output)
        case .oscNumber: oscNumber(byte, &output)
        case .oscKept, .stringDropped: string(byte, &output)
        case .stringEscape(let kept):
            if byte == UInt8(ascii: "\\") {
                if kept { output += held + [Self.esc, byte] }
                reset()
            } else {
                reset()
                state = .escape
                held = [Self.esc]
                escape(byte, &output)
            }
        }
    }

    private mutating func reset() {
        state = .ground
        held.removeAll(keepingCapacity: true)
    }

    private mutating func ground(_ byte: UInt8, _ output: inout [UInt8]) {
        switch byte {
        case 0x00..<0x80:
            continuation = 0
            if byte == Self.esc {
                state = .escape
                held = [byte]
            } else if byte != 0x05 {  // ENQ makes the terminal type its answerback
                output.append(byte)
            }
        case 0x80..<0xC0:
            if continuation > 0 {
                continuation -= 1
                output.append(byte)
            } else if byte >= 0xA0 {
                output.append(byte)  // a stray continuation byte: the terminal shows U+FFFD
            }  // else a raw C1 control: dropped
        case 0xC2:
            state = .afterC2
        default:
            switch byte {
            case 0xC3...0xDF: continuation = 1
            case 0xE0...0xEF: continuation = 2
            case 0xF0...0xF4: continuation = 3
            default: continuation = 0
            }
            output.append(byte)
        }
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
        case 0x05: break
        default: output.append(byte)
        }
        return true
    }

    private mutating func escape(_ byte: UInt8, _ output: inout [UInt8]) {
        if controlInSequence(byte, &output) { return }
        switch byte {
        case 0x20...0x2F:
            held.append(byte)
            if held.count > 8 { state = .csiDropped }  // no real escape has that many
        case 0x30...0x7E:
            if held.count == 1 {
                switch byte {
                case UInt8(ascii: "["):
                    held.append(byte)
                    state = .csi
                    return
                case UInt8(ascii: "]"):
                    held.append(byte)
                    state = .oscNumber
                    return
                case UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
                    held.removeAll(keepingCapacity: true)
                    state = .stringDropped
                    return
                default: break
                }
            }
            if held.dropFirst().allSatisfy(Self.passedIntermediates.contains) { output += held + [byte] }
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
        let dropping: Bool
        if case .csiDropped = state { dropping = true } else { dropping = false }
        switch byte {
        case 0x20...0x3F:
            guard !dropping else { return }
            held.append(byte)
            if held.count >= Self.csiLimit {
                held.removeAll(keepingCapacity: true)
                state = .csiDropped
            }
        case 0x40...0x7E:
            // `t`: XTWINOPS (move, resize, iconify, report or set the title) and its kin.
            if !dropping && byte != UInt8(ascii: "t") { output += held + [byte] }
            reset()
        case 0x7F:
            break
        default:
            reset()
            ground(byte, &output)
        }
    }

    private mutating func oscNumber(_ byte: UInt8, _ output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9") where held.count < 10:
            held.append(byte)
        case UInt8(ascii: ";") where held.count == 3 && held[2] == UInt8(ascii: "8"):
            held.append(byte)
            state = .oscKept  // OSC 8: a hyperlink
        default:
            held.removeAll(keepingCapacity: true)
            state = .stringDropped
            string(byte, &output)
        }
    }

    private mutating func string(_ byte: UInt8, _ output: inout [UInt8]) {
        let kept: Bool
        if case .oscKept = state { kept = true } else { kept = false }
        switch byte {
        case Self.bel:
            if kept { output += held + [byte] }
            reset()
        case Self.esc:
            state = .stringEscape(kept: kept)
        case 0x18, 0x1A:
            reset()
        case 0x20...0x7E where kept:
            held.append(byte)
            // One more byte for the terminator's ESC must still fit.
            if held.count >= Self.heldLimit - 1 {
                held.removeAll(keepingCapacity: true)
                state = .stringDropped
            }
        default:
            // A hyperlink is printable ASCII; anything else in it (a C1 byte a terminal might
            // take as its end) drops it whole. Dropped strings swallow everything.
            if kept {
                held.removeAll(keepingCapacity: true)
                state = .stringDropped
            }
        }
    }
}
