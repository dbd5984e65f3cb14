/// A value that writes its own JSON text, the same text ``JSONTextEncoder`` makes of it, without a node
/// per member: for the rows of a long answer (a 7-day query by product per 5 minutes writes 10,080 rows
/// of 19 cells), where building and walking the encoder's tree is most of the cost.
public protocol JSONWritable: Encodable {
    /// Appends the value's JSON text to `text`.
    func writeJSON(to text: inout String)
}

extension JSONMembers: JSONWritable where Value: JSONWritable {
    /// Appends `{"key":value,…}`, the members in their order. Inlinable, so that a caller's rows are
    /// written specialized to their cell type (unspecialized, a row's metadata is looked up per call).
    @inlinable public func writeJSON(to text: inout String) {
        text += "{"
        var first = true
        for member in members {
            if !first { text += "," }
            first = false
            text += JSONText.quoted(member.key)
            text += ":"
            member.value.writeJSON(to: &text)
        }
        text += "}"
    }
}
