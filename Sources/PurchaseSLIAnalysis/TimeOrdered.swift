extension Array {
    /// The elements whose time (`millis`) is in `[from, through]`, of an array sorted by that time. O(log n).
    func timeSlice(millis: (Element) -> Int64, from: Int64, through: Int64) -> ArraySlice<Element> {
        let start = firstIndex(millis: millis, notBefore: from)
        let end = firstIndex(millis: millis, notBefore: through == .max ? .max : through + 1)
        return start < end ? self[start..<end] : []
    }

    /// The position of the first element whose time is at least `bound` (`count` when none is), of an array
    /// sorted by time. O(log n).
    func firstIndex(millis: (Element) -> Int64, notBefore bound: Int64) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if millis(self[middle]) < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
