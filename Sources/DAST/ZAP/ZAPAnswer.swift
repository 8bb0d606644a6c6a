import Documents
import Support

/// One answer of ZAP's JSON API turned into its JSON object or a one-line error. ZAP reports a
/// failed call as HTTP 400 (500 for its own faults) with `{"code": "...", "message": "..."}`;
/// a proxy or firewall in front of it may answer 403 with no JSON at all.
enum ZAPAnswer {
    /// The JSON object of a successful answer.
    /// - Throws: `SentinelError(.toolFailed)` naming `step`, for an error code, a failing status
    ///   or a body that is not a JSON object.
    static func read(status: Int, body: [UInt8], step: String, apiURL: String, secret: String?) throws -> DocumentNode {
        let document = try? JSON.parse(body, file: "ZAP answer")
        if let code = document?["code"]?.string {
            let message = document?["message"]?.string.map { ZAPText.oneLine($0, limit: 200, secret: secret) }
            throw failure(
                code: ZAPText.oneLine(code, limit: 60, secret: secret), message: message, step: step, apiURL: apiURL, hasKey: secret != nil)
        }
        guard status == 200 else {
            if status == 401 || status == 403 {
                throw SentinelError(
                    .toolFailed,
                    "zap: the ZAP API at \(apiURL) refused \(step) (HTTP \(status)): check the API key and the addresses ZAP permits")
            }
            throw SentinelError(.toolFailed, "zap: \(step) failed: the ZAP API at \(apiURL) answered HTTP \(status)")
        }
        guard let document, document.isObject else {
            throw SentinelError(
                .toolFailed, "zap: \(step): the ZAP API at \(apiURL) answered with something other than a JSON object (\(body.count) bytes)"
            )
        }
        return document
    }

    /// The error for ZAP's `{"code": ...}`: a refused key says how to fix it; any other code
    /// names the step, the code and ZAP's message.
    static func failure(code: String, message: String?, step: String, apiURL: String, hasKey: Bool) -> SentinelError {
        let detail = message.map { $0.isEmpty ? "" : " (\($0))" } ?? ""
        switch code {
        case "bad_api_key":
            let fix = hasKey ? "check the key file" : "ZAP requires one: give the key file"
            return SentinelError(.toolFailed, "zap: the ZAP API at \(apiURL) rejected the API key (bad_api_key): \(fix)")
        case "disabled":
            return SentinelError(.toolFailed, "zap: \(step) failed: the ZAP API at \(apiURL) is disabled\(detail)")
        default:
            return SentinelError(.toolFailed, "zap: \(step) failed: \(code)\(detail)")
        }
    }
}
