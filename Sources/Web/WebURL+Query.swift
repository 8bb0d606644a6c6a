extension WebURL {
    /// The query's `name=value` pairs decoded as `application/x-www-form-urlencoded` (`+` is a
    /// space, invalid escapes stay literal); empty without a query.
    public var queryItems: [FormPair] { query.map(FormEncoding.decode) ?? [] }

    /// This URL with its query replaced by `items`, form-encoded (unlabelled `[(String, String)]` converts);
    /// no query when `items` is empty.
    public func withQuery(_ items: [FormPair]) -> WebURL {
        with(query: items.isEmpty ? nil : FormEncoding.encode(items))
    }

    /// Origin, path and the sorted distinct parameter names (values ignored):
    /// `http://h:8080/p?a&b`. The crawler requests one URL per key, so `?id=1` and `?id=2` are
    /// one page while `?id=1&debug=1` is another.
    public var dedupeKey: String {
        let names = Set(queryItems.map(\.name)).sorted()
        let key = origin.description + path
        return names.isEmpty ? key : key + "?" + names.joined(separator: "&")
    }
}
