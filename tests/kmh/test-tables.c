/* test-tables.c: the built event tables against XiangShan's RTL table and
 * the design document's TSV, row by row, the RTL facts the tables carry,
 * and the table validator (names, descriptions, codes, bank ranges,
 * aliases).
 *
 * Truth: tests/data/kunminghu-v2-0f639b5a-events.tsv (a checked-in copy of
 * shared/xiangshan's table rebuilt from the RTL at the design document's
 * commit), tests/data/kunminghu-events.tsv (a copy of
 * shared/seeds/kunminghu-events.tsv, the design document's), each compared
 * with its original when the shared folder is beside the tree; the facts of
 * shared/xiangshan/README.md typed in below; the bank/counter table of
 * SPEC §1.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/kmh.h"
#include "tap.h"

struct tsv_row {
	char bank[16];
	unsigned index;
	char name[96];
};

static unsigned read_tsv(const char *path, bool header, struct tsv_row *rows, unsigned max)
{
	FILE *f = fopen(path, "r");
	char line[256];
	unsigned n = 0;
	if (!f)
		return 0;
	if (header && !fgets(line, sizeof(line), f)) {
		fclose(f);
		return 0;
	}
	while (n < max && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (sscanf(line, "%15[^\t]\t%u\t%95s", rows[n].bank, &rows[n].index,
		           rows[n].name) == 3)
			n++;
	}
	fclose(f);
	return n;
}

static bool same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool same = fa && fb;
	while (same) {
		int ca = fgetc(fa), cb = fgetc(fb);
		if (ca != cb)
			same = false;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* how many rows of the TSV carry this name in this bank */
static unsigned tsv_count(const struct tsv_row *rows, unsigned n, const char *bank,
                          const char *name)
{
	unsigned c = 0;
	for (unsigned i = 0; i < n; i++)
		if (strcmp(rows[i].bank, bank) == 0 && strcmp(rows[i].name, name) == 0)
			c++;
	return c;
}

/* The RTL's table: every row is the table's own row of that index. */
static void test_against_tsv(const struct kmh_table *t, const char *path, unsigned want_rows)
{
	static struct tsv_row rows[1024];
	unsigned n = read_tsv(path, false, rows, 1024);
	if (!tap_ok(n == want_rows, "%s has %u rows (got %u)", path, want_rows, n))
		return;
	unsigned bad = 0, kth[1024] = {0};
	for (unsigned i = 0; i < n; i++) {
		const struct tsv_row *r = &rows[i];
		const struct kmh_bank_desc *b = kmh_bank_by_name(t, r->bank);
		const struct kmh_event *e =
		    b ? kmh_event_by_index(t, (int)(b - t->banks), r->index) : NULL;
		char want[128];
		unsigned dup = tsv_count(rows, n, r->bank, r->name);
		if (dup > 1) {
			/* NAME.K, K counting the earlier rows of the same name */
			unsigned k = 0;
			for (unsigned j = 0; j < i; j++)
				if (strcmp(rows[j].bank, r->bank) == 0 &&
				    strcmp(rows[j].name, r->name) == 0)
					k++;
			snprintf(want, sizeof(want), "%s.%u", r->name, k);
			kth[i] = k;
		} else {
			snprintf(want, sizeof(want), "%s", r->name);
		}
		if (!e || strcmp(kmh_str(t, e->name), want) != 0 || e->index != r->index) {
			bad++;
			tap_diag("TSV %s %u %s: table has %s", r->bank, r->index, r->name,
			         e ? kmh_str(t, e->name) : "nothing");
		}
		/* the plain name of a repeated one must be an alias of all its rows */
		if (dup > 1 && kth[i] == 0) {
			const struct kmh_alias *a =
			    kmh_alias_by_name(t, (int)(b - t->banks), r->name);
			unsigned k = 0;
			bool ok = a && a->nr == dup;
			for (unsigned j = i; ok && j < n; j++)
				if (strcmp(rows[j].bank, r->bank) == 0 &&
				    strcmp(rows[j].name, r->name) == 0)
					ok = a->index[k++] == rows[j].index;
			if (!ok) {
				bad++;
				tap_diag("alias %s:%s missing or wrong", r->bank, r->name);
			}
		}
	}
	tap_ok(bad == 0,
	       "%s: every TSV row is in the tables with its bank, index and name (%u bad)", t->name,
	       bad);
	unsigned total = 0;
	for (unsigned b = 0; b < KMH_NR_BANKS; b++)
		total += t->banks[b].nr_events;
	tap_ok(total == n, "%s: the tables hold no row the TSV lacks (%u rows, TSV %u)", t->name,
	       total, n);
}

/* The design document's table: the RTL's but for the names XiangShan
 * changed since, which stay accepted as deprecated names of their index. */
static void test_document_names(const char *path)
{
	static struct tsv_row rows[1024];
	unsigned n = read_tsv(path, true, rows, 1024);
	unsigned renamed = 0, bad = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct kmh_bank_desc *b = kmh_bank_by_name(&kmh_table_v2, rows[i].bank);
		int bank = b ? (int)(b - kmh_table_v2.banks) : KMH_BANK_NONE;
		const struct kmh_event *e = kmh_event_by_index(&kmh_table_v2, bank, rows[i].index);
		const struct kmh_name_alias *na =
		    kmh_name_alias_by_name(&kmh_table_v2, bank, rows[i].name);
		if (!e) {
			bad++;
			continue;
		}
		size_t len = strlen(rows[i].name);
		if (strncmp(kmh_str(&kmh_table_v2, e->name), rows[i].name, len) == 0 &&
		    (kmh_str(&kmh_table_v2, e->name)[len] == '\0' ||
		     kmh_str(&kmh_table_v2, e->name)[len] == '.'))
			continue;
		/* a renamed row: its old name is a deprecated name of this index */
		renamed++;
		if (!na || !na->deprecated || na->index != rows[i].index ||
		    kmh_event_by_name(&kmh_table_v2, bank, rows[i].name) != e) {
			bad++;
			tap_diag("document's %s %u %s: no deprecated name of %s", rows[i].bank,
			         rows[i].index, rows[i].name, kmh_str(&kmh_table_v2, e->name));
		}
	}
	tap_ok(n == 367 && bad == 0,
	       "the design document's %u rows: each the RTL's name or a deprecated name of it "
	       "(%u bad)",
	       n, bad);
	tap_is_u64(renamed, 1, "one row renamed since the document (frontend 23)");
	const struct kmh_event *e =
	    kmh_event_by_name(&kmh_table_v2, KMH_BANK_FRONTEND, "icache_miss_cnt");
	tap_ok(e && e->index == 23 &&
	           strcmp(kmh_str(&kmh_table_v2, e->name), "icache_miss_bubble") == 0,
	       "icache_miss_cnt is frontend 23, icache_miss_bubble");
}

/* shared/xiangshan/README.md's table of what some events count, by hand. */
static void test_rtl_facts(void)
{
	struct fact {
		int bank;
		unsigned index;
		enum kmh_rtl_counts rtl;
		unsigned same_as;
	} facts[64];
	unsigned nf = 0;
	facts[nf++] = (struct fact){KMH_BANK_FRONTEND, 6, KMH_RTL_SAME, 7};
	facts[nf++] = (struct fact){KMH_BANK_FRONTEND, 20, KMH_RTL_ZERO, 0};
	facts[nf++] = (struct fact){KMH_BANK_FRONTEND, 24, KMH_RTL_ZERO, 0};
	facts[nf++] = (struct fact){KMH_BANK_BACKEND, 43, KMH_RTL_ZERO, 0};
	for (unsigned i = 73; i <= 94; i++)        /* the IssueQueue*_full events */
		if (i != 77 && i != 81 && i != 85) /* issueQueue_enq_fire_cnt */
			facts[nf++] = (struct fact){KMH_BANK_BACKEND, i, KMH_RTL_INVERSE, 0};
	for (unsigned sl = 0; sl < 4; sl++) { /* 17 events a slice after noEvent */
		facts[nf++] = (struct fact){KMH_BANK_CACHE, 1 + 17 * sl + 1, KMH_RTL_SAME,
		                            1 + 17 * sl}; /* rd_refill = refill */
		facts[nf++] =
		    (struct fact){KMH_BANK_CACHE, 1 + 17 * sl + 2, KMH_RTL_ZERO, 0}; /* wr_refill */
	}
	facts[nf++] = (struct fact){KMH_BANK_CACHE, 68, KMH_RTL_UNDEFINED, 0};
	unsigned bad = 0, flagged = 0;
	for (unsigned i = 0; i < nf; i++) {
		const struct kmh_event *e =
		    kmh_event_by_index(&kmh_table_v2, facts[i].bank, facts[i].index);
		if (!e || e->rtl != facts[i].rtl ||
		    (facts[i].rtl == KMH_RTL_SAME && e->same_as != facts[i].same_as)) {
			bad++;
			tap_diag("%s:%u: table says %d (same as %u), the RTL %d (%u)",
			         kmh_table_v2.banks[facts[i].bank].name, facts[i].index,
			         e ? e->rtl : -1, e ? e->same_as : 0, facts[i].rtl,
			         facts[i].same_as);
		}
	}
	for (int b = 0; b < KMH_NR_BANKS; b++)
		for (unsigned i = 0; i < kmh_table_v2.banks[b].nr_events; i++)
			flagged += kmh_table_v2.banks[b].events[i].rtl != KMH_RTL_COUNTS;
	tap_ok(bad == 0, "the tables carry every RTL fact of shared/xiangshan (%u facts, %u bad)",
	       nf, bad);
	tap_is_u64(flagged, nf, "and no other event is flagged");
	unsigned noted = 0;
	for (unsigned i = 0; i < nf; i++) {
		char buf[256];
		noted +=
		    kmh_rtl_note(&kmh_table_v2,
		                 kmh_event_by_index(&kmh_table_v2, facts[i].bank, facts[i].index),
		                 buf, sizeof(buf)) != NULL;
	}
	tap_is_u64(noted, nf, "each flagged event has a note");
	/* the wiring an emulator of the RTL follows */
	tap_is_u64(kmh_event_wire(&kmh_table_v2, KMH_BANK_FRONTEND, 6), 7,
	           "frontend 6 reads index 7");
	tap_is_u64(kmh_event_wire(&kmh_table_v2, KMH_BANK_CACHE, 68), 0, "cache 68 reads nothing");
	tap_is_u64(kmh_event_wire(&kmh_table_v2, KMH_BANK_CACHE, 3), 0, "cache 3 reads 0");
	tap_is_u64(kmh_event_wire(&kmh_table_v2, KMH_BANK_CACHE, 5), 5, "cache 5 reads itself");
}

/* Every other name (the JSON's AliasOf) stands for a real row of its bank
 * and shares no name with one. */
static void test_name_aliases(void)
{
	unsigned bad = 0, names = 0, ready = 0;
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		const struct kmh_bank_desc *d = &kmh_table_v2.banks[b];
		for (unsigned i = 0; i < d->nr_names; i++) {
			const struct kmh_name_alias *na = &d->names[i];
			const struct kmh_event *e = kmh_event_by_index(&kmh_table_v2, b, na->index);
			names++;
			bool ok = e &&
			          strcmp(kmh_str(&kmh_table_v2, e->name),
			                 kmh_str(&kmh_table_v2, na->alias_of)) == 0 &&
			          kmh_str(&kmh_table_v2, na->brief)[0] &&
			          kmh_str(&kmh_table_v2, na->description)[0];
			for (unsigned j = 0; ok && j < d->nr_events; j++)
				ok = strcmp(kmh_str(&kmh_table_v2, d->events[j].name),
				            kmh_str(&kmh_table_v2, na->name)) != 0;
			struct kmh_encoding enc;
			struct hpm_diag err;
			ok = ok &&
			     kmh_encode(&kmh_table_v2, kmh_str(&kmh_table_v2, na->name), &enc,
			                &err) == 0 &&
			     enc.value == (na->index | KMH_MINH) && enc.bank == b;
			ready += strstr(kmh_str(&kmh_table_v2, na->name), "_ready") != NULL;
			bad += !ok;
		}
	}
	tap_ok(names > 0 && bad == 0, "%u other names each encode to their event (%u bad)", names,
	       bad);
	tap_is_u64(ready, 19, "each of the 19 IssueQueue*_full events has a _ready name");
	const struct kmh_alias *a =
	    kmh_alias_by_name(&kmh_table_v2, KMH_BANK_BACKEND, "IssueQueueLdu_ready");
	const struct kmh_alias *full =
	    kmh_alias_by_name(&kmh_table_v2, KMH_BANK_BACKEND, "IssueQueueLdu_full");
	tap_ok(a && full && a->code == full->code && a->alias_of &&
	           strcmp(kmh_str(&kmh_table_v2, a->alias_of), "IssueQueueLdu_full") == 0,
	       "IssueQueueLdu_ready is the same ADD as IssueQueueLdu_full");
}

static bool valid_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

static void test_validator(void)
{
	/* SPEC §1: the banks, their counters and names, in enum order */
	static const struct {
		const char *name;
		unsigned first, last;
	} spec[KMH_NR_BANKS] = {
	    {"frontend", 3, 10}, {"backend", 11, 18}, {"memblock", 19, 26}, {"cache", 27, 31}};
	unsigned covered = 0;
	for (unsigned b = 0; b < KMH_NR_BANKS; b++) {
		const struct kmh_bank_desc *d = &kmh_table_v2.banks[b];
		tap_ok(strcmp(d->name, spec[b].name) == 0 && d->first_counter == spec[b].first &&
		           d->last_counter == spec[b].last,
		       "bank %u is %s on mhpmcounter%u-%u (table: %s %u-%u)", b, spec[b].name,
		       spec[b].first, spec[b].last, d->name, d->first_counter, d->last_counter);
		for (unsigned c = d->first_counter; c <= d->last_counter; c++)
			covered++;
		unsigned bad_name = 0, bad_desc = 0, bad_idx = 0, dup_name = 0;
		for (unsigned i = 0; i < d->nr_events; i++) {
			const struct kmh_event *e = &d->events[i];
			bad_name += !valid_name(kmh_str(&kmh_table_v2, e->name));
			bad_desc +=
			    !kmh_str(&kmh_table_v2, e->brief)[0] ||
			    !kmh_str(&kmh_table_v2, e->description)[0] ||
			    kmh_str(&kmh_table_v2,
			            e->brief)[strlen(kmh_str(&kmh_table_v2, e->brief)) - 1] == ' ';
			bad_idx += e->index != i || e->bank != b || e->index > KMH_EVENT_MASK;
			for (unsigned j = 0; j < i; j++)
				dup_name += strcmp(kmh_str(&kmh_table_v2, d->events[j].name),
				                   kmh_str(&kmh_table_v2, e->name)) == 0;
			for (unsigned j = 0; j < d->nr_aliases; j++)
				dup_name += strcmp(kmh_str(&kmh_table_v2, d->aliases[j].name),
				                   kmh_str(&kmh_table_v2, e->name)) == 0;
		}
		tap_ok(strcmp(kmh_str(&kmh_table_v2, d->events[0].name), "noEvent") == 0,
		       "%s: index 0 is noEvent", d->name);
		tap_ok(bad_name == 0, "%s: every name is an identifier (%u bad)", d->name,
		       bad_name);
		tap_ok(bad_desc == 0, "%s: every event has descriptions (%u bad)", d->name,
		       bad_desc);
		tap_ok(bad_idx == 0, "%s: indices are dense, in range and unique (%u bad)", d->name,
		       bad_idx);
		tap_ok(dup_name == 0, "%s: no name is used twice (%u)", d->name, dup_name);
		unsigned bad_alias = 0;
		for (unsigned j = 0; j < d->nr_aliases; j++) {
			const struct kmh_alias *a = &d->aliases[j];
			/* hand-computed layout: EVENTn at 10n, ADD = 4 at OP_TYPE0 (40),
			 * OP_TYPE1 (45) for four, OP_TYPE2 (50) for three or four */
			uint64_t want = (UINT64_C(4) << 40);
			for (unsigned k = 0; k < a->nr; k++)
				want |= (uint64_t)a->index[k] << (10 * k);
			if (a->nr == 4)
				want |= UINT64_C(4) << 45;
			if (a->nr >= 3)
				want |= UINT64_C(4) << 50;
			bool ok = a->code == want && a->nr >= 2 && a->nr <= 4 &&
			          kmh_str(&kmh_table_v2, a->brief)[0];
			for (unsigned k = 0; ok && k < a->nr; k++) {
				char inst[128];
				/* another name of an alias keeps that alias's instances */
				snprintf(inst, sizeof(inst), "%s.%u",
				         a->alias_of ? kmh_str(&kmh_table_v2, a->alias_of)
				                     : kmh_str(&kmh_table_v2, a->name),
				         k);
				const struct kmh_event *e =
				    kmh_event_by_index(&kmh_table_v2, (int)b, a->index[k]);
				ok = e && strcmp(kmh_str(&kmh_table_v2, e->name), inst) == 0 &&
				     (k == 0 || a->index[k] > a->index[k - 1]);
			}
			bad_alias += !ok;
			/* encoding the alias name gives its EventCode with the default MINH */
			struct kmh_encoding enc;
			struct hpm_diag err;
			char q[160];
			snprintf(q, sizeof(q), "%s:%s", d->name, kmh_str(&kmh_table_v2, a->name));
			if (kmh_encode(&kmh_table_v2, q, &enc, &err) != 0 ||
			    enc.value != (want | KMH_MINH))
				bad_alias++;
		}
		tap_ok(bad_alias == 0, "%s: %u aliases are the ADD of their instances (%u bad)",
		       d->name, d->nr_aliases, bad_alias);
	}
	tap_ok(covered == KMH_NR_COUNTERS, "the banks cover the 29 counters (%u)", covered);
	for (unsigned c = 0; c < 40; c++) {
		int want = c < 3 || c > 31 ? KMH_BANK_NONE
		           : c <= 10       ? 0
		           : c <= 18       ? 1
		           : c <= 26       ? 2
		                           : 3;
		if (kmh_bank_of_counter(&kmh_table_v2, c) != want) {
			tap_ok(false, "counter %u is in bank %d", c, want);
			return;
		}
	}
	tap_ok(true, "kmh_bank_of_counter maps counters 0-39 as SPEC §1");
}

int main(void)
{
	const char *srcdir = getenv("top_srcdir");
	const char *seeds = getenv("HPM_SEEDS");
	char path[4096], orig[4096];
	snprintf(path, sizeof(path), "%s/tests/data/kunminghu-v2-0f639b5a-events.tsv",
	         srcdir ? srcdir : ".");
	test_against_tsv(&kmh_table_v2, path, 367);
	if (seeds) {
		snprintf(orig, sizeof(orig), "%s/../xiangshan/kunminghu-v2-0f639b5a-events.tsv",
		         seeds);
		FILE *f = fopen(orig, "r");
		if (f) {
			fclose(f);
			tap_ok(same_file(path, orig), "tests/data copy equals %s", orig);
		} else {
			tap_skip("shared/xiangshan is not beside the tree");
		}
	}
	/* kunminghu-v3 at afe3818: 26 + 70 + 142 + 69 rows */
	snprintf(path, sizeof(path), "%s/tests/data/kunminghu-v3-afe3818-events.tsv",
	         srcdir ? srcdir : ".");
	test_against_tsv(&kmh_table_v3, path, 307);
	if (seeds) {
		snprintf(orig, sizeof(orig), "%s/../xiangshan/kunminghu-v3-afe3818-events.tsv",
		         seeds);
		FILE *f = fopen(orig, "r");
		if (f) {
			fclose(f);
			tap_ok(same_file(path, orig), "tests/data copy equals %s", orig);
		} else {
			tap_skip("shared/xiangshan is not beside the tree");
		}
	}
	tap_ok(strcmp(kmh_table_v2.name, "kunminghu-v2") == 0 &&
	           strcmp(kmh_table_v3.name, "kunminghu-v3") == 0,
	       "the tables are named kunminghu-v2 and kunminghu-v3");
	/* detection cannot tell v3 from v2 (marchid 0x19, mimpid 0 on both) */
	tap_ok(kmh_mapfile_match(&kmh_table_v2, "0x0-0x19-0x0") != NULL &&
	           kmh_mapfile_match(&kmh_table_v3, "0x0-0x19-0x0") == NULL,
	       "0x0-0x19-0x0 chooses kunminghu-v2's table, never kunminghu-v3's");
	snprintf(path, sizeof(path), "%s/tests/data/kunminghu-events.tsv", srcdir ? srcdir : ".");
	test_document_names(path);
	if (seeds) {
		snprintf(orig, sizeof(orig), "%s/kunminghu-events.tsv", seeds);
		FILE *f = fopen(orig, "r");
		if (f) {
			fclose(f);
			tap_ok(same_file(path, orig), "tests/data copy equals %s", orig);
		} else {
			tap_skip("shared/seeds is not beside the tree");
		}
	}
	test_rtl_facts();
	test_name_aliases();
	test_validator();
	/* mapfile.csv: XiangShan is mvendorid 0, marchid 25 (the RISC-V marchid
	 * registry); any mimpid */
	tap_ok(kmh_mapfile_match(&kmh_table_v2, "0x0-0x19-0x0") != NULL,
	       "0x0-0x19-0x0 is Kunminghu");
	tap_ok(kmh_mapfile_match(&kmh_table_v2, "0x0-0x19-0x4b4d48") != NULL, "any mimpid matches");
	tap_ok(kmh_mapfile_match(&kmh_table_v2, "0x489-0x8000000000000007-0x0") == NULL,
	       "SiFive U74 is not");
	tap_ok(kmh_mapfile_match(&kmh_table_v2, "x0x0-0x19-0x0") == NULL, "the match is anchored");
	const struct kmh_mapfile_row *r = kmh_mapfile_match(&kmh_table_v2, "0x0-0x19-0x1");
	tap_is_str(r ? r->path : NULL, "openxiangshan/kunminghu",
	           "the row names the event directory");
	return tap_done();
}
