#if canImport(Glibc)
    import Glibc
#endif
import Dispatch
import Support
import Synchronization

/// The launcher's side of a `-t` run: the pty master's output goes to the caller's stdout
/// (the payload's stdout and stderr are one terminal, as with `docker run -t`) through a
/// `TerminalOutputFilter` (no clipboard writes, titles or window operations), the caller's
/// stdin goes to the master with `-i`, the caller's terminal is raw meanwhile, and its window
/// size follows SIGWINCH onto the pty.
final class TerminalRelay {
    private let caller: CallerTerminal?
    private let raw: Bool
    private let handle: LaunchHandle?
    /// The master, or -1 once finished: the SIGWINCH handler runs on another thread.
    private final class SharedFD: Sendable {
        let value: Mutex<Int32>
        init(_ fd: Int32) { value = Mutex(fd) }
    }
    private let master: SharedFD
    private let resize: (any DispatchSourceSignal)?

    /// The byte streams of a pty run; `master` becomes non-blocking (a description only the
    /// launcher holds).
    static func streams(master: Int32, interactive: Bool) -> [ByteStream] {
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        // What the payload writes drives the caller's terminal: only drawing passes.
        var streams = [
            ByteStream(
                source: master, sink: .descriptor(1), isOutput: true, ownsSource: false,
                terminalFilter: TerminalOutputFilter())
        ]
        if interactive {
            // The end of the caller's input reads as end-of-file (VEOF, ^D) inside.
            streams.append(
                ByteStream(
                    source: 0, sink: .descriptor(master), isOutput: false, ownsSource: false,
                    endAction: .writeByte(4)))
        }
        return streams
    }

    init(master: Int32, caller: CallerTerminal?, raw: Bool, handle: LaunchHandle?) {
        self.caller = caller
        self.raw = raw && caller?.fd == 0
        self.handle = handle
        let shared = SharedFD(master)
        self.master = shared
        if self.raw, let caller {
            handle?.usingTerminal(caller)
            caller.makeRaw()
        }
        guard let caller else {
            resize = nil
            return
        }
        // Registered before the caller can resize: a SIGWINCH before that was lost (its default is to be ignored).
        resize =
            RegisteredSignalSource.make([SIGWINCH], queue: .global()) { _, _ in
                shared.value.withLock { fd in if fd >= 0 { caller.copyWindowSize(to: fd) } }
            }.first
    }

    /// Stops following the window size and restores the caller's terminal.
    func finish() {
        resize?.cancel()
        master.value.withLock { $0 = -1 }
        if raw {
            caller?.restore()
            handle?.usingTerminal(nil)
        }
    }
}
