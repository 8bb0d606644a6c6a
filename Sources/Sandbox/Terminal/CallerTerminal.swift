#if canImport(Glibc)
    import Glibc
#endif

/// The caller's terminal during a `-t` run: in raw mode while keystrokes go to the sandbox's
/// pty (its line discipline, not the caller's, turns `^C` into SIGINT for the payload), put
/// back exactly as it was afterwards; its window size is copied onto the pty.
struct CallerTerminal: Sendable {
    let fd: Int32
    private let saved: termios

    /// The terminal on `fd`, or nil when `fd` is not one.
    init?(fd: Int32) {
        var attributes = termios()
        guard isatty(fd) == 1, tcgetattr(fd, &attributes) == 0 else { return nil }
        self.fd = fd
        saved = attributes
    }

    func makeRaw() {
        var raw = saved
        cfmakeraw(&raw)
        _ = tcsetattr(fd, TCSANOW, &raw)
    }

    /// Safe from any thread, any number of times.
    func restore() {
        var attributes = saved
        _ = tcsetattr(fd, TCSANOW, &attributes)
    }

    /// Its window size, when the terminal reports one.
    var windowSize: winsize? {
        var size = winsize()
        return ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 ? size : nil
    }

    /// Copies the window size of `fd` onto `pty` (TIOCSWINSZ makes the kernel send the
    /// payload's foreground group SIGWINCH).
    func copyWindowSize(to pty: Int32) {
        guard var size = windowSize else { return }
        _ = ioctl(pty, UInt(TIOCSWINSZ), &size)
    }
}
