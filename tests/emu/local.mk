# tests/emu
