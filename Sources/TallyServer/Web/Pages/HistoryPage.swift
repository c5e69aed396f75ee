import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The history screen (H9): seven days as bars, the month's calendar, the streaks.
struct HistoryPage {
    var history: HydrationHistory
    var unit: VolumeUnit

    func render(_ context: PageContext) -> HTML {
        Layout.page(t("History"), context, """
        <h1>\(t("History"))</h1>
        <section aria-labelledby="week-title">
        <h2 id="week-title">\(t(one: "Last \(history.days.count) day", other: "Last \(history.days.count) days"))</h2>
        \(chart)
        </section>
        <section aria-labelledby="streak-title" class="streaks">
        <h2 id="streak-title">\(t("Streaks"))</h2>
        <p>\(streaks)</p>
        </section>
        <section aria-labelledby="month-title">
        \(calendar)
        </section>
        """)
    }

    private var chart: HTML { WeekChart(days: history.days, unit: unit).render() }

    /// "3 days in a row · longest 5", the numbers large; a sentence with markup has no plural
    /// forms, so the singular is a sentence of its own.
    private var streaks: HTML {
        let current = HTML("<span class=\"big\">\(history.streaks.current)</span>")
        let longest = HTML("<strong>\(history.streaks.longest)</strong>")
        return history.streaks.current == 1
            ? HTML.sentence("{0} day in a row ·\nlongest {1}", current, longest)
            : HTML.sentence("{0} days in a row ·\nlongest {1}", current, longest)
    }

    private var calendar: HTML {
        let month = history.calendar
        let blanks = Array(repeating: HTML("<td></td>"), count: month.firstWeekday - 1)
        let cells = blanks + month.days.map { day -> HTML in
            let progress = day.progress
            let state = day.isFuture ? "future" : progress.goalMet ? "met" : progress.totalMl > 0 ? "some" : "none"
            let date = Written.current.dayOfMonth(progress.date)
            let label = progress.goalMet ? t("\(date), goal met") : t("\(date), goal not met")
            let current = day.isToday ? HTML(unsafe: #" aria-current="date""#) : ""
            // A day to come is no link: there is nothing on it to see, nor to add yet.
            if day.isFuture { return "<td class=\"\(state)\"><span>\(progress.date.day)</span></td>" }
            return """
            <td class="\(state)"\(current)><a href="\(SitePath.day.link(progress.date))" aria-label="\(label)">\(progress.date.day)</a></td>
            """
        }
        var rows: [HTML] = []
        for start in stride(from: 0, to: cells.count, by: 7) {
            rows.append("<tr>\(Array(cells[start..<min(start + 7, cells.count)]))</tr>")
        }
        let title = Written.current.month(month.month)
        // A week from a Monday: 5 January 2026 was one.
        let weekdays = (0..<7).compactMap { LocalDate(year: 2026, month: 1, day: 5 + $0) }.map { day -> HTML in
            "<th scope=\"col\">\(Written.current.weekdayHeading(day))</th>"
        }
        return """
        <div class="month-nav">
        <a href="\(SitePath.history.link)?month=\(month.previous)" aria-label="\(t("Previous month"))">‹</a>
        <h2 id="month-title">\(title)</h2>
        <a href="\(SitePath.history.link)?month=\(month.next)" aria-label="\(t("Next month"))">›</a>
        </div>
        <table class="calendar" aria-labelledby="month-title">
        <thead><tr>\(weekdays)</tr></thead>
        <tbody>\(rows)</tbody>
        </table>
        <p class="legend"><span class="dot met"></span> \(t("goal met")) <span class="dot some"></span> \(t("some water"))</p>
        """
    }
}
