/// Parsing and formatting of RFC 3339 timestamps without Foundation's date formatters.
public enum RFC3339 {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` into milliseconds since the Unix epoch.
    ///
    /// `T`/`Z` may be lower case; the fraction may have any number of digits (truncated to
    /// milliseconds); a leap second `60`, only at 23:59 UTC, counts as `59.999`. Returns nil for anything
    /// else. O(n).
    public static func parseMillis(_ text: some StringProtocol) -> Int64? {
        var copy = String(text)
        return copy.withUTF8 { parseMillis(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Parses the UTF-8 bytes of an RFC 3339 timestamp; see ``parseMillis(_:)``.
    public static func parseMillis(bytes: UnsafeRawBufferPointer) -> Int64? {
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.digits(4), reader.expect("-"), let month = reader.digits(2), reader.expect("-"),
            let day = reader.digits(2), reader.expect(oneOf: "T", "t"), let hour = reader.digits(2),
            reader.expect(":"), let minute = reader.digits(2), reader.expect(":"), let second = reader.digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var millis = 0
        if reader.expect(".") {
            var digitCount = 0
            while let digit = reader.digit() {
                if digitCount < 3 { millis = millis * 10 + digit }
                digitCount += 1
            }
            guard digitCount > 0 else { return nil }
            if digitCount < 3 { for _ in digitCount..<3 { millis *= 10 } }
        }
        var offsetMinutes = 0
        if reader.expect(oneOf: "Z", "z") {
            offsetMinutes = 0
        } else if let sign = reader.sign(), let offsetHour = reader.digits(2), reader.expect(":"),
            let offsetMinute = reader.digits(2), offsetHour <= 23, offsetMinute <= 59
        {
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        } else {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        if second == 60 {
            // Leap seconds are inserted at the end of a UTC day only.
            guard (hour * 60 + minute - offsetMinutes + 1440) % 1440 == 1439 else { return nil }
            millis = 999
        }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute - offsetMinutes) * 60 + min(second, 59)
        // An offset can carry 0000-01-01 or 9999-12-31 into a year of five digits or below zero, which
        // no RFC 3339 time in UTC can name.
        guard representableSeconds.contains(Int64(seconds)) else { return nil }
        return Int64(seconds) * 1000 + Int64(millis)
    }

    /// The seconds since the epoch that a UTC time of RFC 3339 can name: years 0000 to 9999.
    public static let representableSeconds: ClosedRange<Int64> =
        Int64(daysSinceEpoch(year: 0, month: 1, day: 1)) * 86_400...Int64(daysSinceEpoch(year: 10_000, month: 1, day: 1)) * .secondsPerDay - 1

    /// Formats milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SS[.mmm]Z` (fraction only when non-zero).
    public static func format(millis: Int64) -> String {
        let (seconds, fraction) = millis.floorDividedBy(1000)
        var text = format(seconds: seconds)
        guard fraction != 0 else { return text }
        text.removeLast()
        let digits = String(fraction)
        return text + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Formats seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
    public static func format(seconds: Int64) -> String {
        let (days, secondOfDay) = seconds.floorDividedBy(.secondsPerDay)
        let (year, month, day) = civilDate(daysSinceEpoch: Int(days))
        let hour = Int(secondOfDay / .secondsPerHour)
        let minute = Int(secondOfDay / 60 % 60)
        let second = Int(secondOfDay % 60)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))Z"
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    public static func civilDate(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days of a month of the proleptic Gregorian calendar.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Int64 {
    /// Floor division and the non-negative remainder, for times before and after the epoch.
    public func floorDividedBy(_ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}

private struct DigitReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    mutating func digit() -> Int? {
        guard position < bytes.count, bytes[position].isASCIIDigit else { return nil }
        defer { position += 1 }
        return Int(bytes[position] - UInt8(ascii: "0"))
    }

    mutating func digits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func expect(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    mutating func expect(oneOf first: Unicode.Scalar, _ second: Unicode.Scalar) -> Bool {
        expect(first) || expect(second)
    }

    mutating func sign() -> Int? {
        if expect("+") { return 1 }
        if expect("-") { return -1 }
        return nil
    }
}
