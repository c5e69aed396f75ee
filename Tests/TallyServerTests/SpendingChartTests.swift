import Foundation
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

/// The chart of a ledger's spending: a bar a month and a bar a category, each with its number.
@Suite("Spending chart")
struct SpendingChartTests {
    private let eur = Currency.euro

    private func spent(_ rows: [(String, String?, Int64)]) -> [MonthlySpending] {
        rows.map { MonthlySpending(month: YearMonth($0.0)!, category: $0.1, amount: $0.2) }
    }

    @Test("Twelve months ending with this one, each with its total in whole units above its bar; months without expenses at 0")
    func months() {
        let chart = SpendingChart(spent: spent([("2025-12", "Rent", 80_000), ("2026-11", "Food", 1_250), ("2026-11", nil, 1_249)]),
                                  thisMonth: YearMonth("2026-11")!, currency: eur)
        let page = chart.render().description
        #expect(page.contains("<h2 id=\"spent-title\">Spent in the last 12 months</h2>"))
        #expect(page.contains("<p class=\"owes\">€824.99</p>"), "the twelve months' total")
        let labels = page.matches(of: /<text class="weekday"[^>]*>([A-Z][a-z]{2})<\/text>/).map { String($0.1) }
        #expect(labels == ["Dec", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov"])
        let values = page.matches(of: /<text class="value[^"]*" x="[0-9.]+" y="[0-9.]+" text-anchor="middle">([0-9]+)<\/text>/).map { String($0.1) }
        #expect(values == ["800", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "25"], "24.99 shows as 25")
        #expect(page.contains(#"<rect class="bar today""#), "this month's bar is outlined")
        #expect(page.contains("<tr aria-current=\"date\"><th scope=\"row\">November 2026</th><td>€24.99</td></tr>"))
        #expect(chart.whole(50) == "1" && chart.whole(49) == "0")
    }

    @Test("Categories, largest first, with their amount and share; past six, the rest as one; none without expenses")
    func categories() {
        let rows: [(String, String?, Int64)] = [
            ("2026-10", "Rent", 50_000), ("2026-11", "Food", 30_000), ("2026-11", nil, 10_000),
            ("2026-11", "Fun", 5_000), ("2026-11", "Books", 2_000), ("2026-11", "Bike <&> \u{202E}", 1_500),
            ("2026-11", "Cinema", 1_000), ("2026-11", "Gifts", 500), ("2026-11", "A very long category name indeed", 100),
        ]
        let page = SpendingChart(spent: spent(rows), thisMonth: YearMonth("2026-11")!, currency: eur).render().description
        let names = page.matches(of: /<text class="category"[^>]*>([^<]+)<\/text>/).map { String($0.1) }
        #expect(names == ["Rent", "Food", "No category", "Fun", "Books", "Everything else"])
        #expect(page.contains(">500 · 50 %</text>") && page.contains(">31 · 3 %</text>"), "Everything else: 15 + 10 + 5 + 1 = 31")
        #expect(page.contains("<tr><th scope=\"row\">Everything else</th><td>€31.00</td><td>3 %</td></tr>"))

        let few = SpendingChart(spent: spent([("2026-11", "Bike <&> \u{202E}x", 100), ("2026-11", "A very long category name indeed", 1)]),
                                thisMonth: YearMonth("2026-11")!, currency: eur).render().description
        #expect(few.contains(">Bike &lt;&amp;&gt; \u{202E}x</text>"), "a name is text, never markup")
        #expect(few.contains(">A very long cat…</text>") && few.contains(">A very long category name indeed</th>"),
                "a long name is cut in the drawing, whole in the table")
        #expect(few.contains(">0 · &lt;1 %</text>"))
        #expect(SpendingChart(spent: [], thisMonth: YearMonth("2026-11")!, currency: eur).render().description.isEmpty)
    }
}
