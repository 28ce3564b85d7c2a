/* NVIDIA's tools as child processes (nvtools.h).  Each runs in a process
 * group of its own: a signal that ends ptxlink ends it too.  A SIGINT or
 * SIGTERM sent to ptxlink alone (by a build tool, a timeout, kill) once
 * left ptxas running, writing into a directory being removed. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "nvtools.h"

/* The signals the command's handler catches: a tool starts with them
 * blocked until its pid is known, and with their default actions. */
static const int fatal_sigs[] = {SIGINT, SIGTERM, SIGHUP};

/* SIGKILL to the tool's whole group: its only work is in a directory
 * its caller removes next, and a tool that ignored a gentler signal
 * would keep ptxlink waiting. */
void nv_kill(volatile pid_t *running)
{
	pid_t pid = *running;
	if (pid > 0) {
		kill(-pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		*running = 0;
	}
}

char *nv_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

char *nv_path_ext(const char *dir, const char *name, const char *ext)
{
	size_t n = strlen(name) + strlen(ext) + 1;
	char *file = xmalloc(n), *p;
	snprintf(file, n, "%s%s", name, ext);
	p = nv_path(dir, file);
	free(file);
	return p;
}

static int executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static const char *cuda_root(void)
{
	const char *r = getenv("CUDA_HOME");
	if (!r || !*r)
		r = getenv("CUDA_PATH");
	return r && *r ? r : "/usr/local/cuda";
}

char *nv_find(const char *name)
{
	if (strchr(name, '/')) {   /* a path given (-ccbin /usr/bin/g++) */
		if (executable(name))
			return xstrdup(name);
		fprintf(stderr, "ptxlink: error: cannot run %s: not an executable file\n", name);
		return NULL;
	}
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "");
	for (char *save, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *p = nv_path(*d ? d : ".", name);
		if (executable(p)) {
			free(copy);
			return p;
		}
		free(p);
	}
	free(copy);
	char *bin = nv_path(cuda_root(), "bin");
	char *p = nv_path(bin, name);
	free(bin);
	if (executable(p))
		return p;
	fprintf(stderr, "ptxlink: error: cannot find %s: not on PATH, not in %s/bin "
		"(set CUDA_HOME to the CUDA installation)\n", name, cuda_root());
	free(p);
	return NULL;
}

/* Passes the tool's output on, a line at a time, with its context. */
static void relay(FILE *from, const char *tool)
{
	char line[4096];
	int start = 1;
	while (fgets(line, sizeof line, from)) {
		if (start)
			fprintf(stderr, "ptxlink: %s: ", tool);
		fputs(line, stderr);
		start = strchr(line, '\n') != NULL;
	}
	if (!start)
		fputc('\n', stderr);
}

static void child(const NvRun *r, int out, const char *exe, char *const *argv, const sigset_t *mask)
{
	setpgid(0, 0);
	for (size_t i = 0; i < sizeof fatal_sigs / sizeof *fatal_sigs; i++)
		signal(fatal_sigs[i], SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	dup2(out, 1);
	dup2(out, 2);
	close(out);
	if (chdir(r->dir) == 0)
		execv(exe, argv);
	fprintf(stderr, "cannot run %s: %s\n", exe, strerror(errno));
	_exit(127);
}

/* 0 if the tool exited 0, else -1 after saying how it ended. */
static int exit_status(const char *tool, pid_t pid, int status)
{
	if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (pid < 0)
		fprintf(stderr, "ptxlink: error: cannot run %s: %s\n", tool, strerror(errno));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "ptxlink: error: %s killed by signal %d\n", tool, WTERMSIG(status));
	else
		fprintf(stderr, "ptxlink: error: %s failed (exit status %d)%s\n", tool, WEXITSTATUS(status),
			!strcmp(tool, "ptxas") ? " on the linked PTX (ptxlink without --ptxas writes it)" : "");
	return -1;
}

/* The tool's output into *captured, or relayed. */
static void take_output(FILE *from, const char *tool, char **captured)
{
	if (!captured) {
		relay(from, tool);
		return;
	}
	size_t len;
	FILE *to = xmemstream(captured, &len);
	for (int c; (c = getc(from)) != EOF;)
		putc(c, to);
	fclose(to);
}

pid_t nv_fork(sigset_t *old)
{
	fflush(NULL);
	sigset_t block;
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof fatal_sigs / sizeof *fatal_sigs; i++)
		sigaddset(&block, fatal_sigs[i]);
	sigprocmask(SIG_BLOCK, &block, old);
	return fork();
}

/* Forks with the fatal signals blocked until the child's pid is kept. */
static pid_t start(const NvRun *r, const char *exe, char *const *argv, int fds[2])
{
	sigset_t old;
	pid_t pid = nv_fork(&old);
	if (pid == 0)
		child(r, fds[1], exe, argv, &old);
	int err = errno;
	if (pid > 0) {
		setpgid(pid, pid);   /* as the child does: whichever runs first */
		if (r->running)
			*r->running = pid;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return pid;
}

static int spawn(const NvRun *r, const char *exe, const char *tool, char *const *argv,
	char **captured)
{
	int fds[2];
	if (pipe(fds) != 0) {
		fprintf(stderr, "ptxlink: error: cannot run %s: %s\n", tool, strerror(errno));
		return -1;
	}
	pid_t pid = start(r, exe, argv, fds);
	int err = errno;
	close(fds[1]);
	FILE *from = fdopen(fds[0], "r");
	if (pid > 0 && from)
		take_output(from, tool, captured);
	if (from)
		fclose(from);
	else
		close(fds[0]);
	int status = 0;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (r->running)
		*r->running = 0;
	errno = err;
	if (captured)
		return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
	return exit_status(tool, pid, status);
}

double nv_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *nv_cuda_path(const char *tool, const char *sub)
{
	char *exe = nv_find(tool);
	char *slash = exe ? strrchr(exe, '/') : NULL;
	if (slash)
		*slash = 0;
	slash = exe ? strrchr(exe, '/') : NULL;
	if (!slash) {
		free(exe);
		return NULL;
	}
	*slash = 0;
	char *p = nv_path(exe, sub);
	free(exe);
	return p;
}

int nv_run(const NvRun *r, const char *const *argv, char **captured)
{
	const char *tool = argv[0];
	char *exe = nv_find(tool);
	if (!exe)
		return -1;
	if (r->verbose) {
		fprintf(stderr, "ptxlink: running");
		for (int i = 0; argv[i]; i++)
			fprintf(stderr, " %s", i ? argv[i] : exe);
		fprintf(stderr, " (in %s)\n", r->dir);
	}
	double t = nv_seconds();
	int rc = spawn(r, exe, tool, (char *const *)argv, captured);
	if (r->timed)
		r->timed(tool, (nv_seconds() - t) * 1e3);
	free(exe);
	return rc;
}
