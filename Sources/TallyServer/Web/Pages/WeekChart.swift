import Foundation
import TallyCore
import TallyLanguages

/// The last days as bars (H9): each day's total written above its bar in the person's unit, the
/// goal as one labelled line, today's bar outlined and named "Today" (not told by colour alone).
///
/// The drawing is for the eyes only (`aria-hidden`): the same numbers are in a table that is
/// hidden from view but read by screen readers, so that nothing is read twice. Its text is
/// sized in the drawing's own units, capped, so that a larger text setting makes the numbers
/// larger yet never makes them run into each other.
struct WeekChart {
    var days: [DayProgress]
    var unit: VolumeUnit

    // The drawing's grid: a column per day, the goal's label to the right of the columns, room
    // above the bars for their numbers and below them for the days.
    private static let column = 46.0, barWidth = 32.0, labelWidth = 76.0
    private static let top = 28.0, plotHeight = 140.0, bottom = 40.0

    /// The goal the line shows: today's, else the last day's that had one.
    var goalMl: Double? { days.last?.goalMl ?? days.compactMap(\.goalMl).last }

    func render() -> HTML {
        """
        <div class="week">
        \(drawing)
        <p class="legend" id="week-legend">\(legend)</p>
        <div class="visually-hidden">\(table)</div>
        </div>
        """
    }

    /// The number alone ("2600"): the unit is said once, by the goal and the legend.
    func number(_ ml: Double) -> String {
        let text = unit.format(ml)
        return text.hasSuffix(" " + unit.rawValue) ? String(text.dropLast(unit.rawValue.count + 1)) : text
    }

    private var legend: String {
        goalMl.map { t("Each day's total in \(unit.rawValue); the line is your goal, \(Layout.volume($0, unit)). Today's bar is outlined.") }
            ?? t("Each day's total in \(unit.rawValue); no goal is set. Today's bar is outlined.")
    }

    private var drawing: HTML {
        let plotWidth = Double(days.count) * Self.column
        let highest = max(days.map(\.totalMl).max() ?? 0, days.compactMap(\.goalMl).max() ?? 0, 1)
        let baseline = Self.top + Self.plotHeight
        let y = { (ml: Double) in baseline - ml / highest * Self.plotHeight }
        let bars = days.enumerated().map { index, day -> HTML in
            let isToday = index == days.count - 1
            let center = Double(index) * Self.column + Self.column / 2
            let barTop = y(day.totalMl)
            let value = number(day.totalMl)
            let classes = "bar" + (day.goalMet ? " met" : "") + (isToday ? " today" : "")
            return """
            <g class="day\(isToday ? " is-today" : "")">
            <rect class="\(classes)" x="\(Self.format(center - Self.barWidth / 2))" y="\(Self.format(barTop))" \
            width="\(Self.format(Self.barWidth))" height="\(Self.format(baseline - barTop))" rx="3"></rect>
            <text class="value\(value.count > 4 ? " long" : "")" x="\(Self.format(center))" y="\(Self.format(barTop - 6))" text-anchor="middle">\(value)</text>
            <text class="weekday" x="\(Self.format(center))" y="\(Self.format(baseline + 16))" text-anchor="middle">\(Written.current.weekday(day.date))</text>
            <text class="date\(isToday ? " today-label" : "")" x="\(Self.format(center))" y="\(Self.format(baseline + 33))" text-anchor="middle">\(isToday ? t("Today") : "\(day.date.day)")</text>
            </g>
            """
        }
        let goal: HTML = goalMl.map { goal in
            let lineY = y(goal)
            // The label sits at the line's end, kept inside the drawing when the line is at its top.
            let labelY = max(lineY, 14)
            return """
            <g class="goal">
            <path class="goal-line" d="\(goalPath(y))"></path>
            <text class="goal-label" x="\(Self.format(plotWidth + 8))" y="\(Self.format(labelY - 3))">\(t("Goal"))</text>
            <text class="goal-label goal-value" x="\(Self.format(plotWidth + 8))" y="\(Self.format(labelY + 13))">\(Layout.volume(goal, unit))</text>
            </g>
            """
        } ?? ""
        let width = plotWidth + Self.labelWidth, height = baseline + Self.bottom
        return """
        <svg class="chart" viewBox="0 0 \(Self.format(width)) \(Self.format(height))" aria-hidden="true" focusable="false">
        <line class="axis" x1="0" x2="\(Self.format(plotWidth))" y1="\(Self.format(baseline))" y2="\(Self.format(baseline))"></line>
        \(bars)
        \(goal)
        </svg>
        """
    }

    /// Each day's goal over its column, as a step where it changed: a day is judged against the
    /// goal it had (H9), so the line is drawn against that one, not against today's. The last
    /// step reaches the label, which names today's.
    private func goalPath(_ y: (Double) -> Double) -> String {
        var path = ""
        var previous: Double?
        for (index, day) in days.enumerated() {
            guard let goal = day.goalMl else {
                previous = nil
                continue
            }
            if goal != previous {
                let lineY = Self.format(y(goal))
                path += previous == nil ? "M\(Self.format(Double(index) * Self.column)) \(lineY)" : "V\(lineY)"
            }
            let isLast = index == days.count - 1
            let next = isLast ? nil : days[index + 1].goalMl
            if next != goal { path += "H\(Self.format(Double(index + 1) * Self.column + (isLast ? 4 : 0)))" }
            previous = goal
        }
        return path
    }

    /// What the drawing shows, as a table: a row a day, today's marked as the current date.
    private var table: HTML {
        let rows = days.enumerated().map { index, day -> HTML in
            let isToday = index == days.count - 1
            let date = "\(Written.current.weekday(day.date)) \(day.date.day)"
            let name = isToday ? t("Today, \(date)") : date
            let percent = day.percent.map { "\(Int($0.rounded())) %" } ?? "–"
            return """
            <tr\(HTML.flag(#"aria-current="date""#, isToday))><th scope="row">\(name)</th>\
            <td>\(Layout.volume(day.totalMl, unit))</td>\
            <td>\(day.goalMl.map { Layout.volume($0, unit) } ?? t("No goal"))</td>\
            <td>\(day.goalMet ? t("\(percent), met") : percent)</td></tr>
            """
        }
        return """
        <table id="week-table">
        <caption>\(t(one: "Daily totals of the last \(days.count) day", other: "Daily totals of the last \(days.count) days"))</caption>
        <thead><tr><th scope="col">\(t("Day"))</th><th scope="col">\(t("Total"))</th><th scope="col">\(t("Goal"))</th><th scope="col">\(t("Of the goal"))</th></tr></thead>
        <tbody>\(rows)</tbody>
        </table>
        """
    }

    private static func format(_ value: Double) -> String { Layout.svgNumber(value) }
}
