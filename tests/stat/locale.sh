# locale.sh: a locale that groups digits, for the tests of perf's big-num
# (sourced). perf groups std counts as the locale does (printf's ' flag
# after setlocale): nothing in C, ',' in en_US.
#
# make_locale DIR NAME (e.g. en_IN): NAME.UTF-8 compiled into DIR/locale
# with localedef; 0 when it is there (the caller sets LOCPATH=DIR/locale).
make_locale() {
	mkdir -p "$1/locale"
	[ -d "$1/locale/$2.UTF-8" ] || localedef -i "$2" -f UTF-8 "$1/locale/$2.UTF-8" >/dev/null 2>&1
	[ -n "$(LOCPATH="$1/locale" LC_ALL=$2.UTF-8 locale thousands_sep 2>/dev/null)" ]
}

# grouping_locale DIR: GROUPING_LOCALE=en_US.UTF-8, installed or compiled
# with localedef into DIR (LOCPATH exported), or empty when neither works.
grouping_locale() {
	GROUPING_LOCALE=
	if [ "$(LC_ALL=en_US.UTF-8 locale thousands_sep 2>/dev/null)" = "," ]; then
		GROUPING_LOCALE=en_US.UTF-8
		return 0
	fi
	command -v localedef >/dev/null 2>&1 || return 0
	mkdir -p "$1/locale"
	localedef -i en_US -f UTF-8 "$1/locale/en_US.UTF-8" >/dev/null 2>&1
	if [ "$(LOCPATH="$1/locale" LC_ALL=en_US.UTF-8 locale thousands_sep 2>/dev/null)" = "," ]; then
		LOCPATH="$1/locale"
		export LOCPATH
		GROUPING_LOCALE=en_US.UTF-8
	fi
	return 0
}
