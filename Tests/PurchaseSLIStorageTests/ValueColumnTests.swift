import PurchaseSLIStorage
import Testing

/// A series table's column holds each row's value id, whatever the ids and however many distinct ones it
/// has: in a byte a row up to 256 of them, two up to 65,536, the ids themselves past that.
@Suite struct ValueColumnTests {
    /// Columns of `count` rows cycling through `distinct` ids (from `first`, by `step`): every row reads
    /// back its id, as the column was built and as rows were appended one by one.
    @Test(
        "every row reads back its id",
        arguments: [
            ("a few ids", 1_000, 3, 1, 1),
            ("no value and one id", 10, 2, 0, 1),
            ("256 ids, a byte each", 2_000, 256, 1, 1),
            ("257 ids, past a byte", 2_000, 257, 1, 1),
            ("65,536 ids, two bytes each", 70_000, 65_536, 1, 1),
            ("65,537 ids, past two bytes", 70_000, 65_537, 1, 1),
            ("ids past 4 bytes, a few of them", 500, 5, Int64(Int32.max) - 2, 1),
            ("ids past 4 bytes, many of them", 70_000, 66_000, Int64(Int32.max) - 30_000, 1),
            ("negative ids", 500, 300, -150, 1),
        ] as [(String, Int, Int, Int64, Int64)])
    func everyRowReadsBackItsID(_ name: String, count: Int, distinct: Int, first: Int64, step: Int64) {
        // Ids in an order that revisits earlier ones, as series rows do.
        let ids = (0..<count).map { row in first + Int64((row * 7919) % distinct) * step }
        let built = ValueColumn(ids)
        var appended = ValueColumn()
        for id in ids { appended.append(id) }
        #expect(Array(built) == ids)
        #expect(Array(appended) == ids)
        #expect(built.count == count)
    }
}
