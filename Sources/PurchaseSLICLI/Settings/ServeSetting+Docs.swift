extension ServeSetting {
    /// docs/configuration.md's table of the settings, one row each in the table's order (ServeSettingTests
    /// holds the page to it).
    static var documentationTable: String {
        let header = ["| config key | option | environment | expects | default |", "|---|---|---|---|---|"]
        let rows = all.map { setting in
            let option = setting.option.map { "`--\($0)`" + (setting.kind == .list ? " (repeat)" : "") } ?? ""
            let expects =
                switch setting.kind {
                case .list: "each: \(setting.expects) (comma-separated in the variable, an array in the file)"
                case .keys: "\(setting.expects) (an array of keys in the file)"
                default: setting.expects
                }
            return "| `\(setting.key)` | \(option) | `\(setting.variable)` | \(expects) | \(setting.defaultText) |"
        }
        return (header + rows).joined(separator: "\n")
    }
}
