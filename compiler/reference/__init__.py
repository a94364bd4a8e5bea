"""The reference semantics: tree-walking interpreters the VM is fuzzed against."""
