import PurchaseSLICore

extension PolicyReader {
    /// A maintenance window of the policy: `from` and `to` (or `duration`) as fixed times, an optional
    /// `rrule`, `actions` and `app`, and a `reason`.
    static func maintenanceWindow(_ value: Any, at path: String, id: String) throws -> MaintenanceWindow {
        let map = try self.map(value, at: path)
        try refuseUnknownKeys(map, known: ["from", "to", "duration", "rrule", "actions", "reason", "app"], at: path)
        func text(_ key: String, required: Bool = false) throws -> String? {
            guard let value = map[key] else {
                if required { throw PolicyError(path: "\(path).\(key)", reason: "is missing") }
                return nil
            }
            guard let text = value as? String else { throw PolicyError(path: "\(path).\(key)", reason: "expected text, got \(value)") }
            if key == "from" || key == "to", text.hasPrefix("now") || text.hasPrefix("-") {
                throw PolicyError(path: "\(path).\(key)", reason: "expected a fixed time such as 2026-12-01T02:00:00Z, got \(text)")
            }
            return text
        }
        let actions = try map["actions"].map { list in
            try self.list(list, at: "\(path).actions").enumerated().map { index, item in
                guard let action = item as? String, !action.isEmpty else {
                    throw PolicyError(path: "\(path).actions[\(index)]", reason: "expected an action such as purchase, got \(item)")
                }
                return action
            }
        }
        let declaration = MaintenanceDeclaration(
            from: try text("from", required: true) ?? "", to: try text("to"), duration: try text("duration"), rrule: try text("rrule"),
            actions: actions, reason: try text("reason", required: true) ?? "", app: try text("app"))
        do {
            return try declaration.window(id: id, createdSeconds: nil, source: .policy, nowSeconds: 0)
        } catch let error as MaintenanceWindowError {
            throw PolicyError(path: "\(path).\(error.field)", reason: error.reason)
        }
    }
}
