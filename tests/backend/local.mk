# tests/backend: coming with hpmstat stat (issue 4)
