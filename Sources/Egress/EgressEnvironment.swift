/// The environment that points a sandboxed process at its egress proxy. HTTP(S) goes
/// through CONNECT / plain forwarding; `ALL_PROXY` uses `socks5h` so that names are
/// resolved by the proxy (the sandbox has no resolver). `NO_PROXY` is set empty so that
/// nothing bypasses the proxy (there is no route anyway: bypassing only fails).
public enum EgressEnvironment {
    /// Name/value pairs in a stable order, for a proxy listening on `host:port` inside the sandbox.
    public static func variables(host: String = "127.0.0.1", port: UInt16 = 3128) -> [(name: String, value: String)] {
        let http = "http://\(host):\(port)"
        let socks = "socks5h://\(host):\(port)"
        return [
            ("HTTP_PROXY", http), ("http_proxy", http),
            ("HTTPS_PROXY", http), ("https_proxy", http),
            ("ALL_PROXY", socks), ("all_proxy", socks),
            ("NO_PROXY", ""), ("no_proxy", ""),
            ("PIP_PROXY", http),
            ("npm_config_proxy", http), ("npm_config_https_proxy", http),
        ]
    }
}
