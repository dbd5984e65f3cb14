#if PostgreSQL
import PostgresNIO

/// A row's integer and integer-array columns read in order straight from their binary cells.
/// postgres-nio's generic decoding costs several times more per value, which a scan of a week of minute
/// buckets (650,000 series rows of ten integers) paid in seconds.
struct BinaryCells {
    private var cells: PostgresRow.Iterator

    /// The cells of `row`, from its first column.
    init(_ row: PostgresRow) {
        cells = row.makeIterator()
    }

    /// The next column's value: a `bigint`, `integer` or `smallint` in binary format read directly, any
    /// other cell (a NULL, text format) through postgres-nio's decoding, which throws naming the column.
    mutating func integer() throws -> Int64 {
        let cell = next()
        if cell.format == .binary, let bytes = cell.bytes, let value = Self.integer(bytes, cell.dataType) { return value }
        return try cell.decode(Int64.self)
    }

    /// The next column's `bigint[]` (one dimension, no NULLs, as `array_agg` of a NOT NULL column makes it)
    /// read directly; any other cell through postgres-nio's decoding.
    mutating func integers() throws -> [Int64] {
        let cell = next()
        if cell.format == .binary, cell.dataType == .int8Array, var bytes = cell.bytes, let values = Self.integers(&bytes) {
            return values
        }
        return try cell.decode([Int64].self)
    }

    private mutating func next() -> PostgresCell {
        guard let cell = cells.next() else { preconditionFailure("a row read for more columns than its query selects") }
        return cell
    }

    private static func integer(_ bytes: ByteBuffer, _ type: PostgresDataType) -> Int64? {
        switch (type, bytes.readableBytes) {
        case (.int8, 8): bytes.getInteger(at: bytes.readerIndex, as: Int64.self)
        case (.int4, 4): bytes.getInteger(at: bytes.readerIndex, as: Int32.self).map(Int64.init)
        case (.int2, 2): bytes.getInteger(at: bytes.readerIndex, as: Int16.self).map(Int64.init)
        default: nil
        }
    }

    /// PostgreSQL's binary array: dimensions, a NULL flag, the element type, each dimension's length and
    /// lower bound, then each element as a length and its bytes. Nil for anything but a one-dimensional
    /// (or empty) `bigint` array without NULLs.
    private static func integers(_ bytes: inout ByteBuffer) -> [Int64]? {
        guard let (dimensions, hasNulls, element) = bytes.readMultipleIntegers(as: (Int32, Int32, UInt32).self),
            hasNulls == 0, element == PostgresDataType.int8.rawValue
        else { return nil }
        if dimensions == 0 { return [] }
        guard dimensions == 1, let (count, _) = bytes.readMultipleIntegers(as: (Int32, Int32).self), count >= 0,
            bytes.readableBytes == Int(count) * 12
        else { return nil }
        var values: [Int64] = []
        values.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let (length, value) = bytes.readMultipleIntegers(as: (Int32, Int64).self), length == 8 else { return nil }
            values.append(value)
        }
        return values
    }
}
#endif
