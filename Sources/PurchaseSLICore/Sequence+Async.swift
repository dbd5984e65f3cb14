/// Async forms of `map` and `filter`, for transforms that await a store.
extension Sequence {
    /// The elements transformed by an async `transform`, one after the other, in order.
    public func asyncMap<Transformed>(_ transform: (Element) async throws -> Transformed) async rethrows -> [Transformed] {
        var transformed: [Transformed] = []
        for element in self { transformed.append(try await transform(element)) }
        return transformed
    }

    /// The elements an async `isIncluded` keeps, in order.
    public func asyncFilter(_ isIncluded: (Element) async throws -> Bool) async rethrows -> [Element] {
        var kept: [Element] = []
        for element in self where try await isIncluded(element) { kept.append(element) }
        return kept
    }
}
