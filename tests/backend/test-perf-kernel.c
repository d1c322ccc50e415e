/* test-perf-kernel.c: the perf back end against this machine's kernel, no
 * mocks: software events of a child that touches a known number of pages
 * (enable_on_exec: what it does before exec is not counted), groups read
 * with PERF_FORMAT_GROUP, -p of a running process, enable/disable, CPU-wide
 * cpu-clock on CPU 0, <not supported> for hardware events this VM lacks,
 * and the real errors (ESRCH, EMFILE, EACCES as an unprivileged user).
 *
 * The same binary is the workload: `test-perf-kernel --touch N` maps N pages
 * and writes one byte to each.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend/perf.h"
#include "fake.h"
#include "kmh/perf-attr.h"
#include "tap.h"

#define PAGES    4000
#define PRE_EXEC 1500 /* touched before exec: must not be counted */
#define SLACK    150  /* run-to-run noise of the loader's faults (ASLR) */

static const char *self_exe;

/* Not instrumented, and mmap by system call: under ASan each write (and
 * its mmap interceptor) would also fault in shadow pages. */
__attribute__((no_sanitize_address)) static void touch(long pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(pages ? pages * psz : psz);
	long p = syscall(SYS_mmap, NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	                 -1, 0);
	if (p == -1)
		_exit(3);
	for (long i = 0; i < pages; i++)
		((volatile char *)p)[i * psz] = 1;
	syscall(SYS_munmap, p, len);
}

static int count_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* A child stopped before exec: it waits for a byte on the pipe, touches
 * PRE_EXEC pages, then execs `self --touch PAGES`. */
struct child {
	pid_t pid;
	int go;
};

static struct child spawn(bool do_exec, long pages)
{
	int fds[2];
	struct child c = {-1, -1};
	if (pipe(fds))
		return c;
	c.pid = fork();
	if (c.pid == 0) {
		char b;
		close(fds[1]);
		if (read(fds[0], &b, 1) != 1)
			_exit(4);
		close(fds[0]);
		if (!do_exec) {
			touch(pages);
			_exit(0);
		}
		touch(PRE_EXEC);
		char n[32];
		snprintf(n, sizeof(n), "%ld", pages);
		execl(self_exe, self_exe, "--touch", n, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	c.go = fds[1];
	return c;
}

static int run_child(struct child *c)
{
	int st = -1;
	if (write(c->go, "g", 1) != 1)
		return -1;
	close(c->go);
	waitpid(c->pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool no_cpu_pmu(void)
{
	struct stat st;
	return stat("/sys/bus/event_source/devices/cpu", &st) != 0;
}

/* Page faults of `self --touch pages` counted from exec: the loader's and
 * libc's (and ASan's) start-up plus the pages. */
static long exec_faults(long pages)
{
	struct hpm_evlist l;
	struct hpm_backend_inst *inst = NULL;
	fake_list_init(&l);
	struct hpm_evsel *pf = fake_add_host(&l, "page-faults", -1);
	struct child c = spawn(true, pages);
	struct hpm_target t = {.pid = c.pid, .enable_on_exec = true, .inherit = true};
	char err[600];
	long v = -1;
	if (hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err)) == 0) {
		run_child(&c);
		if (hpm_backend_perf.read(inst, err, sizeof(err)) == 0)
			v = (long)pf->counts[0].val;
		hpm_backend_perf.close(inst);
	}
	fake_list_free(&l);
	return v;
}

static long base_faults;

static void test_child(void)
{
	struct hpm_evlist l;
	struct hpm_backend_inst *inst = NULL;
	fake_list_init(&l);
	struct hpm_evsel *tc = fake_add_host(&l, "task-clock", -1);
	struct hpm_evsel *pf = fake_add_host(&l, "page-faults", -1);
	struct hpm_evsel *cs = fake_add_host(&l, "context-switches", -1);
	struct hpm_evsel *cy = fake_add_host(&l, "cycles", -1);
	struct hpm_evsel *mf = fake_add_host(&l, "minor-faults:u", -1);
	int fds0 = count_fds();

	struct child c = spawn(true, PAGES);
	struct hpm_target t = {.pid = c.pid, .enable_on_exec = true, .inherit = true};
	struct hpm_perf_cfg cfg = {0};
	char err[600] = "";
	int rc = hpm_backend_perf.open(&l, NULL, 0, &t, &cfg, &inst, err, sizeof(err));
	tap_ok(rc == 0, "open task-clock, page-faults, context-switches, cycles for a child (%s)",
	       err);
	tap_ok(inst->nr_units == 1 && inst->unit_names && strcmp(inst->unit_names[0], "task") == 0,
	       "one unit for a task");
	tap_ok(hpm_backend_perf.enable(inst, err, sizeof(err)) == 0,
	       "enable (a no-op: the kernel enables at exec)");
	int st = run_child(&c);
	tap_ok(st == 0, "the child ran (exit %d)", st);
	rc = hpm_backend_perf.read(inst, err, sizeof(err));
	tap_ok(rc == 0, "read (%s)", err);

	uint64_t faults = pf->counts[0].val;
	tap_ok(pf->state == HPM_EV_OK && faults >= PAGES, "page-faults %llu >= %d",
	       (unsigned long long)faults, PAGES);
	base_faults = exec_faults(0);
	tap_ok(base_faults > 0, "the same program touching no page: %ld page-faults", base_faults);
	long extra = (long)faults - base_faults;
	tap_ok(extra >= PAGES - SLACK && extra <= PAGES + SLACK,
	       "%ld page-faults more for %d pages (the %d before exec not counted)", extra, PAGES,
	       PRE_EXEC);
	tap_ok(mf->state == HPM_EV_OK && mf->counts[0].val >= PAGES && mf->counts[0].val <= faults,
	       "minor-faults:u %llu: the pages, at most page-faults",
	       (unsigned long long)mf->counts[0].val);
	tap_ok(tc->state == HPM_EV_OK && tc->counts[0].val > 0 && strcmp(tc->unit, "msec") == 0 &&
	           tc->scale == 1e-6,
	       "task-clock %.3f msec", (double)tc->counts[0].val * 1e-6);
	tap_ok(tc->counts[0].ena > 0 && tc->counts[0].ena == tc->counts[0].run,
	       "task-clock: enabled == running (software events do not multiplex)");
	tap_ok(cs->state == HPM_EV_OK, "context-switches counted (%llu)",
	       (unsigned long long)cs->counts[0].val);
	if (no_cpu_pmu())
		tap_ok(cy->state == HPM_EV_NOT_SUPPORTED && cy->placement &&
		           strstr(cy->placement, "not supported"),
		       "cycles on a VM without a PMU: <not supported>, not an error (%s)",
		       cy->placement ? cy->placement : "");
	else
		tap_ok(cy->state == HPM_EV_OK || cy->state == HPM_EV_NOT_SUPPORTED,
		       "cycles: counted or <not supported>");
	tap_ok(pf->placement && strstr(pf->placement, "perf type 1 config 0x2 on pid"),
	       "placement: %s", pf->placement ? pf->placement : "");
	tap_ok(pf->attr_type == 1 && pf->attr_config == 2 && pf->exclude_guest,
	       "the evsel's attr fields are filled");
	hpm_backend_perf.close(inst);
	tap_ok(count_fds() == fds0, "close closes every fd");
	tap_ok(pf->counts && pf->counts[0].val == faults, "counts stay readable after close");
	fake_list_free(&l);
}

static void test_group(void)
{
	struct hpm_evlist l;
	struct hpm_backend_inst *inst = NULL;
	fake_list_init(&l);
	struct hpm_evsel *e[3] = {fake_add_host(&l, "task-clock", 0),
	                          fake_add_host(&l, "page-faults", 0),
	                          fake_add_host(&l, "context-switches", 0)};
	struct hpm_evsel *solo = fake_add_host(&l, "page-faults:u", -1);
	struct child c = spawn(true, PAGES);
	struct hpm_target t = {.pid = c.pid, .enable_on_exec = true, .inherit = true};
	char err[600] = "";
	int rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	tap_ok(rc == 0, "open the group {task-clock,page-faults,context-switches} (%s)", err);
	run_child(&c);
	rc = hpm_backend_perf.read(inst, err, sizeof(err));
	tap_ok(rc == 0, "read the group with PERF_FORMAT_GROUP (%s)", err);
	tap_ok(e[0]->counts[0].ena > 0 && e[0]->counts[0].ena == e[1]->counts[0].ena &&
	           e[1]->counts[0].ena == e[2]->counts[0].ena &&
	           e[0]->counts[0].run == e[1]->counts[0].run &&
	           e[1]->counts[0].run == e[2]->counts[0].run,
	       "one enabled and one running time for the whole group (%llu/%llu)",
	       (unsigned long long)e[0]->counts[0].ena, (unsigned long long)e[0]->counts[0].run);
	long extra = (long)e[1]->counts[0].val - base_faults;
	tap_ok(e[1]->counts[0].val >= PAGES && extra >= PAGES - SLACK && extra <= PAGES + SLACK,
	       "group member page-faults %llu", (unsigned long long)e[1]->counts[0].val);
	tap_ok(e[0]->counts[0].val > 0, "group leader task-clock %llu ns",
	       (unsigned long long)e[0]->counts[0].val);
	tap_ok(solo->counts[0].val >= PAGES && solo->counts[0].val <= e[1]->counts[0].val + 50,
	       "an ungrouped event alongside: page-faults:u %llu",
	       (unsigned long long)solo->counts[0].val);
	tap_ok(strstr(e[0]->placement, "group leader") &&
	           strstr(e[1]->placement, "in task-clock's group"),
	       "placement names the group: %s / %s", e[0]->placement, e[1]->placement);
	hpm_backend_perf.close(inst);
	fake_list_free(&l);

	/* a leader the kernel lacks: the next member leads */
	fake_list_init(&l);
	struct hpm_evsel *cy = fake_add_host(&l, "cycles", 1);
	struct hpm_evsel *tc = fake_add_host(&l, "task-clock", 1);
	struct hpm_evsel *pf = fake_add_host(&l, "page-faults", 1);
	c = spawn(true, PAGES);
	t.pid = c.pid;
	rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	run_child(&c);
	int rrc = hpm_backend_perf.read(inst, err, sizeof(err));
	if (no_cpu_pmu()) {
		tap_ok(rc == 0 && rrc == 0 && cy->state == HPM_EV_NOT_SUPPORTED,
		       "{cycles,task-clock,page-faults}: cycles <not supported>, the run goes on");
		tap_ok(tc->state == HPM_EV_OK && strstr(tc->placement, "group leader") &&
		           pf->counts[0].val >= PAGES && pf->counts[0].ena == tc->counts[0].ena,
		       "task-clock leads the rest of the group (page-faults %llu)",
		       (unsigned long long)pf->counts[0].val);
	} else {
		tap_skip("this host has a cpu PMU: cycles is supported");
		tap_skip("this host has a cpu PMU: cycles is supported");
	}
	hpm_backend_perf.close(inst);
	fake_list_free(&l);
}

static void busy_ms(int ms)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

static void test_enable_disable(void)
{
	struct hpm_evlist l;
	struct hpm_backend_inst *inst = NULL;
	fake_list_init(&l);
	struct hpm_evsel *tc = fake_add_host(&l, "task-clock", -1);
	struct hpm_target t = {.pid = -1, .inherit = false};
	char err[600] = "";
	int rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	tap_ok(rc == 0, "open task-clock on this process (%s)", err);
	hpm_backend_perf.read(inst, err, sizeof(err));
	tap_ok(tc->counts[0].val == 0 && tc->state == HPM_EV_NOT_COUNTED,
	       "opened disabled: nothing counted yet (<not counted>)");
	hpm_backend_perf.enable(inst, err, sizeof(err));
	busy_ms(30);
	hpm_backend_perf.disable(inst, err, sizeof(err));
	hpm_backend_perf.read(inst, err, sizeof(err));
	uint64_t v1 = tc->counts[0].val;
	/* a loaded VM steals time: only ask that a good part of it counted */
	tap_ok(tc->state == HPM_EV_OK && v1 >= 3000000 && v1 < 2000000000,
	       "30 ms busy while enabled: %.1f ms", (double)v1 * 1e-6);
	busy_ms(20);
	hpm_backend_perf.read(inst, err, sizeof(err));
	tap_ok(tc->counts[0].val == v1, "disabled: the count stands still");
	hpm_backend_perf.enable(inst, err, sizeof(err));
	busy_ms(20);
	hpm_backend_perf.read(inst, err, sizeof(err));
	tap_ok(tc->counts[0].val > v1 + 2000000, "enabled again: counting resumes (%.1f ms)",
	       (double)tc->counts[0].val * 1e-6);
	hpm_backend_perf.close(inst);
	fake_list_free(&l);
}

static void test_pid(void)
{
	/* -p of a running process (no exec): counted from enable() on */
	struct hpm_evlist l;
	struct hpm_backend_inst *inst = NULL;
	fake_list_init(&l);
	struct hpm_evsel *pf = fake_add_host(&l, "page-faults", -1);
	struct child c = spawn(false, 2500);
	struct hpm_target t = {.pid = c.pid, .inherit = true};
	char err[600] = "";
	int rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	tap_ok(rc == 0, "open -p %d (%s)", c.pid, err);
	hpm_backend_perf.enable(inst, err, sizeof(err));
	run_child(&c);
	hpm_backend_perf.read(inst, err, sizeof(err));
	tap_ok(pf->counts[0].val >= 2500 && pf->counts[0].val < 2500 + SLACK,
	       "-p: page-faults %llu for 2500 pages touched",
	       (unsigned long long)pf->counts[0].val);
	hpm_backend_perf.close(inst);

	/* the pid is gone now */
	t.pid = c.pid;
	rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	tap_ok(rc == -ESRCH && strstr(err, "no such process"), "-p of a dead process: %s", err);
	fake_list_free(&l);
}

/* A child with 3 more threads; once all exist it says so on `ready`, then
 * waits for `go`; each thread (and the main one) touches 600 pages. */
static int thread_go = -1;

static void *thread_main(void *arg)
{
	(void)arg;
	char b;
	if (read(thread_go, &b, 1) == 1)
		touch(600);
	return NULL;
}

static pid_t spawn_threads(int *go_out, int *ready_out)
{
	int go[2], ready[2];
	if (pipe(go) || pipe(ready))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t th[3];
		close(go[1]);
		close(ready[0]);
		thread_go = go[0];
		for (int i = 0; i < 3; i++)
			pthread_create(&th[i], NULL, thread_main, NULL);
		if (write(ready[1], "r", 1) != 1)
			_exit(4);
		thread_main(NULL);
		for (int i = 0; i < 3; i++)
			pthread_join(th[i], NULL);
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	*go_out = go[1];
	*ready_out = ready[0];
	return pid;
}

static void test_threads(void)
{
	int go = -1, ready = -1;
	char b;
	pid_t pid = spawn_threads(&go, &ready);
	if (read(ready, &b, 1) != 1) {
		tap_skip("threaded child did not start");
		return;
	}
	struct hpm_evlist l;
	struct hpm_backend_inst *inst = NULL;
	fake_list_init(&l);
	struct hpm_evsel *pf = fake_add_host(&l, "page-faults", 0);
	struct hpm_evsel *tc = fake_add_host(&l, "task-clock", 0);
	struct hpm_target t = {.pid = pid, .inherit = true};
	char err[600] = "";
	int rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	tap_ok(rc == 0 && strstr(pf->placement, "(4 fds)"),
	       "-p of a 4-thread process: one fd per thread (%s)", rc ? err : pf->placement);
	hpm_backend_perf.enable(inst, err, sizeof(err));
	if (write(go, "gggg", 4) != 4)
		tap_diag("write go");
	close(go);
	close(ready);
	waitpid(pid, NULL, 0);
	hpm_backend_perf.read(inst, err, sizeof(err));
	tap_ok(pf->counts[0].val >= 2400 && pf->counts[0].val < 2400 + SLACK,
	       "the threads' page-faults add up: %llu for 4 x 600 pages",
	       (unsigned long long)pf->counts[0].val);
	tap_ok(tc->counts[0].ena >= pf->counts[0].ena / 4 && tc->state == HPM_EV_OK,
	       "and their task-clock (%llu ns)", (unsigned long long)tc->counts[0].val);
	hpm_backend_perf.close(inst);
	fake_list_free(&l);
}

static void test_cpu(void)
{
	struct hpm_evlist l;
	struct hpm_backend_inst *inst = NULL;
	fake_list_init(&l);
	struct hpm_evsel *cc = fake_add_host(&l, "cpu-clock", -1);
	struct hpm_target t = {.pid = -1, .cpu_list = "0", .inherit = true};
	char err[600] = "";
	int rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	if (rc == -EACCES || rc == -EPERM) {
		tap_skip("CPU-wide counting is not permitted here");
		tap_diag("%s", err);
		fake_list_free(&l);
		return;
	}
	tap_ok(rc == 0, "open cpu-clock -C 0 (%s)", err);
	tap_ok(inst->nr_units == 1 && strcmp(inst->unit_names[0], "CPU0") == 0, "one unit: CPU0");
	hpm_backend_perf.enable(inst, err, sizeof(err));
	struct timespec ts = {0, 100 * 1000 * 1000};
	nanosleep(&ts, NULL);
	hpm_backend_perf.disable(inst, err, sizeof(err));
	rc = hpm_backend_perf.read(inst, err, sizeof(err));
	tap_ok(rc == 0 && cc->state == HPM_EV_OK && cc->counts[0].val >= 50000000 &&
	           cc->counts[0].val < 5000000000,
	       "cpu-clock on CPU0 over 100 ms: %.1f msec", (double)cc->counts[0].val * 1e-6);
	tap_ok(strstr(cc->placement, "on CPU 0 (1 fd)"), "placement: %s", cc->placement);
	hpm_backend_perf.close(inst);

	/* -a: every online CPU */
	t.cpu_list = NULL;
	t.system_wide = true;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	tap_ok(rc == 0 && (long)inst->nr_units == n, "-a: one unit per online CPU (%u)",
	       inst->nr_units);
	hpm_backend_perf.enable(inst, err, sizeof(err));
	nanosleep(&ts, NULL);
	hpm_backend_perf.read(inst, err, sizeof(err));
	bool all = true;
	for (unsigned u = 0; u < inst->nr_units; u++)
		all = all && cc->counts[u].val > 5000000;
	tap_ok(all, "-a: every CPU's cpu-clock ran");
	hpm_backend_perf.close(inst);

	/* -C with a workload: the pid only bounds the run */
	t.system_wide = false;
	t.cpu_list = "0";
	t.pid = getpid();
	t.enable_on_exec = true;
	rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	tap_ok(rc == 0 && inst->nr_units == 1 && strcmp(inst->unit_names[0], "CPU0") == 0,
	       "-C 0 -- cmd: counted on CPU0, not per task");
	hpm_backend_perf.read(inst, err, sizeof(err));
	tap_ok(cc->state == HPM_EV_NOT_COUNTED,
	       "and opened disabled: enable_on_exec does not act on CPU events");
	hpm_backend_perf.enable(inst, err, sizeof(err));
	nanosleep(&ts, NULL);
	hpm_backend_perf.read(inst, err, sizeof(err));
	tap_ok(cc->state == HPM_EV_OK && cc->counts[0].val > 10000000,
	       "the first enable() starts it");
	hpm_backend_perf.close(inst);
	t.pid = -1;
	t.enable_on_exec = false;

	t.cpu_list = "0-1x";
	rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "bad CPU list '0-1x'"), "a bad -C list: %s", err);
	t.cpu_list = "4095";
	rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "CPU 4095 is not online"), "an offline CPU: %s", err);
	fake_list_free(&l);
}

static void test_emfile(void)
{
	struct hpm_evlist l;
	struct hpm_backend_inst *inst = NULL;
	fake_list_init(&l);
	for (int i = 0; i < 8; i++)
		fake_add_host(&l, "task-clock", -1);
	struct rlimit old, rl;
	getrlimit(RLIMIT_NOFILE, &old);
	rl = old;
	rl.rlim_cur = (rlim_t)count_fds() + 3;
	setrlimit(RLIMIT_NOFILE, &rl);
	struct hpm_target t = {.pid = -1};
	char err[600] = "";
	int fds0 = count_fds();
	int rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
	setrlimit(RLIMIT_NOFILE, &old);
	tap_ok(rc == -EMFILE && strstr(err, "ulimit -n"), "EMFILE: %s", err);
	tap_ok(count_fds() == fds0, "a failed open leaves no fd behind");
	fake_list_free(&l);
}

static void test_eacces(void)
{
	if (geteuid() != 0) {
		tap_skip("needs root to become an unprivileged user");
		return;
	}
	int fds[2];
	if (pipe(fds)) {
		tap_skip("pipe");
		return;
	}
	pid_t p = fork();
	if (p == 0) {
		close(fds[0]);
		if (setgid(65534) || setuid(65534))
			_exit(2);
		struct hpm_evlist l;
		struct hpm_backend_inst *inst = NULL;
		fake_list_init(&l);
		fake_add_host(&l, "cpu-clock", -1);
		struct hpm_target t = {.pid = -1, .system_wide = true};
		char err[600] = "";
		int rc = hpm_backend_perf.open(&l, NULL, 0, &t, NULL, &inst, err, sizeof(err));
		if (write(fds[1], err, strlen(err)) < 0)
			_exit(3);
		_exit(rc == -EACCES || rc == -EPERM ? 0 : rc == 0 ? 10 : 1);
	}
	close(fds[1]);
	char msg[600] = "";
	ssize_t n = read(fds[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	int st;
	waitpid(p, &st, 0);
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (code == 10)
		tap_skip("perf_event_paranoid lets anyone count CPU-wide here");
	else
		tap_ok(code == 0 && strstr(msg, "permission denied") &&
		           strstr(msg, "/proc/sys/kernel/perf_event_paranoid is"),
		       "EACCES as nobody, -a: %s", msg);
}

static void test_kmh(void)
{
	/* a fake Kunminghu sysfs on this machine's real kernel */
	char *r = fake_kunminghu("config:0-47", NULL);
	char sys[512], proc[512];
	snprintf(sys, sizeof(sys), "%s/sys", r);
	snprintf(proc, sizeof(proc), "%s/proc", r);
	setenv("HPMSTAT_SYSFS", sys, 1);
	setenv("HPMSTAT_PROCFS", proc, 1);
	struct hpm_evlist l;
	struct hpm_backend_inst *inst = NULL;
	fake_list_init(&l);
	struct hpm_evsel *k = fake_add_kmh(&l, "rob_commitInstr", -1);
	struct hpm_evsel *h = fake_add_host(&l, "task-clock", -1);
	struct hpm_target t = {.pid = -1};
	struct hpm_perf_cfg cfg = {0};
	char err[600] = "";
	int rc = hpm_backend_perf.open(&l, NULL, 0, &t, &cfg, &inst, err, sizeof(err));
	tap_ok(rc == 0 && cfg.nr_opened == 2,
	       "Kunminghu raw event opened on a fake Kunminghu sysfs (%s)", err);
	tap_ok(k->attr_type == 4 && k->attr_config == 0x35 && strstr(k->placement, "config 0x35"),
	       "raw type 4 config 0x35: %s", k->placement);
	if (no_cpu_pmu())
		tap_ok(k->state == HPM_EV_NOT_SUPPORTED, "no raw PMU on this VM: <not supported>");
	else
		tap_skip("this host has a cpu PMU: a raw 0x35 may count");
	tap_ok(cfg.warn && strcmp(cfg.warning, KMH_PERF_BANK_WARNING) == 0,
	       "the one-time bank warning is returned");
	tap_ok(h->state == HPM_EV_OK, "the host event next to it is fine");
	hpm_backend_perf.close(inst);
	fake_list_free(&l);

	int fds0 = count_fds();
	fake_list_init(&l);
	fake_add_host(&l, "task-clock", -1);
	fake_add_kmh(&l, "ifu_req & ifu_miss & itlb_miss", -1);
	rc = hpm_backend_perf.open(&l, NULL, 0, &t, &cfg, &inst, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "'ifu_req & ifu_miss & itlb_miss' needs OP_TYPE2"),
	       "open refuses OP_TYPE2 on a 48-bit kernel: %s", err);
	tap_ok(count_fds() == fds0 && l.ev[0].counted_by == NULL, "and opens nothing");
	fake_list_free(&l);
	unsetenv("HPMSTAT_SYSFS");
	unsetenv("HPMSTAT_PROCFS");
	fake_rm(r);

	/* no Kunminghu PMU (this host) */
	fake_list_init(&l);
	struct hpm_evsel *tc = fake_add_host(&l, "task-clock", -1);
	struct hpm_evsel *kk = fake_add_kmh(&l, "rob_commitInstr", -1);
	struct hpm_pmu none;
	memset(&none, 0, sizeof(none));
	struct hpm_perf_cfg c2 = {.pmu = &none};
	rc = hpm_backend_perf.open(&l, NULL, 0, &t, &c2, &inst, err, sizeof(err));
	tap_ok(rc != 0 &&
	           strcmp(err, "Kunminghu (kunminghu-v2) events need that "
	                       "PMU, and this host has none (use --backend emu or auto)") == 0,
	       "--backend perf without the PMU: %s", err);
	c2.leave_model = true;
	rc = hpm_backend_perf.open(&l, NULL, 0, &t, &c2, &inst, err, sizeof(err));
	tap_ok(rc == 0 && c2.nr_opened == 1 && tc->counts && kk->counts == NULL &&
	           kk->counted_by == NULL,
	       "leave_model: the Kunminghu event is left alone for the emulator");
	hpm_backend_perf.close(inst);
	fake_list_free(&l);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--touch") == 0) {
		touch(atol(argv[2]));
		return 0;
	}
	self_exe = "/proc/self/exe";
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n > 0) {
		path[n] = '\0';
		self_exe = path;
	}
	test_child();
	test_group();
	test_enable_disable();
	test_pid();
	test_threads();
	test_cpu();
	test_emfile();
	test_eacces();
	test_kmh();
	return tap_done();
}
