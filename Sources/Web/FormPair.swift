/// One `name=value` pair of a query string, a form submission or a POST body, decoded.
public typealias FormPair = (name: String, value: String)
