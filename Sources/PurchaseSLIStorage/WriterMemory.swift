/// What the single writer remembers between commits; emptied after a failed transaction and refilled
/// from the database on demand.
struct WriterMemory {
    /// Dimension value and series ids, and the values admitted under the caps.
    var intern = InternCache()
    /// The eventIDs counted but not yet in `seen_second`.
    var pendingSeen: PendingSeenIDs

    /// Empties both (after a rollback).
    mutating func reset() {
        intern.reset()
        pendingSeen.forget()
    }
}
