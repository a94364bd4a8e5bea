"""The disassembler: listings of .pipc files, driven by pipvm.isa.opcodes."""
