import Adapters
import Scan
import Synchronization

/// One self-overwriting status line on stderr while scanning, only on a terminal.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let shown = Mutex(false)

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func show(_ event: ScanProgress) {
        guard enabled else { return }
        let text: String
        switch event {
        case .started(let tool, let files): text = "\(tool): scanning \(files) files"
        case .file(let tool, let index, let total, let path): text = "\(tool): \(index)/\(total) \(path)"
        case .finished(let tool, let findings): text = "\(tool): done, \(findings) findings"
        }
        shown.withLock { shown in
            Console.write(2, "\r\u{1B}[K" + String(text.prefix(120)))
            shown = true
        }
    }

    func clear() {
        shown.withLock { shown in
            if shown { Console.write(2, "\r\u{1B}[K") }
            shown = false
        }
    }
}
