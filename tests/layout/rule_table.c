/* Prints libdecode's rule table, one "ID severity" line per rule in table
 * order, for check_rules_doc.py. */
#include <stdio.h>

#include "ualink/core/rules.h"

int main(void) {
  for (int r = 0; r < UAL_R_COUNT; r++)
    printf("%s %s\n", ual_rule_id((enum ual_rule)r), ual_severity_name(ual_rule_severity((enum ual_rule)r)));
  return 0;
}
