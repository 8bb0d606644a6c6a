import Documents

/// An error line from a structured logger (structlog, python-json-logger, loguru's `serialize`,
/// pino-style): `{"level": "error", "message": …, "exception": …}`. The level key may be
/// `level`, `levelname` or `severity`; the message `message`, `msg` or `event`; the exception
/// `exception`, `exc_info`, `error` or `stack_trace` (a traceback text is read as one).
enum JSONLogSignal {
    static let errorLevels: Set<String> = ["error", "err", "critical", "fatal", "exception", "alert", "emergency"]

    /// The signal of the last error-level line in `lines`; nil when none is one.
    static func signal(_ objects: [DocumentNode]) -> Signal? {
        for object in objects.reversed() {
            let level = (object["level"] ?? object["levelname"] ?? object["severity"])?.scalarText?.lowercased() ?? ""
            guard errorLevels.contains(level) else { continue }
            let message = (object["message"] ?? object["msg"] ?? object["event"])?.scalarText ?? ""
            let exception = (object["exception"] ?? object["exc_info"] ?? object["error"] ?? object["stack_trace"])?.string
            if let exception, let traceback = PythonTraceback.last(in: exception) {
                var signal = traceback.signal(source: "json-log")
                if !message.isEmpty { signal.message = "\(message): \(signal.message)" }
                return signal
            }
            var signal = Signal(
                kind: exception == nil ? .logError : .exception, source: "json-log",
                message: message.isEmpty ? (exception ?? "error") : message)
            if let exception, let (type, _) = PythonTraceback.exceptionLine(exception) { signal.exceptionType = type }
            if let file = (object["pathname"] ?? object["file"] ?? object["filename"])?.string {
                let line = (object["lineno"] ?? object["line"])?.scalarText.flatMap { Int($0) }
                signal.locations = [Signal.Location(file: file, line: line, function: object["funcName"]?.string)]
            }
            return signal
        }
        return nil
    }
}
