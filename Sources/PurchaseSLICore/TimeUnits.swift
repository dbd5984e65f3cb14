/// Named lengths of time, so that arithmetic on times reads as what it does (`day * .secondsPerDay`,
/// `millis / .millisPerMinute`, `Double(millis) / .millisPerSecond`) instead of as bare numbers: members of
/// every numeric type, integer or floating-point, taking the type of the expression they are used in.
extension Numeric {
    /// 1,000 milliseconds.
    @inlinable public static var millisPerSecond: Self { 1000 }
    /// 60 seconds.
    @inlinable public static var secondsPerMinute: Self { 60 }
    /// 3,600 seconds.
    @inlinable public static var secondsPerHour: Self { 3600 }
    /// 86,400 seconds: a UTC day (times here are UTC; a local day comes from ``TimeZoneOffsets``).
    @inlinable public static var secondsPerDay: Self { 86_400 }
    /// 604,800 seconds.
    @inlinable public static var secondsPerWeek: Self { 604_800 }
    /// 60,000 milliseconds.
    @inlinable public static var millisPerMinute: Self { 60_000 }
    /// 3,600,000 milliseconds.
    @inlinable public static var millisPerHour: Self { 3_600_000 }
    /// 86,400,000 milliseconds: a UTC day.
    @inlinable public static var millisPerDay: Self { 86_400_000 }
}
