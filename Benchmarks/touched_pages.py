#!/usr/bin/env python3
"""Which parts of a running process's executable are in memory (touched pages).

usage: touched_pages.py PID

Reads /proc/PID/maps and /proc/PID/pagemap (the present bit is readable by the process's
owner) for the mappings of the executable, maps each present page to the ELF section and
symbols it holds (readelf -S, nm -S), and sums the present bytes by section and by
module: ICU (icu_NN namespaces, u*_NN C functions, the icudtNN data), Foundation's
internationalization, FoundationEssentials, Foundation, GRDB, ArgumentParser, the Swift
runtime and standard library, notify's own, and the rest.
"""
import bisect, os, re, struct, subprocess, sys
from collections import defaultdict

pid = int(sys.argv[1])
exe = os.readlink(f"/proc/{pid}/exe")
page = os.sysconf("SC_PAGE_SIZE")

maps = []
for line in open(f"/proc/{pid}/maps"):
    parts = line.split()
    if len(parts) >= 6 and parts[5] == exe:
        start, end = (int(x, 16) for x in parts[0].split("-"))
        maps.append((start, end, int(parts[2], 16)))

sections = []
out = subprocess.run(["readelf", "-SW", exe], capture_output=True, text=True).stdout
for m in re.finditer(r"\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", out):
    name, addr, off, size = m.group(1), int(m.group(2), 16), int(m.group(3), 16), int(m.group(4), 16)
    if size:
        sections.append((off, off + size, name, addr))
sections.sort()

symbols = []
out = subprocess.run(["nm", "-S", "--defined-only", exe], capture_output=True, text=True).stdout
for line in out.splitlines():
    parts = line.split()
    if len(parts) == 4:
        symbols.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
symbols.sort()
starts = [s[0] for s in symbols]


def module(name):
    if re.search(r"icu_\d+", name) or re.match(r"u[a-z0-9]*_\w+_\d\d$", name) or name.startswith("icudt"):
        return "ICU"
    for key, label in [("FoundationInternationalization", "FoundationInternationalization"),
                       ("FoundationEssentials", "FoundationEssentials"), ("Foundation", "Foundation"),
                       ("GRDB", "GRDB"), ("ArgumentParser", "ArgumentParser"),
                       ("Notify", "notify"), ("swift_", "Swift runtime"), ("$ss", "Swift stdlib")]:
        if key in name:
            return label
    return "other"


by_section = defaultdict(int)
by_module = defaultdict(int)
total = 0
with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
    for start, end, offset in maps:
        for address in range(start, end, page):
            pagemap.seek(address // page * 8)
            entry = struct.unpack("<Q", pagemap.read(8))[0]
            if not entry >> 63 & 1:
                continue
            total += page
            file_offset = offset + (address - start)
            i = bisect.bisect_right([s[0] for s in sections], file_offset) - 1
            section = sections[i] if i >= 0 and file_offset < sections[i][1] else None
            by_section[section[2] if section else "(headers)"] += page
            if section:
                vaddr = section[3] + (file_offset - section[0])
                # The module holding most of the page's bytes (pages mix neighbours).
                j = bisect.bisect_right(starts, vaddr + page - 1) - 1
                weights = defaultdict(int)
                while j >= 0 and j > bisect.bisect_right(starts, vaddr - 1_048_576) - 2:
                    low, size, name = symbols[j]
                    overlap = min(low + max(size, 1), vaddr + page) - max(low, vaddr)
                    if overlap > 0:
                        weights[module(name)] += overlap
                    j -= 1
                label = max(weights, key=weights.get) if weights else "unnamed (" + section[2] + ")"
                by_module[label] += page

mib = lambda b: f"{b / 1048576:.2f} MiB"
print(f"{exe}: {mib(total)} of the executable present")
for name, size in sorted(by_section.items(), key=lambda x: -x[1])[:10]:
    print(f"  section {name}: {mib(size)}")
for name, size in sorted(by_module.items(), key=lambda x: -x[1])[:14]:
    print(f"  module {name}: {mib(size)}")
