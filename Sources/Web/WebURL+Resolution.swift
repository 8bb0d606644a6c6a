extension WebURL {
    /// A URL from split components: nil unless the scheme is `http`/`https` with a valid authority.
    init?(parts: URLReference) {
        guard let scheme = parts.scheme, scheme == "http" || scheme == "https", let text = parts.authority,
            let authority = URLAuthority(text, scheme: scheme)
        else { return nil }
        self.init(
            scheme: scheme, host: authority.host, port: authority.port, path: URLPath.normalized(parts.path),
            query: parts.query.map { URLText.encodingUnsafe($0, uppercasing: false) },
            fragment: parts.fragment.map { URLText.encodingUnsafe($0, uppercasing: false) },
            userInfo: authority.userInfo)
    }

    /// `reference` (an `href`, `src`, `Location`...) resolved against this URL per RFC 3986
    /// §5.2, without its fragment. Browsers' clean-ups come first: surrounding whitespace is
    /// trimmed, tabs and newlines inside are dropped, spaces are escaped. Nil for non-HTTP
    /// schemes (`javascript:`, `mailto:`, `data:`, `tel:`...) and for invalid hosts or ports.
    /// `http:g` (same scheme, no `//`) is read as the relative `g`, as browsers do.
    public func resolving(_ reference: String) -> WebURL? {
        let trimmed = URLText.trimmed(reference)
        let cleaned = trimmed.utf8.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard !cleaned.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        var parts = URLReference(String(decoding: cleaned, as: UTF8.self))
        if let referenceScheme = parts.scheme {
            guard referenceScheme == "http" || referenceScheme == "https" else { return nil }
            guard parts.authority == nil, referenceScheme == scheme else {
                return WebURL(parts: parts)?.with(fragment: nil)
            }
            parts.scheme = nil
        }
        let query = parts.query.map { URLText.encodingUnsafe($0, uppercasing: false) }
        if let text = parts.authority {
            guard let authority = URLAuthority(text, scheme: scheme) else { return nil }
            return WebURL(
                scheme: scheme, host: authority.host, port: authority.port, path: URLPath.normalized(parts.path),
                query: query, fragment: nil, userInfo: authority.userInfo)
        }
        let newPath: String
        var newQuery = query
        if parts.path.isEmpty {
            newPath = path
            if parts.query == nil { newQuery = self.query }
        } else if parts.path.hasPrefix("/") {
            newPath = URLPath.normalized(parts.path)
        } else {
            newPath = URLPath.normalized(URLPath.merged(base: path, reference: parts.path))
        }
        return WebURL(
            scheme: scheme, host: host, port: port, path: newPath, query: newQuery, fragment: nil, userInfo: userInfo)
    }
}
