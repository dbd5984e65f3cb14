public import ArgumentParser
public import PurchaseSLIApplication

/// `--notify-format alertmanager|slack` of `alerts` and `serve`.
extension AlertNotificationFormat: ExpressibleByArgument {}

/// `serve --rollout-notify-format slack|json`.
extension RolloutNotificationFormat: ExpressibleByArgument {}
