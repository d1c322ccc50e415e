# src/backend: coming with hpmstat stat (issue 4)
