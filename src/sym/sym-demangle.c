/* sym-demangle.c: function names of C++ (and Rust) programs as perf 6.1
 * prints them (sym-int.h).
 *
 * perf demangles each ELF symbol as it reads it (symbol-elf.c's
 * demangle_sym) with binutils' cplus_demangle: options 0 without -v, so a
 * name without its parameters, return type, qualifiers and clone suffix
 * ("ns::func" for _ZN2ns4funcEi.cold); DMGL_PARAMS|DMGL_ANSI with -v
 * (the whole "ns::func(int) [clone .cold]"). Only names the demangler
 * takes for mangled ones are touched (_Z..., _GLOBAL_.I_/D_...); a name it
 * cannot demangle stays as it is. Legacy Rust names (_ZN...17h<hash>E)
 * lose their hash and their $..$ escapes (perf's demangle-rust.c).
 *
 * The demangler here is libstdc++'s __cxa_demangle (util/dl-cxx.c), the
 * same code as binutils' (libiberty's cp-demangle.c) with DMGL_PARAMS:
 * the names without parameters are cut out of its answer, as
 * cp-demangle.c's d_encoding leaves the function type out without
 * DMGL_PARAMS. libstdc++ is opened by the first name that needs it; when
 * it cannot be, names stay mangled and sym_demangle_why says why.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sym/sym-int.h"
#include "util/dlib.h"
#include "util/xalloc.h"

#ifdef HAVE_DEMANGLE
/* 1 loaded, -1 missing (why set), 0 not tried */
static int lib_state;
static char lib_why[256];
#endif

const char *sym_demangle_why(void)
{
#ifdef HAVE_DEMANGLE
	return lib_state < 0 ? lib_why : NULL;
#else
	return NULL;
#endif
}

#ifdef HAVE_DEMANGLE
/* The names cplus_demangle takes for mangled ones without DMGL_TYPES
 * (cp-demangle.c's d_demangle_callback): _Z..., and the old global
 * constructors and destructors _GLOBAL_[._$][ID]_... */
static bool looks_mangled(const char *s)
{
	if (s[0] == '_' && s[1] == 'Z')
		return true;
	return !strncmp(s, "_GLOBAL_", 8) && (s[8] == '.' || s[8] == '_' || s[8] == '$') &&
	       (s[9] == 'D' || s[9] == 'I') && s[10] == '_';
}

/* ------------------------------------------------ cutting out the name */

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);
	return n >= k && !memcmp(s + n - k, suf, k);
}

/* The index of the '(' that opens the group closing at s[close]. */
static bool open_of(const char *s, size_t close, size_t *open)
{
	int depth = 0;

	for (size_t i = close + 1; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0) {
			*open = i;
			return true;
		}
	}
	return false;
}

/* The length of the operator's symbol at s (just past "operator"), and
 * whether a space after it belongs to it (new, delete, a conversion's
 * type, or the space before template arguments: "operator<< <int>"). */
static size_t operator_len(const char *s)
{
	static const char *const ops[] = {
	    "<=>", "<<=", ">>=", "->*", "()", "[]", "<<", ">>", "<=", ">=", "->", "==", "!=",
	    "&&",  "||",  "++",  "--",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<",
	    ">",   "+",   "-",   "*",   "/",  "%",  "&",  "|",  "^",  "~",  "!",  "=",  ","};
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
		size_t k = strlen(ops[i]);
		if (!strncmp(s, ops[i], k))
			return k;
	}
	return 0;
}

/* Whether s starts with a function's qualifier, which follows a space
 * but starts no name ("f(int) const::{lambda()#1}", "char const*") */
static bool qualifier_at(const char *s)
{
	static const char *const q[] = {"const", "volatile", "restrict",
	                                "&",     "noexcept", "transaction_safe"};
	for (size_t i = 0; i < sizeof q / sizeof *q; i++) {
		size_t k = strlen(q[i]);
		if (!strncmp(s, q[i], k) &&
		    (q[i][0] == '&' || (!isalnum((unsigned char)s[k]) && s[k] != '_')))
			return true;
	}
	return false;
}

/* The start of the name in "RET NAME" (a template function's return type
 * printed before it): past the last space outside brackets that is not
 * an operator's own ("operator new", "operator char const*", "operator<<
 * <int>"); 0 when there is none. */
static size_t name_start(const char *s, size_t n)
{
	int depth = 0;
	size_t start = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!strncmp(s + i, "operator", 8) &&
		    (i == 0 || s[i - 1] == ':' || s[i - 1] == ' ') &&
		    !isalnum((unsigned char)s[i + 8]) && s[i + 8] != '_') {
			size_t k = operator_len(s + i + 8);

			i += 8 + k;
			if (k && i + 1 < n && s[i] == ' ' && s[i + 1] == '<')
				i++;
			else if (!k && i < n && s[i] == ' ')
				break; /* new, delete, "" or a conversion's type
				        * ("operator void (Foo::*)()"): the rest is the
				        * operator's, the last of the name */
			i--;
			continue;
		}
		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (c == ' ' && !depth && !qualifier_at(s + i + 1))
			start = i + 1;
	}
	return start;
}

/* cplus_demangle's answer without DMGL_PARAMS, from __cxa_demangle's
 * (full, of mangled) in place: no clone suffix, and for a function no
 * qualifiers, parameters nor return type. */
static void strip_params(const char *mangled, char *full)
{
	size_t n = strlen(full), open;
	static const char *const quals[] = {" const", " volatile",         " restrict", " &&",
	                                    " &",     " transaction_safe", " noexcept"};
	bool again = true;

	/* " [clone .cold]" and the like, each parsed from a suffix */
	while (n && full[n - 1] == ']') {
		char *c = NULL;
		for (size_t i = n; i-- > 0;)
			if (!strncmp(full + i, " [clone ", 8)) {
				c = full + i;
				break;
			}
		if (!c)
			break;
		n = (size_t)(c - full);
	}
	full[n] = '\0';
	/* thunks, vtables, guard variables: what they name keeps its
	 * parameters (d_special_name's d_encoding is not the top level) */
	if (mangled[0] == '_' && mangled[1] == 'Z' && (mangled[2] == 'T' || mangled[2] == 'G'))
		return;
	if (mangled[0] != '_' || mangled[1] != 'Z')
		return;
	while (again) {
		again = false;
		for (size_t i = 0; i < sizeof quals / sizeof *quals; i++)
			if (ends_with(full, n, quals[i])) {
				n -= strlen(quals[i]);
				again = true;
			}
		if (n && full[n - 1] == ')' && n >= 10 && ends_with(full, n, ")") &&
		    strstr(full, " noexcept(")) {
			/* noexcept(expr) */
			size_t o;
			if (open_of(full, n - 1, &o) && o >= 9 &&
			    !strncmp(full + o - 9, " noexcept", 9)) {
				n = o - 9;
				again = true;
			}
		}
	}
	if (!n || full[n - 1] != ')' || !open_of(full, n - 1, &open)) {
		full[n] = '\0';
		return; /* no function type: a variable */
	}
	n = open;
	full[n] = '\0';
	size_t s = name_start(full, n);
	if (s)
		memmove(full, full + s, n - s + 1);
}

/* ------------------------------------------------------------- Rust */

/* The escapes of legacy Rust names and what they stand for. */
static const struct {
	const char *esc;
	char c;
} rust_esc[] = {{"$SP$", '@'},   {"$BP$", '*'},  {"$RF$", '&'},  {"$LT$", '<'},  {"$GT$", '>'},
                {"$LP$", '('},   {"$RP$", ')'},  {"$C$", ','},   {"$u7e$", '~'}, {"$u20$", ' '},
                {"$u27$", '\''}, {"$u5b$", '['}, {"$u5d$", ']'}, {"$u7b$", '{'}, {"$u7d$", '}'},
                {"$u3b$", ';'},  {"$u2b$", '+'}, {"$u22$", '"'}};

static size_t rust_esc_at(const char *s, size_t *k)
{
	for (size_t i = 0; i < sizeof rust_esc / sizeof *rust_esc; i++) {
		size_t l = strlen(rust_esc[i].esc);
		if (!strncmp(s, rust_esc[i].esc, l)) {
			*k = i;
			return l;
		}
	}
	return 0;
}

/* perf's rust_is_mangled: "::h" and 16 hex digits at the end, before
 * them only what legacy Rust names are made of (letters, digits, '_',
 * ':', '.' but never three in a row, the escapes) */
static bool rust_legacy(const char *s, size_t *len)
{
	size_t n = strlen(s), k;

	if (n <= 19 || strncmp(s + n - 19, "::h", 3))
		return false;
	for (size_t i = n - 16; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	n -= 19;
	for (size_t i = 0; i < n;) {
		size_t l;
		if (s[i] == '$') {
			if (!(l = rust_esc_at(s + i, &k)))
				return false;
			i += l;
		} else if (s[i] == '.' && !strncmp(s + i, "...", 3)) {
			return false;
		} else if (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == ':' ||
		           s[i] == '.') {
			i++;
		} else {
			return false;
		}
	}
	*len = n;
	return true;
}

/* perf's rust_demangle_sym: the hash goes, the escapes are decoded, ".."
 * is "::" and "." "-"; an '_' before an escape that starts a component
 * goes (the mangler's, to start it with a letter) */
static void rust_unescape(char *s, size_t n)
{
	size_t i = 0, o = 0, k, l;

	while (i < n) {
		if (s[i] == '$') {
			if (!(l = rust_esc_at(s + i, &k)))
				break;
			s[o++] = rust_esc[k].c;
			i += l;
		} else if (s[i] == '_' && (i == 0 || s[i - 1] == ':') && s[i + 1] == '$') {
			i++;
		} else if (s[i] == '.' && s[i + 1] == '.') {
			s[o++] = ':';
			s[o++] = ':';
			i += 2;
		} else if (s[i] == '.') {
			s[o++] = '-';
			i++;
		} else {
			s[o++] = s[i++];
		}
	}
	s[o] = '\0';
}

#endif

/* ------------------------------------------------------------- API */

char *sym_demangle(const char *name, bool params)
{
#ifdef HAVE_DEMANGLE
	char *out;
	int st = 0;
	size_t rlen;

	if (!looks_mangled(name) || lib_state < 0)
		return NULL;
	if (!lib_state)
		lib_state = hpm_dl_cxx_load(lib_why, sizeof lib_why) ? -1 : 1;
	if (lib_state < 0)
		return NULL;
	out = hpm_cxa_demangle(name, &st);
	if (!out && !params && name[0] == '_' && name[1] == 'Z') {
		/* without DMGL_PARAMS what follows the name is not read: a
		 * suffix that is no clone's ("$...", ".x.y-z") does not fail */
		size_t cut = strcspn(name + 2, ".$") + 2;
		if (name[cut]) {
			char *head = xstrndup(name, cut);
			out = hpm_cxa_demangle(head, &st);
			free(head);
		}
	}
	if (!out)
		return NULL;
	if (!params)
		strip_params(name, out);
	if (rust_legacy(out, &rlen))
		rust_unescape(out, rlen);
	return out;
#else
	(void)name;
	(void)params;
	return NULL;
#endif
}
