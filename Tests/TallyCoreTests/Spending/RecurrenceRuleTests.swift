import Foundation
import Testing
@testable import TallyCore

/// Recurring expenses' rules: weekly, monthly on a day, yearly, each day of a month it lacks on
/// the month's last day.
@Suite("Recurring expenses' rules")
struct RecurrenceRuleTests {
    /// The first `count` occurrences from `start` on.
    func occurrences(_ rule: RecurrenceRule, from start: String, _ count: Int) -> [String] {
        var dates: [String] = []
        var next = rule.occurrence(onOrAfter: day(start))
        while let date = next, dates.count < count {
            dates.append(date.description)
            next = rule.occurrence(after: date)
        }
        return dates
    }

    @Test("Every week on a weekday: the day itself when it is that weekday, else the next one")
    func weekly() throws {
        let mondays = try RecurrenceRule(every: .week, weekday: 1)
        #expect(occurrences(mondays, from: "2026-11-23", 3) == ["2026-11-23", "2026-11-30", "2026-12-07"]) // a Monday
        #expect(occurrences(mondays, from: "2026-11-24", 1) == ["2026-11-30"])
        let sundays = try RecurrenceRule(every: .week, weekday: 7)
        #expect(occurrences(sundays, from: "2026-12-30", 2) == ["2027-01-03", "2027-01-10"]) // across the new year
    }

    @Test("Every month on the 31st: the last day of shorter months, and the 31st again after them")
    func monthEnds() throws {
        let rule = try RecurrenceRule(every: .month, day: 31)
        #expect(occurrences(rule, from: "2026-01-01", 6)
                == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30"])
        #expect(occurrences(rule, from: "2028-02-01", 2) == ["2028-02-29", "2028-03-31"]) // a leap year
        let thirtieth = try RecurrenceRule(every: .month, day: 30)
        #expect(occurrences(thirtieth, from: "2026-02-01", 2) == ["2026-02-28", "2026-03-30"])
        let first = try RecurrenceRule(every: .month, day: 1)
        #expect(occurrences(first, from: "2026-12-02", 2) == ["2027-01-01", "2027-02-01"])
        #expect(occurrences(first, from: "2026-12-01", 1) == ["2026-12-01"])
    }

    @Test("Every year on 29 February: the 28th in other years, the 29th in leap years")
    func leapDay() throws {
        let rule = try RecurrenceRule(every: .year, day: 29, month: 2)
        #expect(occurrences(rule, from: "2026-03-01", 4) == ["2027-02-28", "2028-02-29", "2029-02-28", "2030-02-28"])
        #expect(occurrences(rule, from: "2100-01-01", 1) == ["2100-02-28"]) // not a leap year
        #expect(occurrences(rule, from: "2000-01-01", 1) == ["2000-02-29"]) // a leap year
        let christmas = try RecurrenceRule(every: .year, day: 25, month: 12)
        #expect(occurrences(christmas, from: "2026-12-25", 2) == ["2026-12-25", "2027-12-25"])
        #expect(occurrences(christmas, from: "2026-12-26", 1) == ["2027-12-25"])
    }

    @Test("The end of the calendar ends the rule instead of overflowing")
    func lastYear() throws {
        #expect(try RecurrenceRule(every: .month, day: 31).occurrence(after: day("9999-12-31")) == nil)
        #expect(try RecurrenceRule(every: .week, weekday: 1).occurrence(onOrAfter: day("9999-12-31")) == nil) // a Friday
        #expect(try RecurrenceRule(every: .year, day: 1, month: 1).occurrence(after: day("9999-06-01")) == nil)
        #expect(try RecurrenceRule(every: .month, day: 31).occurrence(onOrAfter: day("9999-12-01")) == day("9999-12-31"))
    }

    @Test("Days that never come are refused with the range that works")
    func refused() {
        #expect(throws: TallyError.self) { try RecurrenceRule(every: .week, weekday: 0) }
        #expect(throws: TallyError.self) { try RecurrenceRule(every: .week) }
        #expect(throws: TallyError.self) { try RecurrenceRule(every: .month, day: 32) }
        #expect(throws: TallyError.self) { try RecurrenceRule(every: .year, day: 10, month: 13) }
        #expect(throws: TallyError.invalid("An expense every month has no month: leave it out, or repeat it by another period.", field: "repeat")) {
            try RecurrenceRule(every: .month, day: 1, month: 13)
        }
        #expect(throws: TallyError.self) { try RecurrenceRule(every: .week, weekday: 1, day: 15) }
        #expect(throws: TallyError.self) { try RecurrenceRule(every: .year, weekday: 1, day: 1, month: 1) }
        do {
            _ = try RecurrenceRule(every: .year, day: 30, month: 2)
            Issue.record("30 February was taken")
        } catch let error as TallyError {
            #expect(error.message.contains("February") && error.message.contains("1 to 29"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("A rule made from a day repeats that day's weekday, day of the month or day of the year")
    func likeADay() {
        #expect(RecurrenceRule(every: .week, like: day("2026-11-25")) == .weekly(weekday: 3))
        #expect(RecurrenceRule(every: .month, like: day("2026-01-31")) == .monthly(day: 31))
        #expect(RecurrenceRule(every: .year, like: day("2028-02-29")) == .yearly(month: 2, day: 29))
    }

    @Test("Rules in words")
    func summaries() throws {
        #expect(try RecurrenceRule(every: .week, weekday: 1).summary == "every week on Monday")
        #expect(try RecurrenceRule(every: .week, weekday: 7).summary == "every week on Sunday")
        #expect(try RecurrenceRule(every: .month, day: 1).summary == "every month on the 1st")
        #expect(try RecurrenceRule(every: .month, day: 22).summary == "every month on the 22nd")
        #expect(try RecurrenceRule(every: .month, day: 13).summary == "every month on the 13th")
        #expect(try RecurrenceRule(every: .month, day: 23).summary == "every month on the 23rd")
        #expect(try RecurrenceRule(every: .year, day: 29, month: 2).summary == "every year on 29 February")
    }
}

/// A recurring expense's state and its day, in its own time zone.
@Suite("Recurring expenses")
struct RecurringExpenseTests {
    let members = [LedgerMember(id: 1, name: "Alex", userID: nil), LedgerMember(id: 2, name: "Sam", userID: nil)]

    func rent(next: String, end: String? = nil, paused: Bool = false, zone: String = "Europe/Berlin") throws -> RecurringExpense {
        let template = try ExpenseTemplate(amount: Money(minorUnits: 80_000, currency: .euro), payer: 1, description: "Rent", category: nil,
                                           split: .equal([1, 2]), members: members)
        return RecurringExpense(id: UUID(), ledger: UUID(), template: template, rule: .monthly(day: 1), timeZone: zone,
                                nextDate: day(next), endDate: end.map(day), pausedAt: paused ? utc("2026-11-01T00:00:00Z") : nil,
                                createdBy: nil, createdAt: utc("2026-11-01T00:00:00Z"))
    }

    @Test("An occurrence is due from the start of its day in the expense's time zone, not UTC's")
    func dueInItsZone() throws {
        let berlin = try rent(next: "2026-12-01")
        #expect(berlin.dueOccurrence(at: utc("2026-11-30T22:59:59Z")) == nil) // 23:59:59 in Berlin
        #expect(berlin.dueOccurrence(at: utc("2026-11-30T23:00:00Z")) == day("2026-12-01")) // midnight in Berlin
        let newYork = try rent(next: "2026-12-01", zone: "America/New_York")
        #expect(newYork.dueOccurrence(at: utc("2026-12-01T04:59:59Z")) == nil)
        #expect(newYork.dueOccurrence(at: utc("2026-12-01T05:00:00Z")) == day("2026-12-01"))
    }

    @Test("Paused and ended expenses have nothing due; an end after the next day leaves it running")
    func status() throws {
        let now = utc("2026-12-15T12:00:00Z")
        #expect(try rent(next: "2026-12-01", paused: true).status == .paused)
        #expect(try rent(next: "2026-12-01", paused: true).dueOccurrence(at: now) == nil)
        #expect(try rent(next: "2027-01-01", end: "2026-12-31").status == .ended)
        #expect(try rent(next: "2027-01-01", end: "2026-12-31", paused: true).status == .ended)
        #expect(try rent(next: "2026-12-01", end: "2026-12-01").dueOccurrence(at: now) == day("2026-12-01"))
    }

    @Test("Advancing moves to the next occurrence, and ends a rule that has no later day")
    func advance() throws {
        var expense = try rent(next: "2026-12-01")
        expense.advance(past: day("2026-12-01"))
        #expect(expense.nextDate == day("2027-01-01") && expense.status == .active)
        var last = try rent(next: "9999-12-01")
        last.advance(past: day("9999-12-01"))
        #expect(last.status == .ended && last.endDate == day("9999-12-01"))
    }

    @Test("A template is checked like an expense: its payer and split among the members, its amount")
    func template() throws {
        #expect(throws: TallyError.self) {
            try ExpenseTemplate(amount: Money(minorUnits: 0, currency: .euro), payer: 1, description: nil, category: nil,
                                split: .equal([1, 2]), members: members)
        }
        #expect(throws: TallyError.self) {
            try ExpenseTemplate(amount: Money(minorUnits: 100, currency: .euro), payer: 3, description: nil, category: nil,
                                split: .equal([1, 2]), members: members)
        }
        let template = try ExpenseTemplate(amount: Money(minorUnits: 100, currency: .euro), payer: 2, description: "  Netflix ",
                                           category: nil, split: .equal([1, 2]), members: members)
        #expect(template.description == "Netflix")
        let entry = try template.entry(id: UUID(), on: day("2026-12-01"), createdAt: utc("2026-12-01T00:00:00Z"), members: members)
        #expect(entry.date == day("2026-12-01") && entry.payer == 2 && entry.kind == .expense)
    }
}
