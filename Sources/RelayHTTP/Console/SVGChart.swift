import Foundation

/// Charts as SVG text, drawn on the server (the console runs no script; its CSP allows none).
/// Colours are presentation attributes, not `style`, which the CSP would refuse. Every text
/// from data is XML-escaped. Pure: values in, markup out.
enum SVGChart {
    struct Column {
        var label: String
        /// Stacked from the bottom, in order.
        var segments: [(key: String, value: Double)]
    }

    static let palette = ["#2e7d32", "#c62828", "#f9a825", "#1565c0", "#6a1b9a", "#00838f", "#8d6e63", "#546e7a"]

    /// Stacked columns with a legend of `keys` (in colour order) and the largest total as scale.
    static func stackedColumns(_ columns: [Column], keys: [String], title: String, width: Int = 720, height: Int = 220) -> String {
        let plotTop = 24.0, plotBottom = Double(height) - 28, left = 40.0, right = Double(width) - 8
        let maxTotal = max(1, columns.map { $0.segments.reduce(0) { $0 + $1.value } }.max() ?? 1)
        let step = columns.isEmpty ? 0 : (right - left) / Double(columns.count)
        var svg = header(width: width, height: height, title: title)
        svg += axis(left: left, right: right, top: plotTop, bottom: plotBottom, maxValue: maxTotal)
        for (index, column) in columns.enumerated() {
            var y = plotBottom
            let x = left + Double(index) * step + step * 0.1
            for segment in column.segments where segment.value > 0 {
                let h = (plotBottom - plotTop) * segment.value / maxTotal
                y -= h
                let colour = palette[(keys.firstIndex(of: segment.key) ?? 0) % palette.count]
                svg += ##"<rect x="\##(f(x))" y="\##(f(y))" width="\##(f(step * 0.8))" height="\##(f(h))" fill="\##(colour)"><title>\##(escape(column.label)) \##(escape(segment.key)): \##(Int(segment.value))</title></rect>"##
            }
            if columns.count <= 31, index % max(1, columns.count / 6) == 0 {
                svg += ##"<text x="\##(f(x))" y="\##(height - 10)" font-size="10" fill="#555">\##(escape(column.label))</text>"##
            }
        }
        svg += legend(keys, x: left, y: 14)
        return svg + "</svg>"
    }

    /// Lines over the same days (median and p90, say); `nil` where a day has no value.
    static func lines(_ labels: [String], series: [(key: String, values: [Double?])], title: String, unit: String,
                      width: Int = 720, height: Int = 200) -> String {
        let plotTop = 24.0, plotBottom = Double(height) - 28, left = 40.0, right = Double(width) - 8
        let maxValue = max(1, series.flatMap { $0.values.compactMap { $0 } }.max() ?? 1)
        let step = labels.count > 1 ? (right - left) / Double(labels.count - 1) : 0
        var svg = header(width: width, height: height, title: title)
        svg += axis(left: left, right: right, top: plotTop, bottom: plotBottom, maxValue: maxValue, unit: unit)
        for (index, line) in series.enumerated() {
            let points = line.values.enumerated().compactMap { position, value -> String? in
                guard let value else { return nil }
                return "\(f(left + Double(position) * step)),\(f(plotBottom - (plotBottom - plotTop) * value / maxValue))"
            }
            guard !points.isEmpty else { continue }
            // A dot per value, so a day standing alone still shows.
            for point in points {
                let xy = point.split(separator: ",")
                svg += ##"<circle cx="\##(xy[0])" cy="\##(xy[1])" r="2.5" fill="\##(palette[(index + 3) % palette.count])"/>"##
            }
            svg += ##"<polyline points="\##(points.joined(separator: " "))" fill="none" stroke="\##(palette[(index + 3) % palette.count])" stroke-width="2"/>"##
        }
        for (index, label) in labels.enumerated() where labels.count <= 31 && index % max(1, labels.count / 6) == 0 {
            svg += ##"<text x="\##(f(left + Double(index) * step))" y="\##(height - 10)" font-size="10" fill="#555">\##(escape(label))</text>"##
        }
        svg += legend(series.map(\.key), x: left, y: 14, offset: 3)
        return svg + "</svg>"
    }

    static func header(width: Int, height: Int, title: String) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(height)" viewBox="0 0 \##(width) \##(height)" role="img" aria-label="\##(escape(title))"><title>\##(escape(title))</title>"##
    }

    static func axis(left: Double, right: Double, top: Double, bottom: Double, maxValue: Double, unit: String = "") -> String {
        ##"<line x1="\##(f(left))" y1="\##(f(bottom))" x2="\##(f(right))" y2="\##(f(bottom))" stroke="#999"/>"##
            + ##"<text x="2" y="\##(f(top + 8))" font-size="10" fill="#555">\##(escape(short(maxValue) + unit))</text>"##
            + ##"<text x="2" y="\##(f(bottom))" font-size="10" fill="#555">0</text>"##
    }

    static func legend(_ keys: [String], x: Double, y: Double, offset: Int = 0) -> String {
        var svg = ""
        var position = x
        for (index, key) in keys.enumerated() {
            svg += ##"<rect x="\##(f(position))" y="\##(f(y - 8))" width="10" height="10" fill="\##(palette[(index + offset) % palette.count])"/>"##
            svg += ##"<text x="\##(f(position + 14))" y="\##(f(y + 1))" font-size="11" fill="#333">\##(escape(key))</text>"##
            position += 24 + Double(key.count) * 6.5
        }
        return svg
    }

    static func short(_ value: Double) -> String {
        value >= 10_000 ? "\(Int(value / 1000))k" : value >= 100 ? "\(Int(value))" : String(format: "%.1f", value)
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
