extension SLOPolicy {
    /// The policy `app` is judged on alone: each of its own objectives (``appObjectives``) in place of the
    /// policy's objective of the same action, those of actions the policy has none for after the others;
    /// the policy's own for every app together (nil) or an app without objectives of its own. A policy
    /// already judged for one app is judged for another from every app's objectives.
    public func judging(app: String?) -> SLOPolicy {
        var judged = self
        let base = everyAppObjectives ?? objectives
        judged.objectives = base
        judged.everyAppObjectives = nil
        guard let app, let own = appObjectives[app], !own.isEmpty else { return judged }
        let replaced = Set(own.map(\.actionType))
        judged.everyAppObjectives = base
        judged.objectives =
            base.map { objective in
                replaced.contains(objective.actionType) ? own.first { $0.actionType == objective.actionType }! : objective
            } + own.filter { objective in !base.contains { $0.actionType == objective.actionType } }
        return judged
    }
}
