#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import FoundationEssentials
import Support

/// One direction of the payload's stdio as the waiter moves it: from `source` into memory
/// (capture) or to a descriptor (relay), through a bounded buffer, so that neither side can
/// make the launcher block or grow without bound. The payload only ever holds pipe ends
/// and pty slaves the launcher made, never the caller's own file descriptions.
struct ByteStream {
    enum Sink: Equatable {
        /// Kept in memory up to `limit` bytes; the rest is read and dropped.
        case capture(limit: UInt64)
        /// Written to this descriptor as it arrives.
        case descriptor(Int32)
    }

    /// What reaching the end of the source means for the sink.
    enum EndAction {
        case none
        /// Close the sink (a pipe the launcher owns): the payload reads EOF.
        case closeSink
        /// Write one byte (a terminal's VEOF) into the sink: the payload's read returns 0.
        case writeByte(UInt8)
    }

    /// Read-ahead kept per stream while the sink is slow.
    static let bufferLimit = 64 << 10

    private(set) var source: Int32
    let sink: Sink
    /// Payload output (stdout, stderr, pty) rather than the caller's input.
    let isOutput: Bool
    /// The source is a pipe end the launcher made: it is closed when the sink breaks (the
    /// payload then sees EPIPE, as it would have writing to the caller directly) and at the end.
    let ownsSource: Bool
    let endAction: EndAction
    /// Terminal output (a pty's) passes through this before it is written.
    private var terminalFilter: TerminalOutputFilter?

    private(set) var captured = Data()
    private(set) var truncated = false
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private(set) var sinkBroken = false
    private var sinkFD: Int32
    /// Most bytes per plain write: a write after POLLOUT of at most PIPE_BUF bytes does not
    /// block on a pipe, so a stopped reader (or `^S` on a terminal) cannot stall the waiter.
    private let chunk: Int
    /// Pipes and sockets take `pwritev2(RWF_NOWAIT)`: all the pending bytes in one call that
    /// never blocks, without setting O_NONBLOCK on a description the caller shares.
    private var noWait: Bool
    /// The read buffer: one page until a read fills it, then `bufferLimit`. A stream that carries
    /// little or nothing (most launches' stderr, `/bin/true`'s stdout) costs no 64 KiB to allocate
    /// and zero, 16 page faults each.
    private var scratch: [UInt8] = []
    private static let firstReadSize = 4096

    init(
        source: Int32, sink: Sink, isOutput: Bool, ownsSource: Bool, endAction: EndAction = .none,
        terminalFilter: TerminalOutputFilter? = nil
    ) {
        self.source = source
        self.sink = sink
        self.isOutput = isOutput
        self.ownsSource = ownsSource
        self.endAction = endAction
        self.terminalFilter = terminalFilter
        if case .descriptor(let fd) = sink {
            sinkFD = fd
            var info = stat()
            let type = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : 0
            chunk = type == S_IFREG || type == S_IFBLK ? Self.bufferLimit : Int(PIPE_BUF)
            noWait = type == S_IFIFO || type == S_IFSOCK
        } else {
            sinkFD = -1
            chunk = 0
            noWait = false
        }
    }

    private var pendingCount: Int { pending.count - pendingStart }

    /// Nothing more will move.
    var finished: Bool { source < 0 && (pendingCount == 0 || sinkBroken) }

    var wantsRead: Bool {
        guard source >= 0 else { return false }
        if case .capture = sink { return true }
        return pendingCount < Self.bufferLimit
    }

    var wantsWrite: Bool { sinkFD >= 0 && !sinkBroken && pendingCount > 0 }

    var writeFD: Int32 { sinkFD }

    /// Reads what is available (after POLLIN, or any poll event on the source).
    mutating func readSource() {
        if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: Self.firstReadSize) }
        let room: Int
        if case .capture = sink { room = scratch.count } else { room = min(scratch.count, Self.bufferLimit - pendingCount) }
        let fd = source
        let result = retryingOnInterrupt { read(fd, &scratch, max(1, room)) }
        if case .failure(let error) = result, error.rawValue == EAGAIN { return }
        // EOF, or an error such as EIO from a pty master whose slave every process has closed.
        guard case .success(let count) = result, count > 0 else { return endOfSource() }
        defer {
            if count == scratch.count && scratch.count < Self.bufferLimit {
                scratch = [UInt8](repeating: 0, count: Self.bufferLimit)
            }
        }
        switch sink {
        case .capture(let limit):
            let space = Int(min(UInt64(Int.max), limit)) - captured.count
            if space > 0 { captured.append(contentsOf: scratch[..<min(count, space)]) }
            if count > space { truncated = true }
        case .descriptor:
            if sinkBroken { return }  // a gone caller: keep the payload unblocked, drop the bytes
            if pendingStart > 0 && pendingStart == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
            }
            if terminalFilter != nil {
                terminalFilter!.filter(scratch[..<count], into: &pending)
            } else {
                pending.append(contentsOf: scratch[..<count])
            }
        }
    }

    /// Writes one chunk of the pending bytes (after POLLOUT, or an error event on the sink).
    mutating func writeSink() {
        let (start, fd) = (pendingStart, sinkFD)
        var result = Result<Int, Errno>.success(0)
        if noWait {
            let count = pendingCount
            result = pending.withUnsafeBytes { bytes in
                retryingOnInterrupt { csys_write_nowait(fd, bytes.baseAddress! + start, count) }
            }
            if case .failure(let error) = result, [EOPNOTSUPP, EINVAL, ENOSYS].contains(error.rawValue) {
                noWait = false
            }
        }
        if !noWait {
            let length = min(chunk, pendingCount)
            result = pending.withUnsafeBytes { bytes in
                retryingOnInterrupt { write(fd, bytes.baseAddress! + start, length) }
            }
        }
        let written: Int
        switch result {
        case .success(let count): written = count
        case .failure(let error) where error.rawValue == EAGAIN: return
        case .failure:
            breakSink()
            return
        }
        pendingStart += written
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            if source < 0 { finishSink() }
        }
    }

    /// Stops reading the caller's input (the payload has ended); pending bytes are dropped.
    mutating func abandon() {
        source = -1
        pending.removeAll()
        pendingStart = 0
        finishSink()
    }

    /// Closes whatever this stream still owns.
    mutating func close() {
        if ownsSource && source >= 0 { Glibc.close(source) }
        source = -1
        if case .closeSink = endAction, sinkFD >= 0 { Glibc.close(sinkFD) }
        sinkFD = -1
    }

    private mutating func endOfSource() {
        if ownsSource { Glibc.close(source) }
        source = -1
        if pendingCount == 0 { finishSink() }
    }

    /// The source has ended and everything read was written: pass the end on.
    private mutating func finishSink() {
        guard sinkFD >= 0, !sinkBroken else { return }
        switch endAction {
        case .none:
            break
        case .closeSink:
            Glibc.close(sinkFD)
            sinkFD = -1
        case .writeByte(var byte):
            _ = write(sinkFD, &byte, 1)
            sinkFD = -1
        }
    }

    private mutating func breakSink() {
        sinkBroken = true
        pending.removeAll()
        pendingStart = 0
        if case .closeSink = endAction {
            Glibc.close(sinkFD)
            sinkFD = -1
        }
        if ownsSource && source >= 0 {
            Glibc.close(source)
            source = -1
        } else if !isOutput {
            source = -1  // the payload stopped reading: leave the caller's input unread
        }
    }
}
