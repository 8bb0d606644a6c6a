#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Waits for the sandbox init to report the payload's status, collecting captured output,
/// and kills the whole tree at the deadline (pid 1 dying tears the pid namespace down).
struct Waiter {
    let pid: pid_t
    let statusFD: Int32
    var stdoutFD: Int32
    var stderrFD: Int32
    let limit: UInt64

    var stdout = Data()
    var stderr = Data()
    var stdoutTruncated = false
    var stderrTruncated = false
    var payloadStatus: Int32?
    var timedOut = false

    init(pid: pid_t, statusFD: Int32, stdoutFD: Int32, stderrFD: Int32, limit: UInt64) {
        self.pid = pid
        self.statusFD = statusFD
        self.stdoutFD = stdoutFD
        self.stderrFD = stderrFD
        self.limit = limit
    }

    mutating func wait(until deadline: UInt64?) {
        var statusOpen = true
        var statusBytes: [UInt8] = []
        var killedAt: UInt64?
        while statusOpen || stdoutFD >= 0 || stderrFD >= 0 {
            let now = DispatchTime.now().uptimeNanoseconds
            if let deadline, killedAt == nil, now >= deadline {
                timedOut = payloadStatus == nil
                kill(pid, SIGKILL)
                killedAt = now
            }
            // Once the tree is dead the pipes close; never wait on them forever regardless.
            if let killedAt, now - killedAt > 5_000_000_000 { break }
            var timeout: Int32 = -1
            if let deadline, killedAt == nil { timeout = Int32(min(1000, (deadline - now) / 1_000_000 + 1)) }
            if killedAt != nil { timeout = 100 }
            var fds: [pollfd] = []
            if statusOpen { fds.append(pollfd(fd: statusFD, events: Int16(POLLIN), revents: 0)) }
            if stdoutFD >= 0 { fds.append(pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)) }
            if stderrFD >= 0 { fds.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { break }
            guard ready > 0 else { continue }
            for entry in fds where entry.revents != 0 {
                if entry.fd == statusFD {
                    var buffer = [UInt8](repeating: 0, count: 8)
                    let count = read(statusFD, &buffer, buffer.count)
                    if count > 0 {
                        statusBytes.append(contentsOf: buffer[..<count])
                        if statusBytes.count >= 4 {
                            payloadStatus = statusBytes.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
                        }
                    } else if count == 0 || errno != EINTR {
                        statusOpen = false
                    }
                } else if entry.fd == stdoutFD {
                    if !drain(&stdoutFD, into: &stdout, truncated: &stdoutTruncated) { stdoutFD = -1 }
                } else if entry.fd == stderrFD {
                    if !drain(&stderrFD, into: &stderr, truncated: &stderrTruncated) { stderrFD = -1 }
                }
            }
        }
    }

    /// Reads what is available; false at EOF. Bytes past the limit are read and dropped so
    /// a chatty payload never blocks on a full pipe.
    private func drain(_ fd: inout Int32, into data: inout Data, truncated: inout Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(fd, &buffer, buffer.count)
        if count < 0 && errno == EINTR { return true }
        guard count > 0 else { return false }
        let room = Int(min(UInt64(Int.max), limit)) - data.count
        if room > 0 { data.append(contentsOf: buffer[..<min(count, room)]) }
        if count > room { truncated = true }
        return true
    }
}
