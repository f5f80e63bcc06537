import CSystem

/// Process-wide allocator settings for many snapshots in a row: image, readback and encoder buffers
/// of a few megabytes are allocated and freed for every snapshot, and glibc by default maps and
/// unmaps each one, paying a page fault per page every time. Keeping them in the heap (allocations
/// below 64 MiB, up to 256 MiB of free heap kept) cut CPU time per snapshot by about a tenth in
/// `glsnap bench`. Memory stays bounded by that threshold. Call once, early; front ends do.
public func tuneAllocatorForSnapshots() {
    _ = mallopt(M_MMAP_THRESHOLD, 64 << 20)
    _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
}
