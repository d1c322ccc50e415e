# src/metric: coming with hpmstat stat (issue 4)
