// The Swift examples of the documentation, compiled: every ```swift block of README.md,
// docs/*.md and the DocC catalog (Sources/Notify/Notify.docc) appears in one of these
// files, line for line, and `.ci/doc-snippets` checks that it does and type-checks these
// files as an app outside the package would (public API only). Nothing here runs: the
// examples are functions that nobody calls.
print("doc-snippets: the documentation's examples; nothing to run")
