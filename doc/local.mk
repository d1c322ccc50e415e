# doc: what README.md leaves out, in detail (README's "Everything else"
# lists them); tests/cli/docs.sh runs the commands doc/performance.md shows.
EXTRA_DIST += doc/commands.md doc/emulator.md doc/bpf.md doc/performance.md doc/riscv.md \
	doc/development.md
