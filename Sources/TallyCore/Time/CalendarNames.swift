import Foundation

// English day and month names from tables rather than a DateFormatter: Tally speaks English, and
// a formatter costs a few milliseconds of ICU set-up in a CLI command that should take tens.

extension LocalDate {
    private static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// "Monday" … "Sunday".
    public var weekdayName: String { Self.weekdayNames[isoWeekday - 1] }

    /// "Mon" … "Sun".
    public var shortWeekdayName: String { String(weekdayName.prefix(3)) }

    /// The weekday's name as a phrase, written in the reader's language: "Monday" … "Sunday".
    public var weekdayPhrase: Phrase {
        switch isoWeekday {
        case 1: Phrase("Monday")
        case 2: Phrase("Tuesday")
        case 3: Phrase("Wednesday")
        case 4: Phrase("Thursday")
        case 5: Phrase("Friday")
        case 6: Phrase("Saturday")
        default: Phrase("Sunday")
        }
    }
}

extension YearMonth {
    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                     "September", "October", "November", "December"]

    /// "January" … "December".
    public var monthName: String { Self.monthNames[month - 1] }

    /// The month's name as a phrase, written in the reader's language: "January" … "December".
    public var monthPhrase: Phrase {
        switch month {
        case 1: Phrase("January")
        case 2: Phrase("February")
        case 3: Phrase("March")
        case 4: Phrase("April")
        case 5: Phrase("May")
        case 6: Phrase("June")
        case 7: Phrase("July")
        case 8: Phrase("August")
        case 9: Phrase("September")
        case 10: Phrase("October")
        case 11: Phrase("November")
        default: Phrase("December")
        }
    }
}
