import CSystemd
import Glibc

/// What an idle daemon gives back as it goes idle (docs/decisions/0126): the mappings of
/// its executable's read-only pages (code, read-only data) that start-up and the last
/// wake-up faulted in, and the heap's free pages.
///
/// The kernel maps up to 64 KiB around each page fault of a file mapping (fault-around),
/// so the code run once at start (argument parsing, migrations, the assembly) stays
/// resident next to the loop's: `MADV_DONTNEED` on a read-only private file mapping only
/// drops the page-table entries, the page cache keeps the pages, and the next wake-up maps
/// again what it runs (minor faults, no disk read while the pages are cached). Only
/// segments nothing ever wrote are dropped: the executable's loadable segments without
/// `PF_W`, and none when it has text relocations. Writable and relocated data (`.data`,
/// `.data.rel.ro`, the GOT) are never touched: dropping them would lose what was written.
///
/// ```swift
/// let trim = IdleTrim()
/// hooks.onIdle = { trim.run() }
/// ```
package struct IdleTrim: Sendable {
  /// The address ranges of the executable's read-only segments, whole pages only.
  let ranges: [Range<UInt>]

  /// Finds the executable's read-only segments (from its program headers, `AT_PHDR`).
  package init() {
    ranges = Self.readOnlySegments()
  }

  /// Drops the read-only pages' mappings and gives the heap's free pages back.
  package func run() {
    for range in ranges {
      _ = madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), Int(range.count), MADV_DONTNEED)
    }
    _ = malloc_trim(0)
  }

  /// The read-only loadable segments of the running executable, rounded inwards to whole
  /// pages; none when its headers cannot be read or it has text relocations.
  static func readOnlySegments() -> [Range<UInt>] {
    let address = UInt(getauxval(UInt(AT_PHDR)))
    let count = Int(getauxval(UInt(AT_PHNUM)))
    guard address != 0, count > 0, let first = UnsafePointer<Elf64_Phdr>(bitPattern: address) else {
      return []
    }
    let headers = UnsafeBufferPointer(start: first, count: count)
    // Where the executable was loaded: the headers' own address less where they say they are.
    guard let own = headers.first(where: { $0.p_type == PT_PHDR }) else { return [] }
    let bias = address &- UInt(own.p_vaddr)
    if hasTextRelocations(headers, bias: bias) { return [] }
    let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
    return headers.compactMap { header in
      guard header.p_type == PT_LOAD, header.p_flags & UInt32(PF_W) == 0 else { return nil }
      let start = (bias &+ UInt(header.p_vaddr) + page - 1) / page * page
      let end = (bias &+ UInt(header.p_vaddr) + UInt(header.p_memsz)) / page * page
      return start < end ? start..<end : nil
    }
  }

  /// Whether the dynamic section asks for relocations in read-only segments (`DT_TEXTREL`,
  /// `DF_TEXTREL`): the loader then wrote into them.
  private static func hasTextRelocations(_ headers: UnsafeBufferPointer<Elf64_Phdr>, bias: UInt) -> Bool {
    guard let dynamic = headers.first(where: { $0.p_type == PT_DYNAMIC }),
      var entry = UnsafePointer<Elf64_Dyn>(bitPattern: bias &+ UInt(dynamic.p_vaddr))
    else { return false }
    while entry.pointee.d_tag != DT_NULL {
      if entry.pointee.d_tag == DT_TEXTREL { return true }
      if entry.pointee.d_tag == DT_FLAGS, entry.pointee.d_un.d_val & UInt64(DF_TEXTREL) != 0 { return true }
      entry += 1
    }
    return false
  }
}
