# man
