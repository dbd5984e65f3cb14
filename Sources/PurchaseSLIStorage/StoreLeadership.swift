/// Which of the nodes that share a store speaks for them: sends alert notifications, renders pages,
/// posts rollout verdicts and prunes, so that a team gets one Slack message, not one per node.
public protocol StoreLeadership: Sendable {
    /// Whether this node leads now, becoming the leader when no live node does. Never throws: a node
    /// that cannot tell (its database is unreachable) does not lead.
    func isLeader() async -> Bool

    /// Gives the leadership up at graceful shutdown, so that another node leads at its next round.
    func release() async
}

/// The only node of a store that no other process serves (SQLite, memory): it always leads.
public struct SoleLeadership: StoreLeadership {
    /// Creates the leadership of a lone node.
    public init() {}

    /// Always true.
    public func isLeader() async -> Bool { true }

    /// Nothing to give up: no other node could lead.
    public func release() async {}
}
