/// Why a fallback receiver is told something of its own: it takes the alerts of a receiver that has failed
/// every delivery for a while, or gives them back once that receiver answers again.
public enum AlertRerouting: Sendable, Hashable {
    /// `receiver` (its title and host) has failed every delivery since `since`, last with `failure`.
    case takingOver(receiver: String, host: String, since: Int64, failure: String?)
    /// `receiver` took a delivery again at `at`, with `firing` alerts firing.
    case handingBack(receiver: String, host: String, at: Int64, firing: Int)
}
