import ArgumentParser
import PurchaseSLIDashboards

/// `--base-url`: where the dashboards are served, so that alert text, Slack and Alertmanager link to the
/// page that shows each alert.
struct LinkOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Where the pages are served (e.g. https://sli.example.com): alert text, Slack and Alertmanager (generatorURL) link to the alert on the on-call page, and to its incident's report.",
            valueName: "url"))
    var baseURL: String?

    func validate() throws {
        if let baseURL, Self.normalized(baseURL) == nil {
            throw ValidationError("--base-url: expected an http or https URL without query or fragment, got \"\(baseURL)\".")
        }
    }

    /// The address of `page` under the base URL, or nil without one.
    func url(of page: String) -> String? {
        baseURL.flatMap(Self.normalized).map { $0 + "/" + page }
    }

    /// `text` without a trailing slash when it is an http(s) URL with a host and no query or fragment.
    static func normalized(_ text: String) -> String? {
        guard text.hasPrefix("https://") || text.hasPrefix("http://"),
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && !"\"'<>`\\?#".unicodeScalars.contains($0) })
        else { return nil }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let host = trimmed.drop(while: { $0 != "/" }).dropFirst(2)
        return host.isEmpty ? nil : String(trimmed)
    }
}
