import Foundation
import GLSnapData
import GLSnapLayout
import GLSnapRender

/// Caches shared by all snapshots of a `Snapshotter`: decoded tiles, tessellated tile layers and
/// decoded rasters, each within a byte budget (estimated per entry); least recently used entries
/// go first when a cache is over budget. Thread-safe.
final class LRUCache<Key: Hashable, Value>: @unchecked Sendable {
    private var entries: [Key: (value: Value, tick: Int, cost: Int)] = [:]
    private var tick = 0
    private var total = 0
    /// Bytes the entries may hold (`Snapshotter.options` sets it; a lower one evicts at once).
    var budget: Int {
        get { lock.lock(); defer { lock.unlock() }; return _budget }
        set {
            lock.lock(); defer { lock.unlock() }
            _budget = newValue
            if total > _budget { evict() }
        }
    }
    private var _budget: Int
    private let cost: (Value) -> Int
    private let lock = NSLock()

    /// `budget` in bytes; `cost` estimates an entry's bytes.
    init(budget: Int, cost: @escaping (Value) -> Int) {
        _budget = budget
        self.cost = cost
    }

    /// The cached value, or `make()`'s, stored for next time. `make` runs outside the lock.
    func value(for key: Key, make: () throws -> Value) rethrows -> Value {
        lock.lock()
        tick += 1
        if let e = entries[key] {
            entries[key] = (e.value, tick, e.cost)
            lock.unlock()
            return e.value
        }
        lock.unlock()
        let v = try make()
        let c = max(64, cost(v))
        lock.lock()
        defer { lock.unlock() }
        tick += 1
        if let old = entries[key] { total -= old.cost }
        entries[key] = (v, tick, c)
        total += c
        if total > _budget { evict() }
        return v
    }

    /// Drops the oldest entries until a quarter of the budget is free (one pass, not one per insert).
    private func evict() {
        let target = _budget - _budget / 4
        for (key, e) in entries.sorted(by: { $0.value.tick < $1.value.tick }) where total > target {
            entries[key] = nil
            total -= e.cost
        }
    }

    var count: Int { lock.lock(); defer { lock.unlock() }; return entries.count }
    /// Estimated bytes held.
    var bytes: Int { lock.lock(); defer { lock.unlock() }; return total }
}

/// Rough sizes of cached values, for the caches' byte budgets.
enum CacheCost {
    static func tile(_ t: Cached<VectorTile>) -> Int {
        guard let tile = t.value else { return 64 }
        var n = 0
        for layer in tile.layers.values {
            for f in layer.features {
                n += 96 + f.properties.count * 64
                for part in f.geometry { n += 32 + part.count * MemoryLayout<TilePoint>.stride }
            }
        }
        return n
    }

    static func symbols(_ s: Cached<SymbolTile>) -> Int {
        s.value?.estimatedBytes ?? 64
    }

    static func geometry(_ g: Cached<GeometryBox>) -> Int {
        guard let box = g.value else { return 64 }
        let geometry = box.geometry
        var n = geometry.features.count * MemoryLayout<VectorFeature>.stride + geometry.spans.count * MemoryLayout<FeatureSpan>.stride
        for s in geometry.streams {
            switch s.data {
            case .int16(let a): n += a.count * 2
            case .uint8(let a): n += a.count
            case .float(let a): n += a.count * 4
            }
        }
        for i in geometry.indices { n += i.count * 4 }
        return n
    }

    static func raster(_ r: Cached<RasterBox>) -> Int {
        guard let box = r.value else { return 64 }
        return box.image.pixels.count
    }
}

struct TileKey: Hashable {
    var generation: Int
    var source: String
    var tile: TileID
}

struct GeometryKey: Hashable {
    var generation: Int
    var layer: String
    var tile: TileID
    var overscaledZoom: Int
}

struct SymbolLayoutKey: Hashable {
    var generation: Int
    var layer: String
    var tile: TileID
    var overscaledZoom: Int
    var pixelRatio: Double
}

/// Nil boxed, so "this tile has nothing for the layer" is cached too.
struct Cached<T> { let value: T? }
