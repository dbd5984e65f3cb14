public import ArgumentParser
public import PurchaseSLIApplication

/// `--notify-format alertmanager|slack` of `alerts` (`serve` reads its settings through ServeSetting).
extension AlertNotificationFormat: ExpressibleByArgument {}
