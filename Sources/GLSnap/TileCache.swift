import Foundation
import GLSnapData
import GLSnapLayout
import GLSnapRender

/// Caches shared by all snapshots of a `Snapshotter`: decoded tiles and tessellated tile layers.
/// Least recently used entries go first when a cache is full. Thread-safe.
final class LRUCache<Key: Hashable, Value>: @unchecked Sendable {
    private var entries: [Key: (value: Value, tick: Int)] = [:]
    private var tick = 0
    private let capacity: Int
    private let lock = NSLock()

    init(capacity: Int) { self.capacity = capacity }

    /// The cached value, or `make()`'s, stored for next time. `make` runs outside the lock.
    func value(for key: Key, make: () throws -> Value) rethrows -> Value {
        lock.lock()
        tick += 1
        if let e = entries[key] {
            entries[key] = (e.value, tick)
            lock.unlock()
            return e.value
        }
        lock.unlock()
        let v = try make()
        lock.lock()
        defer { lock.unlock() }
        tick += 1
        entries[key] = (v, tick)
        if entries.count > capacity {
            // Drop the oldest quarter in one pass rather than one entry per insert.
            let cut = entries.values.map(\.tick).sorted()[entries.count / 4]
            entries = entries.filter { $0.value.tick > cut }
        }
        return v
    }

    var count: Int { lock.lock(); defer { lock.unlock() }; return entries.count }
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

/// Nil boxed, so "this tile has nothing for the layer" is cached too.
struct Cached<T> { let value: T? }
