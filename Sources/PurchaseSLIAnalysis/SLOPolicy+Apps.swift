extension SLOPolicy {
    /// The policy `app` is judged on alone: each of its own objectives (``appObjectives``) in place of the
    /// policy's objective of the same action, those of actions the policy has none for after the others;
    /// the policy itself for every app together (nil) or an app without objectives of its own.
    public func judging(app: String?) -> SLOPolicy {
        guard let app, let own = appObjectives[app], !own.isEmpty else { return self }
        var judged = self
        let replaced = Set(own.map(\.actionType))
        judged.objectives =
            objectives.map { objective in
                replaced.contains(objective.actionType) ? own.first { $0.actionType == objective.actionType }! : objective
            } + own.filter { objective in !objectives.contains { $0.actionType == objective.actionType } }
        return judged
    }
}
