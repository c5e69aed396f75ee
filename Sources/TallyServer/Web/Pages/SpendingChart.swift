import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// What a ledger's expenses came to over the last twelve months: a bar a month with its total
/// written above it (this month's outlined), then each category's part of the twelve months as a
/// labelled bar with its amount and share. Payments are no spending and are left out.
///
/// Nothing is told by colour alone: every bar carries its number. The drawings are for the eyes
/// only (`aria-hidden`); the same numbers, exact, are in tables that screen readers read.
struct SpendingChart {
    static let months = 12
    /// How many categories get a bar of their own; the others share one.
    static let categoryBars = 6

    var spent: [MonthlySpending]
    var thisMonth: YearMonth
    var currency: Currency

    /// The first of the months shown, the last being `month`.
    static func firstMonth(endingWith month: YearMonth) -> YearMonth {
        (1..<months).reduce(month) { earlier, _ in earlier.previous }
    }

    /// The months shown, oldest first: the ones the page's read sums.
    private var shownMonths: [YearMonth] {
        (1..<Self.months).reduce(into: [Self.firstMonth(endingWith: thisMonth)]) { months, _ in months.append(months.last!.next) }
    }

    private var monthTotals: [(month: YearMonth, amount: Int64)] {
        let byMonth = Dictionary(grouping: spent, by: \.month).mapValues { $0.reduce(0) { $0 + $1.amount } }
        return shownMonths.map { ($0, byMonth[$0] ?? 0) }
    }

    /// The largest first; the expenses without a category are "No category"; past
    /// `categoryBars`, "Everything else".
    private var categoryTotals: [(name: String, amount: Int64)] {
        let byCategory = Dictionary(grouping: spent, by: \.category).map { category, rows in
            (name: category ?? t("No category"), amount: rows.reduce(0) { $0 + $1.amount })
        }.sorted { ($0.amount, $1.name) > ($1.amount, $0.name) }
        guard byCategory.count > Self.categoryBars else { return byCategory }
        let rest = byCategory.dropFirst(Self.categoryBars - 1).reduce(0) { $0 + $1.amount }
        return Array(byCategory.prefix(Self.categoryBars - 1)) + [(t("Everything else"), rest)]
    }

    private var total: Int64 { spent.reduce(0) { $0 + $1.amount } }

    func render() -> HTML {
        guard total > 0 else { return "" }
        return """
        <section class="spent" aria-labelledby="spent-title">
        <h2 id="spent-title">\(t(one: "Spent in the last \(Self.months) month", other: "Spent in the last \(Self.months) months"))</h2>
        <p class="owes">\(Layout.money(Money(minorUnits: total, currency: currency)))</p>
        \(monthDrawing)
        <p class="legend">\(t("Each month's expenses in whole \(currency.code); this month's bar is outlined. Payments are not spending."))</p>
        \(categoryDrawing)
        <div class="visually-hidden">\(tables)</div>
        </section>
        """
    }

    /// Whole units, rounded half up, as the bars are labelled: "1235" for 1234.56.
    func whole(_ units: Int64) -> String {
        let scale = Int64(currency.scale)
        return String((units + scale / 2) / scale)
    }

    // The months' grid: a column a month, room above the bars for their numbers and below for the months.
    private static let column = 44.0, barWidth = 30.0, top = 24.0, plotHeight = 120.0, bottom = 36.0

    private var monthDrawing: HTML {
        let totals = monthTotals
        let highest = Double(max(totals.map(\.amount).max() ?? 0, 1))
        let baseline = Self.top + Self.plotHeight
        let bars = totals.enumerated().map { index, month -> HTML in
            let center = Double(index) * Self.column + Self.column / 2
            let height = Double(month.amount) / highest * Self.plotHeight
            let value = whole(month.amount)
            let isThisMonth = month.month == thisMonth
            let year: HTML = index == 0 || month.month.month == 1
                ? "<text class=\"date\" x=\"\(Self.format(center))\" y=\"\(Self.format(baseline + 31))\" text-anchor=\"middle\">\(String(month.month.year))</text>"
                : ""
            return """
            <g>
            <rect class="bar\(isThisMonth ? " today" : "")" x="\(Self.format(center - Self.barWidth / 2))" y="\(Self.format(baseline - height))" \
            width="\(Self.format(Self.barWidth))" height="\(Self.format(height))" rx="3"></rect>
            <text class="value\(value.count > 4 ? " long" : "")" x="\(Self.format(center))" y="\(Self.format(baseline - height - 6))" text-anchor="middle">\(value)</text>
            <text class="weekday" x="\(Self.format(center))" y="\(Self.format(baseline + 15))" text-anchor="middle">\(Written.current.shortMonth(month.month))</text>
            \(year)
            </g>
            """
        }
        let width = Double(totals.count) * Self.column, height = baseline + Self.bottom
        return """
        <div class="months"><svg class="chart" viewBox="0 0 \(Self.format(width)) \(Self.format(height))" aria-hidden="true" focusable="false">
        <line class="axis" x1="0" x2="\(Self.format(width))" y1="\(Self.format(baseline))" y2="\(Self.format(baseline))"></line>
        \(bars)
        </svg></div>
        """
    }

    // The categories' rows: the name, then a bar as long as its part, then its amount and share.
    private static let row = 30.0, nameWidth = 130.0, barSpace = 200.0, figuresWidth = 150.0, nameLength = 16

    private var categoryDrawing: HTML {
        let categories = categoryTotals
        let highest = Double(max(categories.map(\.amount).max() ?? 0, 1))
        let rows = categories.enumerated().map { index, category -> HTML in
            let y = Double(index) * Self.row
            let length = max(Double(category.amount) / highest * Self.barSpace, 2)
            let name = category.name.count > Self.nameLength ? category.name.prefix(Self.nameLength - 1) + "…" : category.name
            return """
            <g>
            <text class="category" x="0" y="\(Self.format(y + 19))">\(name)</text>
            <rect class="bar" x="\(Self.format(Self.nameWidth))" y="\(Self.format(y + 6))" width="\(Self.format(length))" height="18" rx="3"></rect>
            <text class="value" x="\(Self.format(Self.nameWidth + length + 6))" y="\(Self.format(y + 19))">\(whole(category.amount)) · \(percent(category.amount))</text>
            </g>
            """
        }
        let width = Self.nameWidth + Self.barSpace + Self.figuresWidth, height = Double(categories.count) * Self.row + 4
        return """
        <div class="categories"><svg class="chart" viewBox="0 0 \(Self.format(width)) \(Self.format(height))" aria-hidden="true" focusable="false">
        \(rows)
        </svg></div>
        """
    }

    /// A part of the twelve months' total, in whole percent ("<1 %" for a sliver).
    private func percent(_ amount: Int64) -> String {
        let value = Double(amount) / Double(max(total, 1)) * 100
        return value > 0 && value < 1 ? "<1 %" : "\(Int(value.rounded())) %"
    }

    private var tables: HTML {
        let months = monthTotals.map { month -> HTML in
            """
            <tr\(HTML.flag(#"aria-current="date""#, month.month == thisMonth))><th scope="row">\(Written.current.month(month.month))</th>\
            <td>\(Layout.money(Money(minorUnits: month.amount, currency: currency)))</td></tr>
            """
        }
        let categories = categoryTotals.map { category -> HTML in
            """
            <tr><th scope="row">\(category.name)</th><td>\(Layout.money(Money(minorUnits: category.amount, currency: currency)))</td>\
            <td>\(percent(category.amount))</td></tr>
            """
        }
        return """
        <table>
        <caption>\(t("Expenses by month"))</caption>
        <thead><tr><th scope="col">\(t("Month"))</th><th scope="col">\(t("Spent"))</th></tr></thead>
        <tbody>\(months)</tbody>
        </table>
        <table>
        <caption>\(t(one: "Expenses by category, last \(Self.months) month", other: "Expenses by category, last \(Self.months) months"))</caption>
        <thead><tr><th scope="col">\(t("Category"))</th><th scope="col">\(t("Spent"))</th><th scope="col">\(t("Share"))</th></tr></thead>
        <tbody>\(categories)</tbody>
        </table>
        """
    }

    private static func format(_ value: Double) -> String { Layout.svgNumber(value) }
}
