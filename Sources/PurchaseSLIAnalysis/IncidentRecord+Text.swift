import PurchaseSLICore

extension IncidentRecord {
    /// "incident cost so far: ≈ 5 purchases … (estimated against …); 15 charges still owed, 74.85 USD", or
    /// "incident cost:" once its alerts stopped; nil when nothing can be counted (a loss of signal).
    public var costText: AlertText? {
        guard !cost.isEmpty || owedText != nil else { return nil }
        var text: AlertText =
            cost.isEmpty
            ? "\(words: status == .open ? "incident cost so far" : "incident cost"): nothing counted"
            : cost.text(isOver: status != .open, whose: "incident ")
        if let owedText { text = text + "; " + owedText }
        return text
    }

    /// "15 charges still owed, 74.85 USD", "none of its charges is still owed" once settled, or nil when it
    /// is not about charges.
    public var owedText: AlertText? {
        guard let owed else { return nil }
        guard owed.count > 0 else { return (cost.ungranted?.count ?? 0) > 0 ? "none of its charges is still owed" : nil }
        return "\(count: owed.count) \(words: owed.count == 1 ? "charge" : "charges") still owed"
            + (AlertText.amounts(owed.worth).map { ", " + $0 } ?? "")
    }

    /// "acknowledged by ana at 2026-11-20 09:12 UTC: make-whole posted", or nil when nobody took it on.
    public var acknowledgementText: AlertText? {
        guard let acknowledgement else { return nil }
        let note: AlertText = acknowledgement.note.isEmpty ? "" : ": \(acknowledgement.note)"
        return "acknowledged by \(acknowledgement.owner) at \(time: acknowledgement.atSeconds)" + note
    }
}
