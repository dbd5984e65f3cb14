import PurchaseSLIApplication
import PurchaseSLICore

extension AlertHeartbeat {
    /// The Alertmanager v2 alert posted at `now`: severity `none`, firing until `now` + ``validForSeconds``.
    func alertmanagerAlert(now: Int64) -> AlertmanagerAlert {
        let labels = [("alertname", Self.alertName), ("severity", "none")] + (app.map { [("app", $0)] } ?? [])
        let summary = "purchase-sli evaluates its alerts and reaches Alertmanager: this alert always fires."
        let description =
            "Route it to a dead man's switch (a receiver that pages when it stops arriving): when it stops, purchase-sli is down, "
            + "cannot read its store, or cannot reach Alertmanager, and no other alert of it can fire."
        return AlertmanagerAlert(
            labels: labels, summary: summary, description: description, startsAt: now, endsAt: now + validForSeconds, generatorURL: pageURL)
    }
}
