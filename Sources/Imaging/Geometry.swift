/// A point in image pixels (x right, y down; pixel centres at integer + 0.5 is not assumed:
/// coordinates are the detector's, with (0, 0) the top-left corner of the top-left pixel).
public struct Point: Codable, Equatable, Sendable {
    public var x: Float
    public var y: Float
    public init(_ x: Float, _ y: Float) { self.x = x; self.y = y }

    public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// An axis-aligned rectangle in image pixels.
public struct Box: Codable, Equatable, Sendable {
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float

    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }
    public var area: Float { max(0, width) * max(0, height) }
    public var center: Point { Point(x + width / 2, y + height / 2) }
    public var maxX: Float { x + width }
    public var maxY: Float { y + height }
    /// Whether `p` lies inside it or on its edge.
    public func contains(_ p: Point) -> Bool { x <= p.x && p.x <= maxX && y <= p.y && p.y <= maxY }

    public func intersectionOverUnion(_ o: Box) -> Float {
        let w = min(maxX, o.maxX) - max(x, o.x), h = min(maxY, o.maxY) - max(y, o.y)
        guard w > 0, h > 0 else { return 0 }
        let inter = w * h
        return inter / (area + o.area - inter)
    }

    public func scaled(by s: Float) -> Box { Box(x: x * s, y: y * s, width: width * s, height: height * s) }

    /// The part of this box inside a `width` x `height` image (may be empty).
    public func clipped(width w: Int, height h: Int) -> Box {
        let x0 = min(max(x, 0), Float(w)), y0 = min(max(y, 0), Float(h))
        let x1 = min(max(maxX, 0), Float(w)), y1 = min(max(maxY, 0), Float(h))
        return Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
