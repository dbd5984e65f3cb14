/// Records decoded from blobs minute after minute (the app's reports, its grants), by time: each minute's
/// are sorted when the next minute's begin, so a read of blobs by minute ends sorted (a sort of the whole
/// read moved every record, strings and all, and compared the ties of each event's two keys).
package struct RecordsByTime<Record> {
    private var records: [Record] = []
    private var minute: Int64?
    private var minuteStart = 0
    private let order: ([Record]) -> [Record]

    /// An empty read whose records `order` sorts (``PurchaseSLICore/GrantRecord/byTime(_:)``,
    /// ``PurchaseSLICore/ClientReport/byTime(_:)``: O(n) when already in order).
    package init(order: @escaping ([Record]) -> [Record]) {
        self.order = order
    }

    /// Adds what `decode` appends of a blob of `minute`.
    package mutating func append(minute: Int64, _ decode: (inout [Record]) throws -> Void) rethrows {
        if minute != self.minute {
            sortLastMinute()
            (self.minute, minuteStart) = (minute, records.count)
        }
        try decode(&records)
    }

    /// The records read, by time (blobs read out of minute order are sorted whole).
    package mutating func sorted() -> [Record] {
        sortLastMinute()
        return order(records)
    }

    private mutating func sortLastMinute() {
        guard records.count - minuteStart > 1 else { return }
        records.replaceSubrange(minuteStart..., with: order(Array(records[minuteStart...])))
    }
}
