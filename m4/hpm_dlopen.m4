# HPM_DLOPEN_LIB(PREFIX, DEBIAN-PACKAGE)
# With --enable-dlopen, for the optional library whose link flags are in
# PREFIX_LIBS: define PREFIX_SONAME (what util/dlib.c opens, read from the
# library's ELF file; a linker script, as Debian's libncursesw.so, names
# it) and PREFIX_PACKAGE (the Debian package holding it, from dpkg when
# there is one, else DEBIAN-PACKAGE), and make PREFIX_LIBS the shims of
# src/util instead of the library, so no program links it.
AC_DEFUN([HPM_DLOPEN_LIB], [
  AS_IF([test "x$enable_dlopen" = xyes], [
    hpm_lib=`echo " $$1_LIBS" | $AWK '{ for (i = 1; i <= NF; i++) if ($i ~ /^-l/) { print substr($i, 3); exit } }'`
    hpm_dirs=`echo " $$1_LIBS $LDFLAGS" | $AWK '{ for (i = 1; i <= NF; i++) if ($i ~ /^-L/) print substr($i, 3) }'`
    hpm_file=
    for hpm_d in $hpm_dirs; do
      AS_IF([test -z "$hpm_file" && test -e "$hpm_d/lib$hpm_lib.so"], [hpm_file=$hpm_d/lib$hpm_lib.so])
    done
    AS_IF([test -z "$hpm_file"], [hpm_file=`$CC $CFLAGS $LDFLAGS -print-file-name=lib$hpm_lib.so`])
    AC_MSG_CHECKING([the soname of lib$hpm_lib])
    hpm_soname=`$READELF -d "$hpm_file" 2>/dev/null | sed -n 's/.*(SONAME).*\@<:@\(.*\)\@:>@.*/\1/p'`
    AS_IF([test -z "$hpm_soname"],
      [hpm_soname=`sed -n 's/^ *\(INPUT\|GROUP\) *( *\(@<:@^ )@:>@*\).*/\2/p' "$hpm_file" 2>/dev/null | sed 1q`])
    AS_IF([test -z "$hpm_soname"],
      [AC_MSG_ERROR([cannot read the soname of lib$hpm_lib.so ($hpm_file): configure --disable-dlopen])])
    AC_MSG_RESULT([$hpm_soname])
    hpm_pkg=`dpkg-query -S "*/$hpm_soname" 2>/dev/null | sed -n '1s/:.*//p'`
    AS_IF([test -z "$hpm_pkg"], [hpm_pkg=$2])
    $1_SONAME=$hpm_soname
    AC_DEFINE_UNQUOTED([$1_SONAME], ["$hpm_soname"], [The file util/dlib.c opens for $1])
    AC_DEFINE_UNQUOTED([$1_PACKAGE], ["$hpm_pkg"], [The Debian package of $1_SONAME])
    $1_DLOPEN=" (dlopen)"
    $1_LIBS='$(HPM_DLOPEN_LIBS)'
  ])
])
