# src/stat: coming with hpmstat stat (issue 4)
