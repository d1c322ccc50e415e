# HPM_CHECK_CFLAGS(FLAGS)
# Append to HPM_CFLAGS each flag of FLAGS that the C compiler accepts, so the
# warning set degrades gracefully on older compilers instead of failing.
AC_DEFUN([HPM_CHECK_CFLAGS], [
  for hpm_flag in m4_normalize([$1]); do
    AS_VAR_PUSHDEF([hpm_cv], [hpm_cv_cflag_$hpm_flag])
    AC_CACHE_CHECK([whether $CC accepts $hpm_flag], [hpm_cv], [
      hpm_save_CFLAGS=$CFLAGS
      CFLAGS="$CFLAGS -Werror $hpm_flag"
      AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [AS_VAR_SET([hpm_cv], [yes])], [AS_VAR_SET([hpm_cv], [no])])
      CFLAGS=$hpm_save_CFLAGS])
    AS_VAR_IF([hpm_cv], [yes], [HPM_CFLAGS="$HPM_CFLAGS $hpm_flag"])
    AS_VAR_POPDEF([hpm_cv])
  done
])
