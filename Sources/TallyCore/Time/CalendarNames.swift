import Foundation

// English day and month names from tables rather than a DateFormatter: Tally speaks English, and
// a formatter costs a few milliseconds of ICU set-up in a CLI command that should take tens.

extension LocalDate {
    private static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// "Monday" … "Sunday".
    public var weekdayName: String { Self.weekdayNames[isoWeekday - 1] }

    /// "Mon" … "Sun".
    public var shortWeekdayName: String { String(weekdayName.prefix(3)) }
}

extension YearMonth {
    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                     "September", "October", "November", "December"]

    /// "January" … "December".
    public var monthName: String { Self.monthNames[month - 1] }
}
