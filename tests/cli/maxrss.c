/* maxrss: runs a command and writes its peak resident set size (KiB) to a
 * file; exits with the command's status (128 + signal when killed).
 *
 *   maxrss OUTFILE CMD [ARG...]
 *
 * Linux keeps the peak from before execve in ru_maxrss, so a command started
 * straight from Python would start at Python's size; from here it starts at
 * this small program's. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: maxrss OUTFILE CMD [ARG...]\n");
    return 125;
  }
  pid_t pid = fork();
  if (pid < 0) return 125;
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    perror(argv[2]);
    _exit(127);
  }
  int st;
  struct rusage ru;
  if (wait4(pid, &st, 0, &ru) != pid) return 125;
  FILE *fp = fopen(argv[1], "w");
  if (!fp || fprintf(fp, "%ld\n", ru.ru_maxrss) < 0 || fclose(fp) != 0) return 125;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
