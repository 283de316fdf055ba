/// Equal tiles in rows of `columns`, `gap` pixels apart: where each tile of a sheet goes.
public struct TileGrid: Equatable, Sendable {
    public var columns: Int
    public var rows: Int
    public var tileWidth: Int
    public var tileHeight: Int
    public var gap: Int

    /// Room for `count` tiles, row by row.
    public init(count: Int, columns: Int, tileWidth: Int, tileHeight: Int, gap: Int) {
        self.columns = max(1, columns)
        rows = max(1, (count + self.columns - 1) / self.columns)
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.gap = gap
    }

    public var width: Int { columns * tileWidth + (columns - 1) * gap }
    public var height: Int { rows * tileHeight + (rows - 1) * gap }

    /// Top-left corner of tile `index` (row by row), from the grid's own top-left corner.
    public func origin(_ index: Int) -> (x: Int, y: Int) {
        ((index % columns) * (tileWidth + gap), (index / columns) * (tileHeight + gap))
    }
}
