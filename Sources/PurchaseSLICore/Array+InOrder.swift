extension Array {
    /// The elements sorted by `precedes`, or this array itself when already in that order (checked by
    /// index: zipped pairs would copy every element twice). O(n) in order, else O(n log n).
    func sortedUnlessInOrder(by precedes: (Element, Element) -> Bool) -> [Element] {
        if indices.dropFirst().allSatisfy({ !precedes(self[$0], self[$0 - 1]) }) { return self }
        return sorted(by: precedes)
    }
}
