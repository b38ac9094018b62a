/* One-line editor for the TUI's prompts, with readline's keys. Plain C, no
 * terminal: the UI maps its keys to enum tui_lkey and draws buf. */
#ifndef UALINK_TUI_LINEEDIT_H
#define UALINK_TUI_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

enum tui_lkey {
  TUI_LK_CHAR,        /* insert ch */
  TUI_LK_ENTER,       /* accept */
  TUI_LK_CANCEL,      /* Esc, Ctrl-G: leave the line as it was */
  TUI_LK_BACKSPACE,   /* delete before the cursor (the whole line while it is selected) */
  TUI_LK_DELETE,      /* delete at the cursor, Ctrl-D */
  TUI_LK_LEFT, TUI_LK_RIGHT, TUI_LK_HOME, TUI_LK_END, /* also Ctrl-B, Ctrl-F, Ctrl-A, Ctrl-E */
  TUI_LK_WORD_LEFT, TUI_LK_WORD_RIGHT,                /* Alt-B, Alt-F */
  TUI_LK_KILL_START,  /* Ctrl-U: delete from the start to the cursor */
  TUI_LK_KILL_END,    /* Ctrl-K: delete from the cursor to the end */
  TUI_LK_KILL_WORD,   /* Ctrl-W: delete the word before the cursor */
  TUI_LK_YANK,        /* Ctrl-Y: insert what was deleted last */
  TUI_LK_IGNORE,
};

enum tui_lresult { TUI_LR_EDITING, TUI_LR_ACCEPT, TUI_LR_CANCEL };

struct tui_line {
  char buf[256];
  size_t len, cur, max;     /* max: longest text, below sizeof buf */
  /* The old text is selected when the prompt opens: typing replaces it,
   * Enter keeps it, a movement key starts editing it. */
  bool selected;
  char kill[256];
};

/* Opens the editor on text (selected when not empty), cursor at the end;
 * the text stays below cap bytes. */
void tui_line_start(struct tui_line *l, const char *text, size_t cap);
enum tui_lresult tui_line_key(struct tui_line *l, enum tui_lkey key, int ch);

#endif
