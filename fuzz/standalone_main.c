/* Replays files or folders of inputs through a libFuzzer entry point, so the
 * harnesses run in CI without libFuzzer (Wireshark's StandaloneFuzzTargetMain idea). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path, unsigned long *count) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); return 1; }
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? cap * 2 : 65536;
      uint8_t *nb = realloc(buf, cap);
      if (!nb) { free(buf); fclose(f); return 1; }
      buf = nb;
    }
    size_t n = fread(buf + len, 1, cap - len, f);
    if (n == 0) break;
    len += n;
  }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  (*count)++;
  return 0;
}

static int run_path(const char *path, unsigned long *count) {
  struct stat st;
  if (stat(path, &st) != 0) { perror(path); return 1; }
  if (!S_ISDIR(st.st_mode)) return run_file(path, count);
  DIR *d = opendir(path);
  if (!d) { perror(path); return 1; }
  int rc = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    rc |= run_path(sub, count);
  }
  closedir(d);
  return rc;
}

int main(int argc, char **argv) {
  unsigned long count = 0;
  int rc = 0;
  for (int i = 1; i < argc; i++) rc |= run_path(argv[i], &count);
  printf("%s: replayed %lu inputs\n", argv[0], count);
  return rc || count == 0;
}
