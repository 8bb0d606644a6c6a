/// What Sentinel knows about Wapiti's categories (the keys of its report's `vulnerabilities`,
/// `anomalies` and `additionals`): rule ids, CWE ids, and which are observations rather than
/// guesses.
enum WapitiCategories {
    /// CWE ids by category name, lowercased (Wapiti 3.2's names). Categories not listed get the
    /// CWE ids their `classifications` references name, if any.
    static let cwe: [String: [Int]] = [
        "reflected cross site scripting": [79], "stored cross site scripting": [79],
        "html injection": [80], "stored html injection": [80],
        "sql injection": [89], "blind sql injection": [89], "xpath injection": [643],
        "command execution": [78], "path traversal": [22], "crlf injection": [93, 113],
        "xml external entity": [611], "server side request forgery": [918], "open redirect": [601],
        "ldap injection": [90], "log4shell": [917], "spring4shell": [94],
        "content security policy configuration": [693], "clickjacking protection": [1021],
        "mime type confusion": [693], "http strict transport security (hsts)": [319],
        "unencrypted channels": [319], "httponly flag cookie": [1004], "secure flag cookie": [614],
        "cross site request forgery": [352], "unrestricted file upload": [434], "backup file": [530],
        "weak credentials": [521], "htaccess bypass": [538], "potentially dangerous file": [538],
        "internal server error": [388], "resource consumption": [400],
    ]

    /// Categories whose check is an observation of a response (a header or cookie flag is
    /// there or not): high confidence. Other vulnerabilities are medium, anomalies and
    /// additional information low.
    static let observed: Set<String> = [
        "content security policy configuration", "clickjacking protection", "mime type confusion",
        "http strict transport security (hsts)", "unencrypted channels", "httponly flag cookie", "secure flag cookie",
    ]

    /// `Reflected Cross Site Scripting` → `reflected-cross-site-scripting`: lowercase ASCII
    /// letters and digits, other runs become one `-`, at most 80 characters; `unknown` when
    /// nothing is left.
    static func slug(_ name: String) -> String {
        var slug = ""
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        let bounded = String(slug.prefix(80))
        return bounded.isEmpty ? "unknown" : bounded
    }
}
