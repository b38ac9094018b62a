/* One-line editor (lineedit.h). */
#include "lineedit.h"

#include <stdio.h>
#include <string.h>

void tui_line_start(struct tui_line *l, const char *text, size_t cap) {
  memset(l, 0, sizeof *l);
  l->max = cap && cap <= sizeof l->buf ? cap - 1 : sizeof l->buf - 1;
  snprintf(l->buf, l->max + 1, "%s", text);
  l->len = l->cur = strlen(l->buf);
  l->selected = l->len > 0;
}

/* Removes buf[from, to) and keeps it for Ctrl-Y. */
static void cut(struct tui_line *l, size_t from, size_t to) {
  if (to <= from) return;
  snprintf(l->kill, sizeof l->kill, "%.*s", (int)(to - from), l->buf + from);
  memmove(l->buf + from, l->buf + to, l->len - to + 1);
  l->len -= to - from;
  l->cur = from;
}

static void insert(struct tui_line *l, const char *s, size_t n) {
  if (n > l->max - l->len) n = l->max - l->len;
  memmove(l->buf + l->cur + n, l->buf + l->cur, l->len - l->cur + 1);
  memcpy(l->buf + l->cur, s, n);
  l->len += n;
  l->cur += n;
}

static bool space(char c) { return c == ' ' || c == '\t'; }

static size_t word_left(const struct tui_line *l) {
  size_t i = l->cur;
  while (i > 0 && space(l->buf[i - 1])) i--;
  while (i > 0 && !space(l->buf[i - 1])) i--;
  return i;
}

static size_t word_right(const struct tui_line *l) {
  size_t i = l->cur;
  while (i < l->len && space(l->buf[i])) i++;
  while (i < l->len && !space(l->buf[i])) i++;
  return i;
}

enum tui_lresult tui_line_key(struct tui_line *l, enum tui_lkey key, int ch) {
  if (l->selected) {
    l->selected = false;
    switch (key) {
    case TUI_LK_CHAR: case TUI_LK_BACKSPACE: case TUI_LK_DELETE: case TUI_LK_KILL_START:
    case TUI_LK_KILL_WORD:
      cut(l, 0, l->len);     /* replaces the selected text */
      if (key == TUI_LK_BACKSPACE || key == TUI_LK_DELETE || key == TUI_LK_KILL_START || key == TUI_LK_KILL_WORD)
        return TUI_LR_EDITING;
      break;
    case TUI_LK_IGNORE:
      l->selected = true;
      return TUI_LR_EDITING;
    default:
      break;
    }
  }
  switch (key) {
  case TUI_LK_CHAR:
    if (ch >= 32 && ch < 127) {
      char c = (char)ch;
      insert(l, &c, 1);
    }
    break;
  case TUI_LK_ENTER: return TUI_LR_ACCEPT;
  case TUI_LK_CANCEL: return TUI_LR_CANCEL;
  case TUI_LK_BACKSPACE: if (l->cur) cut(l, l->cur - 1, l->cur); break;
  case TUI_LK_DELETE: if (l->cur < l->len) cut(l, l->cur, l->cur + 1); break;
  case TUI_LK_LEFT: if (l->cur) l->cur--; break;
  case TUI_LK_RIGHT: if (l->cur < l->len) l->cur++; break;
  case TUI_LK_HOME: l->cur = 0; break;
  case TUI_LK_END: l->cur = l->len; break;
  case TUI_LK_WORD_LEFT: l->cur = word_left(l); break;
  case TUI_LK_WORD_RIGHT: l->cur = word_right(l); break;
  case TUI_LK_KILL_START: cut(l, 0, l->cur); break;
  case TUI_LK_KILL_END: cut(l, l->cur, l->len); break;
  case TUI_LK_KILL_WORD: cut(l, word_left(l), l->cur); break;
  case TUI_LK_YANK: {
    char k[sizeof l->kill];
    memcpy(k, l->kill, sizeof k);
    insert(l, k, strlen(k));
    break;
  }
  case TUI_LK_IGNORE: break;
  }
  return TUI_LR_EDITING;
}
