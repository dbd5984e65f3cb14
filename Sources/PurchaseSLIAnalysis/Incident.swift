import PurchaseSLICore

/// Alerts that share a cause and overlap in time, as one incident: the purchase and restore pages of one
/// outage, a version's 409 flood across a night lull, a cancel spike and the charges its detour left
/// ungranted. What notifications, pages and the weekly review count as one.
public struct Incident: Sendable, Hashable {
    /// Its id, the same in every output and in a backtest from any start: the minute its first alert
    /// started and a digest of that alert ("20261112-0703-3fa2c1").
    public var id: String
    /// Its alerts' episodes, by start.
    public var episodes: [AlertEpisode]
    /// What its alerts share (``AlertRule/causes(of:)``).
    public var causes: Set<IncidentCause>

    /// An incident of these episodes (``IncidentGrouping`` makes them).
    public init(id: String, episodes: [AlertEpisode], causes: Set<IncidentCause>) {
        self.id = id
        self.episodes = episodes
        self.causes = causes
    }

    /// When its first alert started firing.
    public var startsAt: Int64 { episodes.map(\.startsAt).min() ?? 0 }
    /// When its last alert stopped, or nil while one fires.
    public var endsAt: Int64? {
        episodes.contains { $0.endsAt == nil } ? nil : episodes.compactMap(\.endsAt).max()
    }
    /// The first minute the trouble showed in the events, as its alerts' evidence tells (the start of a
    /// burn's short window, the first silent minute, the oldest charge not granted), else its start.
    public var firstBadSeconds: Int64 {
        episodes.compactMap { $0.first.evidence.firstBadSeconds(of: $0.first) }.min().map { min($0, startsAt) } ?? startsAt
    }
    /// The highest severity any of its alerts reached.
    public var peakSeverity: Severity { episodes.map(\.severity).max() ?? .ticket }
    /// The severity it has now: the highest of its alerts firing now; once over, its peak.
    public var severity: Severity {
        let open = episodes.filter { $0.endsAt == nil }
        return open.isEmpty ? peakSeverity : open.map(\.latest.severity).max() ?? peakSeverity
    }
    /// The id of an incident whose first alert is `identity`, started at `startsAt`.
    static func id(startsAt: Int64, identity: AlertFinding.Identity) -> String {
        let time = RFC3339.format(seconds: startsAt)  // 2026-11-12T07:03:00Z
        let compact = time.prefix(16).filter { $0.isNumber }  // 202611120703
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let labels = identity.labels.pairs.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
        for byte in "\(identity.kind.rawValue) \(labels)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let digest = String(hash % 0x100_0000, radix: 16)
        return "\(compact.prefix(8))-\(compact.dropFirst(8))-" + String(repeating: "0", count: 6 - digest.count) + digest
    }
}

/// Groups alert episodes into incidents: two alerts belong together when they share a cause and overlap
/// in time, and one alert that fires again within ``reopenSeconds`` of its end continues its incident.
/// Pure; O(episodes²) over the few episodes of a range.
public struct IncidentGrouping: Sendable {
    /// The rules whose causes decide.
    public let rules: [AlertFinding.Kind: any AlertRule]
    /// How long after an alert stops it may fire again and still be the same incident.
    public let reopenSeconds: Int64

    /// A grouping by `rules`' causes, an alert reopening its incident within `reopenSeconds`.
    public init(rules: [any AlertRule], reopenSeconds: Int64 = Self.defaultReopenSeconds) {
        self.rules = Dictionary(rules.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.reopenSeconds = reopenSeconds
    }

    /// Three hours: a flood that goes quiet for a night lull, or a page that resolves and fires again
    /// within the same afternoon, is one incident to the person handling it.
    public static let defaultReopenSeconds: Int64 = 3 * .secondsPerHour

    /// The incidents of `episodes`, by start.
    public func incidents(of episodes: [AlertEpisode]) -> [Incident] {
        let sorted = episodes.sorted { ($0.startsAt, $0.first.identity) < ($1.startsAt, $1.first.identity) }
        let causes = sorted.map { episode in
            Set([episode.first, episode.peak, episode.latest].flatMap { rules[$0.kind]?.causes(of: $0) ?? [] })
        }
        var parent = Array(sorted.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        for (index, episode) in sorted.enumerated() {
            for (other, earlier) in sorted[..<index].enumerated() where belongTogether(earlier, causes[other], episode, causes[index]) {
                parent[root(index)] = root(other)
            }
        }
        let groups = Dictionary(grouping: sorted.indices, by: root)
        return groups.values.map { members in
            let first = sorted[members[0]]
            return Incident(
                id: Incident.id(startsAt: first.startsAt, identity: first.first.identity), episodes: members.map { sorted[$0] },
                causes: members.reduce(into: Set()) { $0.formUnion(causes[$1]) })
        }.sorted { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }
    }

    /// Whether `later` (starting no earlier than `earlier`) joins `earlier`'s incident.
    private func belongTogether(
        _ earlier: AlertEpisode, _ earlierCauses: Set<IncidentCause>, _ later: AlertEpisode, _ laterCauses: Set<IncidentCause>
    ) -> Bool {
        if earlier.first.identity == later.first.identity { return earlier.endsAt.map { later.startsAt <= $0 + reopenSeconds } ?? true }
        return later.startsAt <= (earlier.endsAt ?? .max) && !earlierCauses.isDisjoint(with: laterCauses)
    }
}
