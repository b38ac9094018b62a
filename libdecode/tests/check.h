/* Minimal test helpers: failures are counted and printed, main returns non-zero. */
#ifndef UAL_TEST_CHECK_H
#define UAL_TEST_CHECK_H

#include <stdio.h>
#include <stdint.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond) do { check_count++; if (!(cond)) { check_failures++; \
  fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ(a, b) do { check_count++; unsigned long long a_ = (unsigned long long)(a), \
  b_ = (unsigned long long)(b); if (a_ != b_) { check_failures++; \
  fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (0x%llx != 0x%llx)\n", \
          __FILE__, __LINE__, #a, #b, a_, b_); } } while (0)
#define CHECK_MEM(a, b, n) do { check_count++; if (memcmp((a), (b), (n)) != 0) { \
  check_failures++; fprintf(stderr, "%s:%d: CHECK_MEM failed: %s vs %s\n", \
  __FILE__, __LINE__, #a, #b); } } while (0)
#define CHECK_STR(a, b) do { check_count++; const char *a_ = (a), *b_ = (b); \
  if (!a_ || !b_ || strcmp(a_, b_) != 0) { check_failures++; \
  fprintf(stderr, "%s:%d: CHECK_STR failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
          a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } } while (0)

static inline int check_done(const char *name) {
  printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
  return check_failures ? 1 : 0;
}

/* Deterministic xorshift64* for reproducible random tests. */
static inline uint64_t check_rand(uint64_t *s) {
  uint64_t x = *s; x ^= x >> 12; x ^= x << 25; x ^= x >> 27; *s = x;
  return x * 0x2545F4914F6CDD1DULL;
}

#endif
