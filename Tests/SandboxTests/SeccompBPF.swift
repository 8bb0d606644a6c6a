import CSandbox
@testable import Sandbox

/// One syscall as a seccomp filter sees it (struct seccomp_data), x86_64 unless told.
struct SyscallCall: Sendable, CustomStringConvertible {
    static let auditArchX8664: UInt32 = 0xC000_003E
    static let auditArchI386: UInt32 = 0x4000_0003

    var nr: Int32
    var args: [UInt64]
    var arch: UInt32

    init(_ nr: Int32, _ args: UInt64..., arch: UInt32 = SyscallCall.auditArchX8664) {
        self.nr = nr
        self.args = args + Array(repeating: 0, count: max(0, 6 - args.count))
        self.arch = arch
    }

    var description: String { "nr=\(nr)(\(args.prefix(3).map { "0x" + String($0, radix: 16) }.joined(separator: ", ")))" }

    /// The 32-bit word at `offset` of struct seccomp_data (little-endian halves of the u64s).
    func word(at offset: UInt32) -> UInt32? {
        switch offset {
        case 0: return UInt32(bitPattern: nr)
        case 4: return arch
        case 8, 12: return 0  // instruction_pointer
        case 16..<64 where offset % 4 == 0:
            let value = args[Int(offset - 16) / 8]
            return offset % 8 == 0 ? UInt32(truncatingIfNeeded: value) : UInt32(truncatingIfNeeded: value >> 32)
        default: return nil
        }
    }
}

/// What a filter returned, in the kernel's terms.
enum SeccompVerdict: Equatable, Sendable, CustomStringConvertible {
    case allow
    case errno(Int32)
    case killProcess
    case killThread
    case other(UInt32)

    init(_ value: UInt32) {
        switch value & 0xFFFF_0000 {
        case 0x7FFF_0000: self = .allow
        case 0x0005_0000: self = .errno(Int32(value & 0xFFFF))
        case 0x8000_0000: self = .killProcess
        case 0x0000_0000: self = .killThread
        default: self = .other(value)
        }
    }

    var description: String {
        switch self {
        case .allow: return "ALLOW"
        case .errno(let value): return "ERRNO(\(value))"
        case .killProcess: return "KILL_PROCESS"
        case .killThread: return "KILL_THREAD"
        case .other(let value): return "0x" + String(value, radix: 16)
        }
    }
}

struct BPFError: Error, CustomStringConvertible {
    let description: String
}

/// A classic-BPF interpreter for the instructions libseccomp emits, so a test can ask a compiled
/// program what it answers for a syscall without loading it into a process.
struct SeccompBPF: Sendable {
    let code: [UInt16]
    let jt: [UInt8]
    let jf: [UInt8]
    let k: [UInt32]

    init(_ program: SeccompProgram) {
        let fprog = program.pointer.pointee
        let filters = UnsafeBufferPointer(start: fprog.filter, count: Int(fprog.len))
        code = filters.map(\.code)
        jt = filters.map(\.jt)
        jf = filters.map(\.jf)
        k = filters.map(\.k)
    }

    /// Runs the program on `call`; throws on an instruction it does not model or a bad jump.
    func run(_ call: SyscallCall) throws -> SeccompVerdict {
        var a: UInt32 = 0
        var x: UInt32 = 0
        var memory = [UInt32](repeating: 0, count: 16)
        var pc = 0
        while pc < code.count {
            let op = code[pc]
            let kk = k[pc]
            switch op {
            case 0x20:  // ld [k]
                guard let value = call.word(at: kk) else { throw BPFError(description: "load at \(kk)") }
                a = value
            case 0x00: a = kk  // ld #k
            case 0x01: x = kk  // ldx #k
            case 0x60: a = memory[Int(kk & 15)]  // ld M[k]
            case 0x61: x = memory[Int(kk & 15)]  // ldx M[k]
            case 0x02: memory[Int(kk & 15)] = a  // st M[k]
            case 0x03: memory[Int(kk & 15)] = x  // stx M[k]
            case 0x07: x = a  // tax
            case 0x87: a = x  // txa
            case 0x54: a &= kk  // and #k
            case 0x44: a |= kk  // or #k
            case 0x04: a &+= kk  // add #k
            case 0x14: a &-= kk  // sub #k
            case 0x05:  // ja k
                pc += 1 + Int(kk)
                continue
            case 0x15, 0x25, 0x35, 0x45:  // jeq, jgt, jge, jset #k
                let taken: Bool
                switch op {
                case 0x15: taken = a == kk
                case 0x25: taken = a > kk
                case 0x35: taken = a >= kk
                default: taken = a & kk != 0
                }
                pc += 1 + Int(taken ? jt[pc] : jf[pc])
                continue
            case 0x06: return SeccompVerdict(kk)  // ret #k
            case 0x16: return SeccompVerdict(a)  // ret a
            default:
                throw BPFError(description: "instruction 0x\(String(op, radix: 16)) at \(pc) is not modelled")
            }
            pc += 1
        }
        throw BPFError(description: "ran off the end of the program")
    }
}
