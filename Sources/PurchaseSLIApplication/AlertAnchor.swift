import Crypto
public import PurchaseSLIAnalysis

extension AlertFinding.Identity {
    /// The fragment that names the alert on a page (`oncall.html#…`): its kind and a digest of its
    /// labels, so event data never reaches a URL or an `id` attribute, and the same alert has the same
    /// anchor on every page and in every notification.
    public var anchor: String {
        let labels = self.labels.pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "\u{1F}")
        let digest = SHA256.hash(data: Array("\(kind.rawValue)\u{1E}\(labels)".utf8)).prefix(6)
        return "alert-\(kind.rawValue)-"
            + digest.map { byte in
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
    }
}
